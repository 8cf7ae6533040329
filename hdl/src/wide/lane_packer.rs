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
//! | `skip_in[i]` | in | 5 | its skip, from a [`LaneSkips`](crate::wide::lane_skips::LaneSkips) |
//! | `lane_out[i]` | out | W | the `i`-th kept lane; 0 past the kept lanes |
//! | `keep_out[i]` | out | 1 | `lane_out[i]` is a kept lane: the packed `tkeep` |
//!
//! ## How
//! A kept lane moves down by the number of dropped lanes before it, its
//! `skip` (counted by a [`LaneSkips`](crate::wide::lane_skips::LaneSkips)):
//! log₂ N levels of 2:1 multiplexers move each lane by 1, 2, 4, 8, 16 as
//! the bits of its `skip` say, least significant first:
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
//! The five levels are written out, for N up to 32: the
//! `#[hdl_gen]` subset indexes arrays only by loop variables and literals.

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct LanePacker<const N: usize, const W: usize> {
    pub lane_in: Vec<Signal<In, Bits<W>>>,
    pub keep_in: Vec<Signal<In, Bit>>,
    pub skip_in: Vec<Signal<In, Bits<5>>>,
    pub lane_out: Vec<Signal<Out, Bits<W>>>,
    pub keep_out: Vec<Signal<Out, Bit>>,
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
            skip_in: lanes(N),
            lane_out: lanes(N),
            keep_out: lanes(N),
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
            data5: lanes(N),
            valid5: lanes(N),
        }
    }
}

impl<const N: usize, const W: usize> Logic for LanePacker<N, W> {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..N {
            self.data0[i].next = self.lane_in[i].val();
            self.valid0[i].next = self.keep_in[i].val();
            self.skip0[i].next = self.skip_in[i].val();
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
            self.keep_out[i].next = self.valid5[i].val();
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
    use crate::wide::lane_skips::LaneSkips;

    #[test]
    fn lane_packer_is_synthesizable() {
        crate::assert_synthesizable(LanePacker::<8, 9>::default());
        crate::assert_synthesizable(LanePacker::<32, 1>::default());
    }

    /// The two halves of packing, joined as the stages join them.
    #[derive(LogicBlock, Default)]
    struct Packing<const N: usize> {
        keep: Vec<Signal<In, Bit>>,
        skips: LaneSkips<N>,
        packer: LanePacker<N, 8>,
    }

    impl<const N: usize> Logic for Packing<N> {
        #[hdl_gen]
        fn update(&mut self) {
            for i in 0..N {
                self.skips.keep_in[i].next = self.keep[i].val();
                self.packer.keep_in[i].next = self.keep[i].val();
                self.packer.skip_in[i].next = self.skips.skip[i].val();
            }
        }
    }

    /// Every `keep_in` of 1, 2, 4, 8 and 16 lanes: the output is the kept
    /// lanes in order, counted; a collision in the network would drop one.
    fn packs_every_mask<const N: usize>() {
        packs::<N>(0..1u64 << N);
    }

    fn packs<const N: usize>(masks: impl Iterator<Item = u64>) {
        let mut uut = Packing::<N> {
            keep: (0..N).map(|_| Default::default()).collect(),
            ..Default::default()
        };
        uut.connect_all();
        for (i, lane) in uut.packer.lane_in.iter_mut().enumerate() {
            lane.next = (0x40 + i as u64).into();
        }
        for mask in masks {
            for (i, keep) in uut.keep.iter_mut().enumerate() {
                keep.next = mask >> i & 1 == 1;
            }
            assert!(simulate(&mut uut, 100), "settles");
            let kept: Vec<u64> = (0..N as u64)
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| 0x40 + i)
                .collect();
            let out: Vec<u64> = uut
                .packer
                .lane_out
                .iter()
                .map(|l| l.val().to_u64())
                .collect();
            let keep_out: Vec<bool> = uut.packer.keep_out.iter().map(|k| k.val()).collect();
            let packed: Vec<bool> = (0..N).map(|i| i < kept.len()).collect();
            assert_eq!(keep_out, packed, "{mask:b}");
            assert_eq!(uut.skips.any_kept.val(), !kept.is_empty(), "{mask:b}");
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
        // 32 dropped lanes of 32 wrap the five-bit count to 0, as none do.
        packs::<32>([0, u32::MAX as u64, 1, 1 << 31, 0xAAAA_AAAA, 0x8000_0001].into_iter());
    }
}
