//! # `WordLanes`: stage 5 of the wide decoder, the units packed
//!
//! Packs the beat's units into lanes 0..k-1, substituting U+FFFD for each
//! error, with no enable: the [`LanePacker`] counts each unit's skip and
//! moves it, one register a level (5a), into the packed registers (5b)
//! that the [`BeatFifo`](crate::utf8_decoder_wide::queue::BeatFifo)
//! writes. A beat that ends no unit and no message is dropped here
//! (`dropped`, for its credit).
//!
//! ## Parameters
//! * `N`: the lanes.
//! * `TDATA` = 32N and `TUSER` = 4N: the widths of `m_axis_tdata` and
//!   `m_axis_tuser`.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `rst` | in | 1 | clock; synchronous reset, active high |
//! | `slot_valid[i]`, `slot_tuser[i]`, `slot_value[i]` | in | 1, 4, 32 | the units, one per lane at most |
//! | `beat_valid`, `beat_tlast` | in | 1 | the slots hold a beat |
//! | `tdata`, `tuser`, `tkeep`, `tlast` | out | 32N, 4N, N, 1 | registered: the beat as `m_axis` carries it, `tkeep` packed |
//! | `write` | out | 1 | the registers hold a beat to send (it has a unit or `tlast`) |
//! | `dropped` | out | 1 | the registers hold a beat with neither, which is dropped |
//!
//! ## Latency
//! 1 + 2 log₂ N cycles ([`WordLanes::LATENCY`]), on every cycle: the
//! [`LanePacker`]'s 2 log₂ N registered levels (5a), then the packed
//! registers (5b) (the figure is drawn for a packer of two levels, counting then moving).
//!
//! ```text
//! clock          _/‾\_/‾\_/‾\_/‾\_
//! slot_valid      <0 1 0 1>            N = 4
//! slot_value      <. a . b>
//! skip                 <. 1 . 2>
//! tdata                     <a b 0 0>
//! tkeep                     <1 1 0 0>
//! ```
//!
//! ## Invariants
//! * `tkeep` is `2^k - 1` for the k units of the beat; lanes past k are 0.
//! * A word lane's `tdata` is U+FFFD exactly when its `tuser[0]` is set.

use rust_hdl::prelude::*;

use crate::utf8_decoder_wide::many;

use crate::utf8_decoder_wide::packing::LanePacker;
use crate::utf8_decoder_wide::wiring::LaneBus;
use crate::utf8_decoder_wide::wiring::LaneJoin;

#[derive(LogicBlock)]
pub struct WordLanes<const N: usize, const TDATA: usize, const TUSER: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub slot_valid: Vec<Signal<In, Bit>>,
    pub slot_tuser: Vec<Signal<In, Bits<4>>>,
    pub slot_value: Vec<Signal<In, Bits<32>>>,
    pub beat_valid: Signal<In, Bit>,
    pub beat_tlast: Signal<In, Bit>,
    pub tdata: Signal<Out, Bits<TDATA>>,
    pub tuser: Signal<Out, Bits<TUSER>>,
    pub tkeep: Signal<Out, Bits<N>>,
    pub tlast: Signal<Out, Bit>,
    pub write: Signal<Out, Bit>,
    pub dropped: Signal<Out, Bit>,
    /// Each slot's word: its value, or U+FFFD for an error.
    word: Vec<Signal<Local, Bits<32>>>,
    /// Each slot's `tuser` above its word.
    unit: Vec<LaneJoin<32, 4, 36>>,
    /// The packing, 2 log₂ N registered levels.
    packer: LanePacker<N, 36>,
    tdata_bus: LaneBus<32, TDATA>,
    tuser_bus: LaneBus<4, TUSER>,
    tkeep_bus: LaneBus<1, N>,
    packed_tdata: DFF<Bits<TDATA>>,
    packed_tuser: DFF<Bits<TUSER>>,
    packed_tkeep: DFF<Bits<N>>,
    /// `write` and `dropped` are flops of their own: as a function of the
    /// packed valid, lane 0 and tlast flops, `write` took two LUT levels
    /// before its fanout to the queue's every RAM write enable, the wide
    /// core's slowest path at N = 8 on ECP5 (6.30 ns, 4.7 ns of it
    /// routing).
    packed_write: DFF<Bit>,
    packed_dropped: DFF<Bit>,
    packed_tlast: DFF<Bit>,
    /// The beat's dropped lanes, which the words do not need: whether
    /// the beat has a unit is the packed lane 0's kept bit (Verilator's
    /// lint passes over `unused_*`; yosys removes it).
    unused_nulls: Signal<Local, Bit>,
    /// U+FFFD, the crate's `REPLACEMENT`.
    replacement: Constant<Bits<32>>,
}

impl<const N: usize, const TDATA: usize, const TUSER: usize> WordLanes<N, TDATA, TUSER> {
    /// The cycles from the slots to `write`: the packer, then the packed
    /// registers.
    pub const LATENCY: u64 = 1 + LanePacker::<N, 36>::LATENCY;
}

impl<const N: usize, const TDATA: usize, const TUSER: usize> Default
    for WordLanes<N, TDATA, TUSER>
{
    fn default() -> Self {
        assert_eq!((TDATA, TUSER), (32 * N, 4 * N), "WordLanes<N, 32N, 4N>");
        WordLanes {
            clock: Default::default(),
            rst: Default::default(),
            slot_valid: many(N),
            slot_tuser: many(N),
            slot_value: many(N),
            beat_valid: Default::default(),
            beat_tlast: Default::default(),
            tdata: Default::default(),
            tuser: Default::default(),
            tkeep: Default::default(),
            tlast: Default::default(),
            write: Default::default(),
            dropped: Default::default(),
            word: many(N),
            unit: many(N),
            packer: Default::default(),
            tdata_bus: Default::default(),
            tuser_bus: Default::default(),
            tkeep_bus: Default::default(),
            packed_tdata: Default::default(),
            packed_tuser: Default::default(),
            packed_tkeep: Default::default(),
            packed_write: Default::default(),
            packed_dropped: Default::default(),
            packed_tlast: Default::default(),
            unused_nulls: Default::default(),
            replacement: Constant::new((utf8hdl_reference::REPLACEMENT as u64).into()),
        }
    }
}

impl<const N: usize, const TDATA: usize, const TUSER: usize> Logic for WordLanes<N, TDATA, TUSER> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(
            self,
            clock,
            packed_tdata,
            packed_tuser,
            packed_tkeep,
            packed_write,
            packed_dropped,
            packed_tlast
        );
        for i in 0..N {
            self.word[i].next = self.slot_value[i].val();
            if self.slot_tuser[i].val().get_bit(0) {
                self.word[i].next = self.replacement.val();
            }
            self.unit[i].low.next = self.word[i].val();
            self.unit[i].high.next = self.slot_tuser[i].val();
        }

        // The packing's levels, then the packed registers.
        self.packer.clock.next = self.clock.val();
        self.packer.rst.next = self.rst.val();
        self.packer.beat_in.next = self.beat_valid.val();
        self.packer.last_in.next = self.beat_tlast.val();
        self.unused_nulls.next = self.packer.nulls_out.val().any();
        for i in 0..N {
            self.packer.lane_in[i].next = self.unit[i].both.val();
            self.packer.keep_in[i].next = self.slot_valid[i].val();
            self.tdata_bus.lane[i].next = self.packer.lane_out[i].val().get_bits::<32>(0);
            self.tuser_bus.lane[i].next = self.packer.lane_out[i].val().get_bits::<4>(32);
            self.tkeep_bus.lane[i].next = self.packer.keep_out[i].val().into();
        }
        self.packed_tdata.d.next = self.tdata_bus.bus.val();
        self.packed_tuser.d.next = self.tuser_bus.bus.val();
        self.packed_tkeep.d.next = self.tkeep_bus.bus.val();
        // A beat is sent when it has a unit (packed: lane 0 is kept) or
        // ends a message, and dropped otherwise.
        self.packed_write.d.next = self.packer.beat_out.val()
            & !self.rst.val()
            & (self.packer.keep_out[0].val() | self.packer.last_out.val());
        self.packed_dropped.d.next = self.packer.beat_out.val()
            & !self.rst.val()
            & !self.packer.keep_out[0].val()
            & !self.packer.last_out.val();
        self.packed_tlast.d.next = self.packer.last_out.val();

        self.tdata.next = self.packed_tdata.q.val();
        self.tuser.next = self.packed_tuser.q.val();
        self.tkeep.next = self.packed_tkeep.q.val();
        self.tlast.next = self.packed_tlast.q.val();
        self.write.next = self.packed_write.q.val();
        self.dropped.next = self.packed_dropped.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_lanes_is_synthesizable() {
        crate::assert_synthesizable(WordLanes::<4, 128, 16>::default());
    }
}
