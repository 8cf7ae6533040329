//! # `LanePacker`: packs the kept lanes of a beat to the front (combinational)
//!
//! AXI4-Stream lets a beat have holes (`tkeep` low) anywhere; the decoder
//! wants its bytes dense, and `m_axis` wants its words packed. Both are this
//! block: lane `i` of the output is the `i`-th kept lane of the input.
//!
//! ## Parameters
//! * `N`: the lanes, at most 32.
//! * `W`: the width of a lane.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `lane_in[i]` | in | W | lane `i` |
//! | `keep_in[i]` | in | 1 | lane `i` is kept |
//! | `lane_out[i]` | out | W | the `i`-th kept lane; 0 past `count` |
//! | `count` | out | 8 | how many lanes are kept |
//!
//! ## How
//! A kept lane moves down by the number of dropped lanes before it, its
//! `skip`. A parallel prefix (Kogge–Stone) counts them in log₂ N levels of
//! adders; then log₂ N levels of 2:1 multiplexers move each lane by 1, 2,
//! 4, 8, 16 as the bits of its `skip` say, least significant first:
//!
//! ```text
//! lane_in   a  .  b  .  .  c      (. = dropped)
//! skip      0     1        3
//! move 1    a  b  .  .  c  .      (b and c have bit 0 set)
//! move 2    a  b  c  .  .  .      (c has bit 1 set)
//! ```
//!
//! ## Invariants
//! * No two lanes meet at any level: lanes keep their order, and a lane's
//!   remaining `skip` never exceeds the gap below it (least significant bit
//!   first is what makes this hold; `lane_packer_never_collides` checks every
//!   `keep_in` for N up to 16).
//! * `lane_out[i]` for `i < count` are the kept lanes in order.
//!
//! The five levels of each network are written out, for N up to 32: the
//! `#[hdl_gen]` subset indexes arrays only by loop variables and literals.

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct LanePacker<const N: usize, const W: usize> {
    pub lane_in: Vec<Signal<In, Bits<W>>>,
    pub keep_in: Vec<Signal<In, Bit>>,
    pub lane_out: Vec<Signal<Out, Bits<W>>>,
    pub count: Signal<Out, Bits<8>>,
    /// N, for the count of kept lanes.
    lanes: Constant<Bits<8>>,
    /// `nulls0[i]` is 1 for a dropped lane; after level `k`, `nullsk[i]`
    /// counts the dropped lanes among the 2^k up to `i`.
    nulls0: Vec<Signal<Local, Bits<5>>>,
    nulls1: Vec<Signal<Local, Bits<5>>>,
    nulls2: Vec<Signal<Local, Bits<5>>>,
    nulls3: Vec<Signal<Local, Bits<5>>>,
    nulls4: Vec<Signal<Local, Bits<5>>>,
    nulls5: Vec<Signal<Local, Bits<5>>>,
    /// Level `k` of the moving network: each lane's data, whether a kept
    /// lane is there, and how far it still has to move.
    data0: Vec<Signal<Local, Bits<W>>>,
    valid0: Vec<Signal<Local, Bit>>,
    skip0: Vec<Signal<Local, Bits<5>>>,
    data1: Vec<Signal<Local, Bits<W>>>,
    valid1: Vec<Signal<Local, Bit>>,
    skip1: Vec<Signal<Local, Bits<4>>>,
    data2: Vec<Signal<Local, Bits<W>>>,
    valid2: Vec<Signal<Local, Bit>>,
    skip2: Vec<Signal<Local, Bits<3>>>,
    data3: Vec<Signal<Local, Bits<W>>>,
    valid3: Vec<Signal<Local, Bit>>,
    skip3: Vec<Signal<Local, Bits<2>>>,
    data4: Vec<Signal<Local, Bits<W>>>,
    valid4: Vec<Signal<Local, Bit>>,
    /// The dropped lanes of the whole beat, modulo 32.
    all_nulls: Signal<Local, Bits<5>>,
    /// Each level uses bit 0 of the skip and hands on the rest, so that no
    /// bit goes unread: the last level needs one bit.
    far4: Vec<Signal<Local, Bit>>,
    data5: Vec<Signal<Local, Bits<W>>>,
    valid5: Vec<Signal<Local, Bit>>,
}

impl<const N: usize, const W: usize> Default for LanePacker<N, W> {
    fn default() -> Self {
        assert!((1..=32).contains(&N), "a LanePacker has 1 to 32 lanes");
        fn lanes<T: Default>(n: usize) -> Vec<T> {
            (0..n).map(|_| T::default()).collect()
        }
        LanePacker {
            lane_in: lanes(N),
            keep_in: lanes(N),
            lane_out: lanes(N),
            count: Default::default(),
            lanes: Constant::new((N as u64).into()),
            nulls0: lanes(N),
            nulls1: lanes(N),
            nulls2: lanes(N),
            nulls3: lanes(N),
            nulls4: lanes(N),
            nulls5: lanes(N),
            data0: lanes(N),
            valid0: lanes(N),
            skip0: lanes(N),
            data1: lanes(N),
            valid1: lanes(N),
            skip1: lanes(N),
            data2: lanes(N),
            valid2: lanes(N),
            skip2: lanes(N),
            data3: lanes(N),
            valid3: lanes(N),
            skip3: lanes(N),
            data4: lanes(N),
            valid4: lanes(N),
            far4: lanes(N),
            all_nulls: Default::default(),
            data5: lanes(N),
            valid5: lanes(N),
        }
    }
}

impl<const N: usize, const W: usize> Logic for LanePacker<N, W> {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..N {
            self.nulls0[i].next = 0.into();
            if !self.keep_in[i].val() {
                self.nulls0[i].next = 1.into();
            }
        }
        for i in 0..N.min(1) {
            self.nulls1[i].next = self.nulls0[i].val();
        }
        for i in 1..N {
            self.nulls1[i].next = self.nulls0[i].val() + self.nulls0[i - 1].val();
        }
        for i in 0..N.min(2) {
            self.nulls2[i].next = self.nulls1[i].val();
        }
        for i in 2..N {
            self.nulls2[i].next = self.nulls1[i].val() + self.nulls1[i - 2].val();
        }
        for i in 0..N.min(4) {
            self.nulls3[i].next = self.nulls2[i].val();
        }
        for i in 4..N {
            self.nulls3[i].next = self.nulls2[i].val() + self.nulls2[i - 4].val();
        }
        for i in 0..N.min(8) {
            self.nulls4[i].next = self.nulls3[i].val();
        }
        for i in 8..N {
            self.nulls4[i].next = self.nulls3[i].val() + self.nulls3[i - 8].val();
        }
        for i in 0..N.min(16) {
            self.nulls5[i].next = self.nulls4[i].val();
        }
        for i in 16..N {
            self.nulls5[i].next = self.nulls4[i].val() + self.nulls4[i - 16].val();
        }
        // Five bits count up to 31 dropped lanes; 32 wraps to 0, which
        // only 32 dropped lanes of 32 can give (then lane 0 is dropped).
        for i in (N - 1)..N {
            self.all_nulls.next = self.nulls5[i].val();
        }
        self.count.next = self.lanes.val() - bit_cast::<8, 5>(self.all_nulls.val());
        if !self.all_nulls.val().any() & !self.keep_in[0].val() {
            self.count.next = 0.into();
        }
        // A kept lane has no dropped lane at its own place, so the
        // inclusive count is its skip.
        for i in 0..N {
            self.data0[i].next = self.lane_in[i].val();
            self.valid0[i].next = self.keep_in[i].val();
            self.skip0[i].next = self.nulls5[i].val();
        }
        for i in 0..N {
            self.data1[i].next = self.data0[i].val();
            self.valid1[i].next = self.valid0[i].val() & !self.skip0[i].val().get_bit(0);
            self.skip1[i].next = self.skip0[i].val().get_bits::<4>(1);
        }
        for i in 0..N.saturating_sub(1) {
            if self.valid0[i + 1].val() & self.skip0[i + 1].val().get_bit(0) {
                self.data1[i].next = self.data0[i + 1].val();
                self.valid1[i].next = true;
                self.skip1[i].next = self.skip0[i + 1].val().get_bits::<4>(1);
            }
        }
        for i in 0..N {
            self.data2[i].next = self.data1[i].val();
            self.valid2[i].next = self.valid1[i].val() & !self.skip1[i].val().get_bit(0);
            self.skip2[i].next = self.skip1[i].val().get_bits::<3>(1);
        }
        for i in 0..N.saturating_sub(2) {
            if self.valid1[i + 2].val() & self.skip1[i + 2].val().get_bit(0) {
                self.data2[i].next = self.data1[i + 2].val();
                self.valid2[i].next = true;
                self.skip2[i].next = self.skip1[i + 2].val().get_bits::<3>(1);
            }
        }
        for i in 0..N {
            self.data3[i].next = self.data2[i].val();
            self.valid3[i].next = self.valid2[i].val() & !self.skip2[i].val().get_bit(0);
            self.skip3[i].next = self.skip2[i].val().get_bits::<2>(1);
        }
        for i in 0..N.saturating_sub(4) {
            if self.valid2[i + 4].val() & self.skip2[i + 4].val().get_bit(0) {
                self.data3[i].next = self.data2[i + 4].val();
                self.valid3[i].next = true;
                self.skip3[i].next = self.skip2[i + 4].val().get_bits::<2>(1);
            }
        }
        for i in 0..N {
            self.data4[i].next = self.data3[i].val();
            self.valid4[i].next = self.valid3[i].val() & !self.skip3[i].val().get_bit(0);
            self.far4[i].next = self.skip3[i].val().get_bit(1);
        }
        for i in 0..N.saturating_sub(8) {
            if self.valid3[i + 8].val() & self.skip3[i + 8].val().get_bit(0) {
                self.data4[i].next = self.data3[i + 8].val();
                self.valid4[i].next = true;
                self.far4[i].next = self.skip3[i + 8].val().get_bit(1);
            }
        }
        for i in 0..N {
            self.data5[i].next = self.data4[i].val();
            self.valid5[i].next = self.valid4[i].val() & !self.far4[i].val();
        }
        for i in 0..N.saturating_sub(16) {
            if self.valid4[i + 16].val() & self.far4[i + 16].val() {
                self.data5[i].next = self.data4[i + 16].val();
                self.valid5[i].next = true;
            }
        }
        for i in 0..N {
            self.lane_out[i].next = 0.into();
            if self.valid5[i].val() {
                self.lane_out[i].next = self.data5[i].val();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_packer_is_synthesizable() {
        crate::assert_synthesizable(LanePacker::<8, 9>::default());
        crate::assert_synthesizable(LanePacker::<32, 1>::default());
    }

    /// Every `keep_in` of 1, 2, 4, 8 and 16 lanes: the output is the kept
    /// lanes in order, counted; a collision in the network would drop one.
    fn packs_every_mask<const N: usize>() {
        let mut uut = LanePacker::<N, 8>::default();
        uut.connect_all();
        for (i, lane) in uut.lane_in.iter_mut().enumerate() {
            lane.next = (0x40 + i as u64).into();
        }
        for mask in 0..1u64 << N {
            for (i, keep) in uut.keep_in.iter_mut().enumerate() {
                keep.next = mask >> i & 1 == 1;
            }
            assert!(simulate(&mut uut, 100), "settles");
            let kept: Vec<u64> = (0..N as u64)
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| 0x40 + i)
                .collect();
            let out: Vec<u64> = uut.lane_out.iter().map(|l| l.val().to_u64()).collect();
            assert_eq!(uut.count.val().to_u64(), kept.len() as u64, "{mask:b}");
            assert_eq!(&out[..kept.len()], &kept[..], "{mask:b}");
            assert!(out[kept.len()..].iter().all(|&v| v == 0), "{mask:b}");
        }
    }

    #[test]
    fn lane_packer_never_collides() {
        packs_every_mask::<1>();
        packs_every_mask::<2>();
        packs_every_mask::<4>();
        packs_every_mask::<8>();
        packs_every_mask::<16>();
    }
}
