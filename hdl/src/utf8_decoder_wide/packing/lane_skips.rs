//! # `LaneSkips`: how far each kept lane of a beat moves to pack it, one register per level
//!
//! The first half of packing a beat, inside the
//! [`LanePacker`](crate::utf8_decoder_wide::packing::LanePacker): a kept lane moves
//! down by the number of dropped lanes before it, its *skip*. A parallel
//! prefix (Kogge–Stone) counts them in log₂ N levels of adders, and each
//! level is registered, with the lanes and the beat carried beside the
//! count, so that a level's logic is one small adder whatever N is.
//! (Left combinational, the three levels at N = 8 were the decoder's
//! critical path: 8 cells, 2.4 ns of logic and 4.5 ns of routing, and the
//! path grew with log₂ N.)
//!
//! ## Parameters
//! * `N`: the lanes, a power of two from 2 to 32.
//! * `W`: the width of a lane.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `rst` | in | 1 | clock; synchronous reset, active high |
//! | `lane_in[i]`, `keep_in[i]` | in | W, 1 | lane `i`, and whether it is kept |
//! | `beat_in`, `last_in` | in | 1 | a beat is here; its `tlast` |
//! | `lane_out[i]`, `keep_out[i]` | out | W, 1 | registered: the lanes as they came |
//! | `skip[i]` | out | 5 | registered: for a kept lane, the dropped lanes before it |
//! | `nulls` | out | 6 | registered: the dropped lanes of the beat, 0 to N |
//! | `beat_out`, `last_out` | out | 1 | registered: the beat's, as they came |
//!
//! ```text
//! keep_in    1  0  1  0  0  1
//! skip       0     1        3      nulls = 3
//! ```
//!
//! ## Latency
//! log₂ N cycles ([`LaneSkips::LATENCY`]), on every cycle: after level `k`,
//! a lane's count holds the dropped lanes among the 2^k up to it.
//!
//! ## Invariants
//! * `skip[i]` of a kept lane is below 32: a kept lane has at most N − 1
//!   dropped lanes before it.
//! * `beat_out` is low for log₂ N cycles after a reset cycle.
//!
//! The five levels are written out, for N up to 32: the `#[hdl_gen]`
//! subset indexes arrays only by loop variables and literals. Each level's
//! lanes are [`LaneRegister`]s, none where N does not need the level
//! ([`lanes_at`]); the beat beside them is a [`BeatDelay`].

use rust_hdl::prelude::*;

use crate::many;

use crate::utf8_decoder_wide::packing::lane_packer::{if_last, lanes_at};
use crate::utf8_decoder_wide::packing::{BeatDelay, LaneRegister};

#[derive(LogicBlock)]
pub struct LaneSkips<const N: usize, const W: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub lane_in: Vec<Signal<In, Bits<W>>>,
    pub keep_in: Vec<Signal<In, Bit>>,
    pub beat_in: Signal<In, Bit>,
    pub last_in: Signal<In, Bit>,
    pub lane_out: Vec<Signal<Out, Bits<W>>>,
    pub keep_out: Vec<Signal<Out, Bit>>,
    pub skip: Vec<Signal<Out, Bits<5>>>,
    pub nulls: Signal<Out, Bits<6>>,
    pub beat_out: Signal<Out, Bit>,
    pub last_out: Signal<Out, Bit>,
    /// 1 for a dropped lane.
    nulls0: Vec<Signal<Local, Bits<6>>>,
    /// The top bit of the last level's counts but the last lane's, which
    /// a skip does not need: lane `i` counts at most `i + 1` ≤ 31 dropped
    /// lanes (Verilator's lint passes over `unused_*`; yosys removes it).
    unused_top: Signal<Local, Bit>,
    /// Level `k`, registered: each lane's count of the dropped lanes among
    /// the 2^k up to it, beside its data and kept bit (no lanes where the
    /// level is not built).
    level1: Vec<LaneRegister<W, 6>>,
    level2: Vec<LaneRegister<W, 6>>,
    level3: Vec<LaneRegister<W, 6>>,
    level4: Vec<LaneRegister<W, 6>>,
    level5: Vec<LaneRegister<W, 6>>,
    /// The beat in each level.
    beats: BeatDelay<N>,
}

impl<const N: usize, const W: usize> LaneSkips<N, W> {
    /// The cycles from `*_in` to the outputs: one per level, log₂ N.
    pub const LATENCY: u64 = N.ilog2() as u64;
}

impl<const N: usize, const W: usize> Default for LaneSkips<N, W> {
    fn default() -> Self {
        assert!(
            N.is_power_of_two() && (2..=32).contains(&N),
            "LaneSkips has 2, 4, 8, 16 or 32 lanes"
        );
        LaneSkips {
            clock: Default::default(),
            rst: Default::default(),
            lane_in: many(N),
            keep_in: many(N),
            beat_in: Default::default(),
            last_in: Default::default(),
            lane_out: many(N),
            keep_out: many(N),
            skip: many(N),
            nulls: Default::default(),
            beat_out: Default::default(),
            last_out: Default::default(),
            nulls0: many(N),
            unused_top: Default::default(),
            level1: many(lanes_at(N, 1)),
            level2: many(lanes_at(N, 2)),
            level3: many(lanes_at(N, 3)),
            level4: many(lanes_at(N, 4)),
            level5: many(lanes_at(N, 5)),
            beats: Default::default(),
        }
    }
}

impl<const N: usize, const W: usize> Logic for LaneSkips<N, W> {
    #[hdl_gen]
    fn update(&mut self) {
        self.beats.clock.next = self.clock.val();
        self.beats.rst.next = self.rst.val();
        self.beats.beat_in.next = self.beat_in.val();
        self.beats.last_in.next = self.last_in.val();
        self.beat_out.next = self.beats.beat_out.val();
        self.last_out.next = self.beats.last_out.val();

        for i in 0..N {
            self.nulls0[i].next = 0.into();
            if !self.keep_in[i].val() {
                self.nulls0[i].next = 1.into();
            }
        }
        // Level 1: the lane and the one before it.
        for i in 0..lanes_at(N, 1) {
            self.level1[i].clock.next = self.clock.val();
            self.level1[i].data_in.next = self.lane_in[i].val();
            self.level1[i].keep_in.next = self.keep_in[i].val();
            self.level1[i].value_in.next = self.nulls0[i].val();
        }
        for i in 1..lanes_at(N, 1) {
            self.level1[i].value_in.next = self.nulls0[i].val() + self.nulls0[i - 1].val();
        }
        // Level 2: and the two before those.
        for i in 0..lanes_at(N, 2) {
            self.level2[i].clock.next = self.clock.val();
            self.level2[i].data_in.next = self.level1[i].data.val();
            self.level2[i].keep_in.next = self.level1[i].keep.val();
            self.level2[i].value_in.next = self.level1[i].value.val();
        }
        for i in 2..lanes_at(N, 2) {
            self.level2[i].value_in.next =
                self.level1[i].value.val() + self.level1[i - 2].value.val();
        }
        // Level 3: 8 lanes.
        for i in 0..lanes_at(N, 3) {
            self.level3[i].clock.next = self.clock.val();
            self.level3[i].data_in.next = self.level2[i].data.val();
            self.level3[i].keep_in.next = self.level2[i].keep.val();
            self.level3[i].value_in.next = self.level2[i].value.val();
        }
        for i in 4..lanes_at(N, 3) {
            self.level3[i].value_in.next =
                self.level2[i].value.val() + self.level2[i - 4].value.val();
        }
        // Level 4: 16 lanes.
        for i in 0..lanes_at(N, 4) {
            self.level4[i].clock.next = self.clock.val();
            self.level4[i].data_in.next = self.level3[i].data.val();
            self.level4[i].keep_in.next = self.level3[i].keep.val();
            self.level4[i].value_in.next = self.level3[i].value.val();
        }
        for i in 8..lanes_at(N, 4) {
            self.level4[i].value_in.next =
                self.level3[i].value.val() + self.level3[i - 8].value.val();
        }
        // Level 5: 32 lanes.
        for i in 0..lanes_at(N, 5) {
            self.level5[i].clock.next = self.clock.val();
            self.level5[i].data_in.next = self.level4[i].data.val();
            self.level5[i].keep_in.next = self.level4[i].keep.val();
            self.level5[i].value_in.next = self.level4[i].value.val();
        }
        for i in 16..lanes_at(N, 5) {
            self.level5[i].value_in.next =
                self.level4[i].value.val() + self.level4[i - 16].value.val();
        }

        // The outputs, from the last level. A kept lane has no dropped lane
        // at its own place, so its inclusive count is its skip; the last
        // lane's count is the beat's.
        self.unused_top.next = false;
        for i in 0..if_last(N, 1, N) {
            self.skip[i].next = self.level1[i].value.val().get_bits::<5>(0);
            self.lane_out[i].next = self.level1[i].data.val();
            self.keep_out[i].next = self.level1[i].keep.val();
        }
        for i in 0..if_last(N, 2, N) {
            self.skip[i].next = self.level2[i].value.val().get_bits::<5>(0);
            self.lane_out[i].next = self.level2[i].data.val();
            self.keep_out[i].next = self.level2[i].keep.val();
        }
        for i in 0..if_last(N, 3, N) {
            self.skip[i].next = self.level3[i].value.val().get_bits::<5>(0);
            self.lane_out[i].next = self.level3[i].data.val();
            self.keep_out[i].next = self.level3[i].keep.val();
        }
        for i in 0..if_last(N, 4, N) {
            self.skip[i].next = self.level4[i].value.val().get_bits::<5>(0);
            self.lane_out[i].next = self.level4[i].data.val();
            self.keep_out[i].next = self.level4[i].keep.val();
        }
        for i in 0..if_last(N, 5, N) {
            self.skip[i].next = self.level5[i].value.val().get_bits::<5>(0);
            self.lane_out[i].next = self.level5[i].data.val();
            self.keep_out[i].next = self.level5[i].keep.val();
        }
        for i in 0..if_last(N, 1, N - 1) {
            self.unused_top.next = self.unused_top.val() | self.level1[i].value.val().get_bit(5);
        }
        for i in 0..if_last(N, 2, N - 1) {
            self.unused_top.next = self.unused_top.val() | self.level2[i].value.val().get_bit(5);
        }
        for i in 0..if_last(N, 3, N - 1) {
            self.unused_top.next = self.unused_top.val() | self.level3[i].value.val().get_bit(5);
        }
        for i in 0..if_last(N, 4, N - 1) {
            self.unused_top.next = self.unused_top.val() | self.level4[i].value.val().get_bit(5);
        }
        for i in 0..if_last(N, 5, N - 1) {
            self.unused_top.next = self.unused_top.val() | self.level5[i].value.val().get_bit(5);
        }
        for i in (if_last(N, 1, N) - if_last(N, 1, 1))..if_last(N, 1, N) {
            self.nulls.next = self.level1[i].value.val();
        }
        for i in (if_last(N, 2, N) - if_last(N, 2, 1))..if_last(N, 2, N) {
            self.nulls.next = self.level2[i].value.val();
        }
        for i in (if_last(N, 3, N) - if_last(N, 3, 1))..if_last(N, 3, N) {
            self.nulls.next = self.level3[i].value.val();
        }
        for i in (if_last(N, 4, N) - if_last(N, 4, 1))..if_last(N, 4, N) {
            self.nulls.next = self.level4[i].value.val();
        }
        for i in (if_last(N, 5, N) - if_last(N, 5, 1))..if_last(N, 5, N) {
            self.nulls.next = self.level5[i].value.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_skips_is_synthesizable() {
        crate::assert_synthesizable(LaneSkips::<8, 9>::default());
        crate::assert_synthesizable(LaneSkips::<32, 1>::default());
        crate::assert_synthesizable(LaneSkips::<2, 8>::default());
    }
}
