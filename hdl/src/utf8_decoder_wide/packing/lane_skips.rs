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
//! subset indexes arrays only by loop variables and literals. A level that
//! N does not need has no lanes ([`lanes_at`]).

use rust_hdl::prelude::*;

use crate::utf8_decoder_wide::many;

use crate::utf8_decoder_wide::packing::lane_packer::{if_exists, if_last, lanes_at};

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
    /// the 2^k up to it, its data and kept bit; and the beat's own
    /// registers (one, or none where the level is not built).
    nulls1: Vec<DFF<Bits<6>>>,
    data1: Vec<DFF<Bits<W>>>,
    keep1: Vec<DFF<Bit>>,
    beat1: Vec<DFF<Bit>>,
    last1: Vec<DFF<Bit>>,
    nulls2: Vec<DFF<Bits<6>>>,
    data2: Vec<DFF<Bits<W>>>,
    keep2: Vec<DFF<Bit>>,
    beat2: Vec<DFF<Bit>>,
    last2: Vec<DFF<Bit>>,
    nulls3: Vec<DFF<Bits<6>>>,
    data3: Vec<DFF<Bits<W>>>,
    keep3: Vec<DFF<Bit>>,
    beat3: Vec<DFF<Bit>>,
    last3: Vec<DFF<Bit>>,
    nulls4: Vec<DFF<Bits<6>>>,
    data4: Vec<DFF<Bits<W>>>,
    keep4: Vec<DFF<Bit>>,
    beat4: Vec<DFF<Bit>>,
    last4: Vec<DFF<Bit>>,
    nulls5: Vec<DFF<Bits<6>>>,
    data5: Vec<DFF<Bits<W>>>,
    keep5: Vec<DFF<Bit>>,
    beat5: Vec<DFF<Bit>>,
    last5: Vec<DFF<Bit>>,
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
            nulls1: many(lanes_at(N, 1)),
            data1: many(lanes_at(N, 1)),
            keep1: many(lanes_at(N, 1)),
            beat1: many(if_exists(N, 1)),
            last1: many(if_exists(N, 1)),
            nulls2: many(lanes_at(N, 2)),
            data2: many(lanes_at(N, 2)),
            keep2: many(lanes_at(N, 2)),
            beat2: many(if_exists(N, 2)),
            last2: many(if_exists(N, 2)),
            nulls3: many(lanes_at(N, 3)),
            data3: many(lanes_at(N, 3)),
            keep3: many(lanes_at(N, 3)),
            beat3: many(if_exists(N, 3)),
            last3: many(if_exists(N, 3)),
            nulls4: many(lanes_at(N, 4)),
            data4: many(lanes_at(N, 4)),
            keep4: many(lanes_at(N, 4)),
            beat4: many(if_exists(N, 4)),
            last4: many(if_exists(N, 4)),
            nulls5: many(lanes_at(N, 5)),
            data5: many(lanes_at(N, 5)),
            keep5: many(lanes_at(N, 5)),
            beat5: many(if_exists(N, 5)),
            last5: many(if_exists(N, 5)),
        }
    }
}

impl<const N: usize, const W: usize> Logic for LaneSkips<N, W> {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..lanes_at(N, 1) {
            self.nulls1[i].clock.next = self.clock.val();
            self.data1[i].clock.next = self.clock.val();
            self.keep1[i].clock.next = self.clock.val();
        }
        for i in 0..lanes_at(N, 2) {
            self.nulls2[i].clock.next = self.clock.val();
            self.data2[i].clock.next = self.clock.val();
            self.keep2[i].clock.next = self.clock.val();
        }
        for i in 0..lanes_at(N, 3) {
            self.nulls3[i].clock.next = self.clock.val();
            self.data3[i].clock.next = self.clock.val();
            self.keep3[i].clock.next = self.clock.val();
        }
        for i in 0..lanes_at(N, 4) {
            self.nulls4[i].clock.next = self.clock.val();
            self.data4[i].clock.next = self.clock.val();
            self.keep4[i].clock.next = self.clock.val();
        }
        for i in 0..lanes_at(N, 5) {
            self.nulls5[i].clock.next = self.clock.val();
            self.data5[i].clock.next = self.clock.val();
            self.keep5[i].clock.next = self.clock.val();
        }
        for j in 0..if_exists(N, 1) {
            self.beat1[j].clock.next = self.clock.val();
            self.last1[j].clock.next = self.clock.val();
            self.beat1[j].d.next = self.beat_in.val() & !self.rst.val();
            self.last1[j].d.next = self.last_in.val();
        }
        for j in 0..if_exists(N, 2) {
            self.beat2[j].clock.next = self.clock.val();
            self.last2[j].clock.next = self.clock.val();
            self.beat2[j].d.next = self.beat1[j].q.val() & !self.rst.val();
            self.last2[j].d.next = self.last1[j].q.val();
        }
        for j in 0..if_exists(N, 3) {
            self.beat3[j].clock.next = self.clock.val();
            self.last3[j].clock.next = self.clock.val();
            self.beat3[j].d.next = self.beat2[j].q.val() & !self.rst.val();
            self.last3[j].d.next = self.last2[j].q.val();
        }
        for j in 0..if_exists(N, 4) {
            self.beat4[j].clock.next = self.clock.val();
            self.last4[j].clock.next = self.clock.val();
            self.beat4[j].d.next = self.beat3[j].q.val() & !self.rst.val();
            self.last4[j].d.next = self.last3[j].q.val();
        }
        for j in 0..if_exists(N, 5) {
            self.beat5[j].clock.next = self.clock.val();
            self.last5[j].clock.next = self.clock.val();
            self.beat5[j].d.next = self.beat4[j].q.val() & !self.rst.val();
            self.last5[j].d.next = self.last4[j].q.val();
        }

        for i in 0..N {
            self.nulls0[i].next = 0.into();
            if !self.keep_in[i].val() {
                self.nulls0[i].next = 1.into();
            }
        }
        // Level 1: the lane and the one before it.
        for i in 0..lanes_at(N, 1) {
            self.nulls1[i].d.next = self.nulls0[i].val();
            self.data1[i].d.next = self.lane_in[i].val();
            self.keep1[i].d.next = self.keep_in[i].val();
        }
        for i in 1..lanes_at(N, 1) {
            self.nulls1[i].d.next = self.nulls0[i].val() + self.nulls0[i - 1].val();
        }
        // Level 2: and the two before those.
        for i in 0..lanes_at(N, 2) {
            self.nulls2[i].d.next = self.nulls1[i].q.val();
            self.data2[i].d.next = self.data1[i].q.val();
            self.keep2[i].d.next = self.keep1[i].q.val();
        }
        for i in 2..lanes_at(N, 2) {
            self.nulls2[i].d.next = self.nulls1[i].q.val() + self.nulls1[i - 2].q.val();
        }
        // Level 3: 8 lanes.
        for i in 0..lanes_at(N, 3) {
            self.nulls3[i].d.next = self.nulls2[i].q.val();
            self.data3[i].d.next = self.data2[i].q.val();
            self.keep3[i].d.next = self.keep2[i].q.val();
        }
        for i in 4..lanes_at(N, 3) {
            self.nulls3[i].d.next = self.nulls2[i].q.val() + self.nulls2[i - 4].q.val();
        }
        // Level 4: 16 lanes.
        for i in 0..lanes_at(N, 4) {
            self.nulls4[i].d.next = self.nulls3[i].q.val();
            self.data4[i].d.next = self.data3[i].q.val();
            self.keep4[i].d.next = self.keep3[i].q.val();
        }
        for i in 8..lanes_at(N, 4) {
            self.nulls4[i].d.next = self.nulls3[i].q.val() + self.nulls3[i - 8].q.val();
        }
        // Level 5: 32 lanes.
        for i in 0..lanes_at(N, 5) {
            self.nulls5[i].d.next = self.nulls4[i].q.val();
            self.data5[i].d.next = self.data4[i].q.val();
            self.keep5[i].d.next = self.keep4[i].q.val();
        }
        for i in 16..lanes_at(N, 5) {
            self.nulls5[i].d.next = self.nulls4[i].q.val() + self.nulls4[i - 16].q.val();
        }

        // The outputs, from the last level. A kept lane has no dropped lane
        // at its own place, so its inclusive count is its skip; the last
        // lane's count is the beat's.
        for i in 0..if_last(N, 1, N) {
            self.skip[i].next = self.nulls1[i].q.val().get_bits::<5>(0);
            self.lane_out[i].next = self.data1[i].q.val();
            self.keep_out[i].next = self.keep1[i].q.val();
        }
        for i in 0..if_last(N, 2, N) {
            self.skip[i].next = self.nulls2[i].q.val().get_bits::<5>(0);
            self.lane_out[i].next = self.data2[i].q.val();
            self.keep_out[i].next = self.keep2[i].q.val();
        }
        for i in 0..if_last(N, 3, N) {
            self.skip[i].next = self.nulls3[i].q.val().get_bits::<5>(0);
            self.lane_out[i].next = self.data3[i].q.val();
            self.keep_out[i].next = self.keep3[i].q.val();
        }
        for i in 0..if_last(N, 4, N) {
            self.skip[i].next = self.nulls4[i].q.val().get_bits::<5>(0);
            self.lane_out[i].next = self.data4[i].q.val();
            self.keep_out[i].next = self.keep4[i].q.val();
        }
        for i in 0..if_last(N, 5, N) {
            self.skip[i].next = self.nulls5[i].q.val().get_bits::<5>(0);
            self.lane_out[i].next = self.data5[i].q.val();
            self.keep_out[i].next = self.keep5[i].q.val();
        }
        self.unused_top.next = false;
        for i in 0..if_last(N, 1, N - 1) {
            self.unused_top.next = self.unused_top.val() | self.nulls1[i].q.val().get_bit(5);
        }
        for i in 0..if_last(N, 2, N - 1) {
            self.unused_top.next = self.unused_top.val() | self.nulls2[i].q.val().get_bit(5);
        }
        for i in 0..if_last(N, 3, N - 1) {
            self.unused_top.next = self.unused_top.val() | self.nulls3[i].q.val().get_bit(5);
        }
        for i in 0..if_last(N, 4, N - 1) {
            self.unused_top.next = self.unused_top.val() | self.nulls4[i].q.val().get_bit(5);
        }
        for i in 0..if_last(N, 5, N - 1) {
            self.unused_top.next = self.unused_top.val() | self.nulls5[i].q.val().get_bit(5);
        }
        for i in (if_last(N, 1, N) - if_last(N, 1, 1))..if_last(N, 1, N) {
            self.nulls.next = self.nulls1[i].q.val();
        }
        for i in (if_last(N, 2, N) - if_last(N, 2, 1))..if_last(N, 2, N) {
            self.nulls.next = self.nulls2[i].q.val();
        }
        for i in (if_last(N, 3, N) - if_last(N, 3, 1))..if_last(N, 3, N) {
            self.nulls.next = self.nulls3[i].q.val();
        }
        for i in (if_last(N, 4, N) - if_last(N, 4, 1))..if_last(N, 4, N) {
            self.nulls.next = self.nulls4[i].q.val();
        }
        for i in (if_last(N, 5, N) - if_last(N, 5, 1))..if_last(N, 5, N) {
            self.nulls.next = self.nulls5[i].q.val();
        }
        for j in 0..if_last(N, 1, 1) {
            self.beat_out.next = self.beat1[j].q.val();
            self.last_out.next = self.last1[j].q.val();
        }
        for j in 0..if_last(N, 2, 1) {
            self.beat_out.next = self.beat2[j].q.val();
            self.last_out.next = self.last2[j].q.val();
        }
        for j in 0..if_last(N, 3, 1) {
            self.beat_out.next = self.beat3[j].q.val();
            self.last_out.next = self.last3[j].q.val();
        }
        for j in 0..if_last(N, 4, 1) {
            self.beat_out.next = self.beat4[j].q.val();
            self.last_out.next = self.last4[j].q.val();
        }
        for j in 0..if_last(N, 5, 1) {
            self.beat_out.next = self.beat5[j].q.val();
            self.last_out.next = self.last5[j].q.val();
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
