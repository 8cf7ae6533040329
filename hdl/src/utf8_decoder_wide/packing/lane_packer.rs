//! # `LanePacker`: packs the kept lanes of a beat to the front, one register per level
//!
//! AXI4-Stream lets a beat have holes (`tkeep` low) anywhere; the decoder
//! wants its bytes dense, and `m_axis` wants its words packed. Both are this
//! block: lane `i` of the output is the `i`-th kept lane of the input.
//!
//! ## Parameters
//! * `N`: the lanes, a power of two from 2 to 32.
//! * `W`: the width of a lane.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `rst` | in | 1 | clock; synchronous reset, active high |
//! | `lane_in[i]` | in | W | lane `i` |
//! | `keep_in[i]` | in | 1 | lane `i` is kept |
//! | `beat_in`, `last_in` | in | 1 | a beat is here; its `tlast` |
//! | `lane_out[i]` | out | W | the `i`-th kept lane; 0 past the kept lanes |
//! | `keep_out[i]` | out | 1 | `lane_out[i]` is a kept lane: the packed `tkeep` |
//! | `nulls_out` | out | 6 | the beat's dropped lanes, 0 to N |
//! | `beat_out`, `last_out` | out | 1 | the beat's, as they came in |
//!
//! ## How
//! A kept lane moves down by the number of dropped lanes before it, its
//! `skip`, counted first by a [`LaneSkips`] (log₂ N registered levels of a
//! prefix count); then log₂ N levels of 2:1 multiplexers move each lane by
//! 1, 2, 4, 8, 16 as the bits of its `skip` say, least significant first:
//!
//! ```text
//! lane_in   a  .  b  .  .  c      (. = dropped)
//! skip      0     1        3
//! move 1    a  b  .  .  c  .      (b and c have bit 0 set)
//! move 2    a  b  c  .  .  .      (c has bit 1 set)
//! ```
//!
//! Each level is registered: its logic is one multiplexer whose select is
//! the source lane's kept bit and skip bit, so no path grows with N. (Left
//! combinational, the selects chain through the levels, and at N = 8 the
//! packing is the decoder's critical path: 5 LUTs and 6 ns of routing.)
//!
//! ## Latency
//! 2 log₂ N cycles ([`LanePacker::LATENCY`]): log₂ N to count, log₂ N to
//! move, on every cycle: a new beat may enter each clock.
//!
//! ## Invariants
//! * No two lanes meet at any level: lanes keep their order, and a lane's
//!   remaining `skip` never exceeds the gap below it (least significant bit
//!   first is what makes this hold; `lane_packer_never_collides` checks every
//!   `keep_in` for N up to 16).
//! * `lane_out[i]` for `i < count` are the kept lanes in order.
//! * `beat_out` is low for 2 log₂ N cycles after a reset cycle.
//!
//! The five levels are written out, for N up to 32: the `#[hdl_gen]`
//! subset indexes arrays only by loop variables and literals. Each level's
//! lanes are [`LaneRegister`]s, none where N does not need the level
//! ([`lanes_at`]); the beat beside them is a [`BeatDelay`].

use rust_hdl::prelude::*;

use crate::many;

use crate::utf8_decoder_wide::packing::beat_delay::levels;
use crate::utf8_decoder_wide::packing::{BeatDelay, LaneRegister, LaneSkips};

/// `count` if `level` is the last level of a network of `n` lanes, else
/// 0: the loop bound that takes the outputs from that level.
pub(crate) const fn if_last(n: usize, level: u32, count: usize) -> usize {
    if n == 1 << level {
        count
    } else {
        0
    }
}

/// The lanes of level `level` (1 to 5, which moves or counts across
/// 2^(level-1) lanes) of a network of `n` lanes: all of them if a lane can
/// move that far, else none, so that the level is not built.
pub const fn lanes_at(n: usize, level: u32) -> usize {
    if n > 1 << (level - 1) {
        n
    } else {
        0
    }
}

#[derive(LogicBlock)]
pub struct LanePacker<const N: usize, const W: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub lane_in: Vec<Signal<In, Bits<W>>>,
    pub keep_in: Vec<Signal<In, Bit>>,
    pub beat_in: Signal<In, Bit>,
    pub last_in: Signal<In, Bit>,
    pub lane_out: Vec<Signal<Out, Bits<W>>>,
    pub keep_out: Vec<Signal<Out, Bit>>,
    pub nulls_out: Signal<Out, Bits<6>>,
    pub beat_out: Signal<Out, Bit>,
    pub last_out: Signal<Out, Bit>,
    /// The first half: each lane's skip.
    skips: LaneSkips<N, W>,
    /// Level `k`, registered: each lane's data, whether a kept lane is
    /// there, and the bits of its skip still to move by (after the last
    /// level, none: a constant 0 that synthesis removes). No lanes where
    /// the level is not built.
    level1: Vec<LaneRegister<W, 4>>,
    level2: Vec<LaneRegister<W, 3>>,
    level3: Vec<LaneRegister<W, 2>>,
    level4: Vec<LaneRegister<W, 1>>,
    level5: Vec<LaneRegister<W, 1>>,
    /// The beat in each level, and its dropped lanes.
    beats: BeatDelay<N>,
    nulls: Vec<DFF<Bits<6>>>,
}

impl<const N: usize, const W: usize> LanePacker<N, W> {
    /// The cycles from `*_in` to `*_out`: log₂ N levels to count, then
    /// log₂ N to move.
    pub const LATENCY: u64 = LaneSkips::<N, W>::LATENCY + N.ilog2() as u64;
}

impl<const N: usize, const W: usize> Default for LanePacker<N, W> {
    fn default() -> Self {
        assert!(
            N.is_power_of_two() && (2..=32).contains(&N),
            "a LanePacker has 2, 4, 8, 16 or 32 lanes"
        );
        LanePacker {
            clock: Default::default(),
            rst: Default::default(),
            lane_in: many(N),
            keep_in: many(N),
            beat_in: Default::default(),
            last_in: Default::default(),
            lane_out: many(N),
            keep_out: many(N),
            nulls_out: Default::default(),
            beat_out: Default::default(),
            last_out: Default::default(),
            skips: Default::default(),
            level1: many(lanes_at(N, 1)),
            level2: many(lanes_at(N, 2)),
            level3: many(lanes_at(N, 3)),
            level4: many(lanes_at(N, 4)),
            level5: many(lanes_at(N, 5)),
            beats: Default::default(),
            nulls: many(levels(N)),
        }
    }
}

impl<const N: usize, const W: usize> Logic for LanePacker<N, W> {
    #[hdl_gen]
    fn update(&mut self) {
        self.skips.clock.next = self.clock.val();
        self.skips.rst.next = self.rst.val();
        for i in 0..N {
            self.skips.lane_in[i].next = self.lane_in[i].val();
            self.skips.keep_in[i].next = self.keep_in[i].val();
        }
        self.skips.beat_in.next = self.beat_in.val();
        self.skips.last_in.next = self.last_in.val();

        self.beats.clock.next = self.clock.val();
        self.beats.rst.next = self.rst.val();
        self.beats.beat_in.next = self.skips.beat_out.val();
        self.beats.last_in.next = self.skips.last_out.val();
        self.beat_out.next = self.beats.beat_out.val();
        self.last_out.next = self.beats.last_out.val();
        for k in 0..levels(N) {
            self.nulls[k].clock.next = self.clock.val();
        }
        self.nulls[0].d.next = self.skips.nulls.val();
        for k in 1..levels(N) {
            self.nulls[k].d.next = self.nulls[k - 1].q.val();
        }
        for k in levels(N).saturating_sub(1)..levels(N) {
            self.nulls_out.next = self.nulls[k].q.val();
        }

        // Level 1: move by 1.
        for i in 0..lanes_at(N, 1) {
            self.level1[i].clock.next = self.clock.val();
            self.level1[i].data_in.next = self.skips.lane_out[i].val();
            self.level1[i].keep_in.next =
                self.skips.keep_out[i].val() & !self.skips.skip[i].val().get_bit(0);
            self.level1[i].value_in.next = self.skips.skip[i].val().get_bits::<4>(1);
        }
        for i in 0..lanes_at(N, 1).saturating_sub(1) {
            if self.skips.keep_out[i + 1].val() & self.skips.skip[i + 1].val().get_bit(0) {
                self.level1[i].data_in.next = self.skips.lane_out[i + 1].val();
                self.level1[i].keep_in.next = true;
                self.level1[i].value_in.next = self.skips.skip[i + 1].val().get_bits::<4>(1);
            }
        }
        // Level 2: move by 2.
        for i in 0..lanes_at(N, 2) {
            self.level2[i].clock.next = self.clock.val();
            self.level2[i].data_in.next = self.level1[i].data.val();
            self.level2[i].keep_in.next =
                self.level1[i].keep.val() & !self.level1[i].value.val().get_bit(0);
            self.level2[i].value_in.next = self.level1[i].value.val().get_bits::<3>(1);
        }
        for i in 0..lanes_at(N, 2).saturating_sub(2) {
            if self.level1[i + 2].keep.val() & self.level1[i + 2].value.val().get_bit(0) {
                self.level2[i].data_in.next = self.level1[i + 2].data.val();
                self.level2[i].keep_in.next = true;
                self.level2[i].value_in.next = self.level1[i + 2].value.val().get_bits::<3>(1);
            }
        }
        // Level 3: move by 4.
        for i in 0..lanes_at(N, 3) {
            self.level3[i].clock.next = self.clock.val();
            self.level3[i].data_in.next = self.level2[i].data.val();
            self.level3[i].keep_in.next =
                self.level2[i].keep.val() & !self.level2[i].value.val().get_bit(0);
            self.level3[i].value_in.next = self.level2[i].value.val().get_bits::<2>(1);
        }
        for i in 0..lanes_at(N, 3).saturating_sub(4) {
            if self.level2[i + 4].keep.val() & self.level2[i + 4].value.val().get_bit(0) {
                self.level3[i].data_in.next = self.level2[i + 4].data.val();
                self.level3[i].keep_in.next = true;
                self.level3[i].value_in.next = self.level2[i + 4].value.val().get_bits::<2>(1);
            }
        }
        // Level 4: move by 8.
        for i in 0..lanes_at(N, 4) {
            self.level4[i].clock.next = self.clock.val();
            self.level4[i].data_in.next = self.level3[i].data.val();
            self.level4[i].keep_in.next =
                self.level3[i].keep.val() & !self.level3[i].value.val().get_bit(0);
            self.level4[i].value_in.next = self.level3[i].value.val().get_bits::<1>(1);
        }
        for i in 0..lanes_at(N, 4).saturating_sub(8) {
            if self.level3[i + 8].keep.val() & self.level3[i + 8].value.val().get_bit(0) {
                self.level4[i].data_in.next = self.level3[i + 8].data.val();
                self.level4[i].keep_in.next = true;
                self.level4[i].value_in.next = self.level3[i + 8].value.val().get_bits::<1>(1);
            }
        }
        // Level 5: move by 16.
        for i in 0..lanes_at(N, 5) {
            self.level5[i].clock.next = self.clock.val();
            self.level5[i].data_in.next = self.level4[i].data.val();
            self.level5[i].keep_in.next =
                self.level4[i].keep.val() & !self.level4[i].value.val().any();
            self.level5[i].value_in.next = 0.into();
        }
        for i in 0..lanes_at(N, 5).saturating_sub(16) {
            if self.level4[i + 16].keep.val() & self.level4[i + 16].value.val().any() {
                self.level5[i].data_in.next = self.level4[i + 16].data.val();
                self.level5[i].keep_in.next = true;
                self.level5[i].value_in.next = 0.into();
            }
        }

        // The outputs, from the last level. A lane is out where it is kept and
        // has no skip left: a skip of a kept lane never exceeds the dropped
        // lanes below it, so none is left once every level has moved it,
        // but the bits a count of N lanes could set are read all the same.
        for i in 0..if_last(N, 1, N) {
            self.keep_out[i].next = self.level1[i].keep.val() & !self.level1[i].value.val().any();
            self.lane_out[i].next = 0.into();
            if self.level1[i].keep.val() & !self.level1[i].value.val().any() {
                self.lane_out[i].next = self.level1[i].data.val();
            }
        }
        for i in 0..if_last(N, 2, N) {
            self.keep_out[i].next = self.level2[i].keep.val() & !self.level2[i].value.val().any();
            self.lane_out[i].next = 0.into();
            if self.level2[i].keep.val() & !self.level2[i].value.val().any() {
                self.lane_out[i].next = self.level2[i].data.val();
            }
        }
        for i in 0..if_last(N, 3, N) {
            self.keep_out[i].next = self.level3[i].keep.val() & !self.level3[i].value.val().any();
            self.lane_out[i].next = 0.into();
            if self.level3[i].keep.val() & !self.level3[i].value.val().any() {
                self.lane_out[i].next = self.level3[i].data.val();
            }
        }
        for i in 0..if_last(N, 4, N) {
            self.keep_out[i].next = self.level4[i].keep.val() & !self.level4[i].value.val().any();
            self.lane_out[i].next = 0.into();
            if self.level4[i].keep.val() & !self.level4[i].value.val().any() {
                self.lane_out[i].next = self.level4[i].data.val();
            }
        }
        for i in 0..if_last(N, 5, N) {
            self.keep_out[i].next = self.level5[i].keep.val() & !self.level5[i].value.val().any();
            self.lane_out[i].next = 0.into();
            if self.level5[i].keep.val() & !self.level5[i].value.val().any() {
                self.lane_out[i].next = self.level5[i].data.val();
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
        crate::assert_synthesizable(LanePacker::<2, 8>::default());
    }

    /// Every `keep_in` of 2, 4, 8 and 16 lanes: the output is the kept
    /// lanes in order, counted; a collision in the network would drop one.
    fn packs_every_mask<const N: usize>() {
        packs::<N>((0..1u64 << N).collect());
    }

    /// Feeds one mask a cycle, each beat's lanes numbered by its cycle, and
    /// checks every beat 2 log₂ N cycles later: the levels are a pipeline,
    /// and no beat meets another.
    fn packs<const N: usize>(masks: Vec<u64>) {
        let mut uut = LanePacker::<N, 16>::default();
        uut.connect_all();
        let latency = LanePacker::<N, 16>::LATENCY as usize;
        assert_eq!(1 << (latency / 2), N);
        for t in 0..masks.len() + latency {
            let mask = masks.get(t).copied().unwrap_or(0);
            uut.clock.next = false.into();
            for (i, keep) in uut.keep_in.iter_mut().enumerate() {
                keep.next = mask >> i & 1 == 1;
            }
            for (i, lane) in uut.lane_in.iter_mut().enumerate() {
                lane.next = ((t as u64 & 0x3FF) << 5 | i as u64).into();
            }
            uut.beat_in.next = t < masks.len();
            uut.last_in.next = t % 3 == 0;
            assert!(simulate(&mut uut, 100), "settles");
            uut.clock.next = true.into();
            assert!(simulate(&mut uut, 100), "settles");
            // The beat of edge `t + 1 - latency` is out.
            let Some(beat) = (t + 1).checked_sub(latency) else {
                assert!(!uut.beat_out.val());
                continue;
            };
            let mask = masks.get(beat).copied().unwrap_or(0);
            assert_eq!(uut.beat_out.val(), beat < masks.len());
            assert_eq!(uut.last_out.val(), beat % 3 == 0);
            let kept: Vec<u64> = (0..N as u64)
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| (beat as u64 & 0x3FF) << 5 | i)
                .collect();
            assert_eq!(
                uut.nulls_out.val().to_u64(),
                (N - kept.len()) as u64,
                "{mask:b}"
            );
            let out: Vec<u64> = uut.lane_out.iter().map(|l| l.val().to_u64()).collect();
            let keep_out: Vec<bool> = uut.keep_out.iter().map(|k| k.val()).collect();
            let packed: Vec<bool> = (0..N).map(|i| i < kept.len()).collect();
            assert_eq!(keep_out, packed, "{mask:b}");
            assert_eq!(&out[..kept.len()], &kept[..], "{mask:b}");
            assert!(out[kept.len()..].iter().all(|&v| v == 0), "{mask:b}");
        }
    }

    #[test]
    fn lane_packer_never_collides() {
        packs_every_mask::<2>();
        packs_every_mask::<4>();
        packs_every_mask::<8>();
        packs_every_mask::<16>();
        packs::<32>(vec![
            0,
            u32::MAX as u64,
            1,
            1 << 31,
            0xAAAA_AAAA,
            0x8000_0001,
            0x7FFF_FFFF,
        ]);
    }

    /// A reset clears the beats inside the levels, counting and moving.
    #[test]
    fn reset_empties_the_levels() {
        let mut uut = LanePacker::<8, 8>::default();
        uut.connect_all();
        let latency = LanePacker::<8, 8>::LATENCY as usize;
        let cycles = [(false, true), (false, true), (false, true), (true, true)]
            .into_iter()
            .chain(std::iter::repeat_n((false, false), latency - 1));
        for (rst, beat) in cycles {
            uut.rst.next = rst;
            uut.beat_in.next = beat;
            uut.clock.next = false.into();
            assert!(simulate(&mut uut, 100));
            uut.clock.next = true.into();
            assert!(simulate(&mut uut, 100));
            // Beats entered before the reset would be leaving from now on.
            assert!(!uut.beat_out.val());
        }
    }
}
