//! # `WordLanes`: stage 4 of the wide decoder, the `m_axis` side
//!
//! Packs the beat's units into lanes 0..k-1 and registers every `m_axis_*`
//! output, substituting U+FFFD for each error, in two registered steps:
//! stage 4a counts each unit's skip ([`LaneSkips`]), stage 4b moves the
//! units ([`LanePacker`]) into the `m_axis` flops.
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
//! | `m_axis_tdata`/`tuser`/`tkeep`/`tvalid`/`tlast` | out | 32N/4N/N/1/1 | registered; `tkeep` packed |
//! | `m_axis_tready` | in | 1 | handshake |
//! | `advance` | out | 1 | the stages before move: `!m_axis_tvalid \| m_axis_tready` |
//!
//! ## Latency
//! Two cycles.
//!
//! ```text
//! clock          _/‾\_/‾\_/‾\_/‾\_
//! slot_valid      <0 1 0 1>            N = 4
//! slot_value      <. a . b>
//! counted_skip         <. 1 . 2>
//! m_axis_tdata              <a b 0 0>
//! m_axis_tkeep              <1 1 0 0>
//! ```
//!
//! ## Invariants
//! * While `m_axis_tvalid & !m_axis_tready`, every `m_axis_*` output holds.
//! * `m_axis_tkeep` is `2^k - 1` for the k units of the beat; lanes past
//!   k are 0.
//! * A word lane's `m_axis_tdata` is U+FFFD exactly when its `tuser[0]` is set.

use rust_hdl::prelude::*;

use crate::wide::lane_bus::LaneBus;
use crate::wide::lane_packer::LanePacker;
use crate::wide::lane_skips::LaneSkips;
use crate::wide::unit_word::UnitWord;

#[derive(LogicBlock)]
pub struct WordLanes<const N: usize, const TDATA: usize, const TUSER: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub slot_valid: Vec<Signal<In, Bit>>,
    pub slot_tuser: Vec<Signal<In, Bits<4>>>,
    pub slot_value: Vec<Signal<In, Bits<32>>>,
    pub beat_valid: Signal<In, Bit>,
    pub beat_tlast: Signal<In, Bit>,
    pub m_axis_tdata: Signal<Out, Bits<TDATA>>,
    pub m_axis_tuser: Signal<Out, Bits<TUSER>>,
    pub m_axis_tkeep: Signal<Out, Bits<N>>,
    pub m_axis_tvalid: Signal<Out, Bit>,
    pub m_axis_tlast: Signal<Out, Bit>,
    pub m_axis_tready: Signal<In, Bit>,
    pub advance: Signal<Out, Bit>,
    /// Each slot's `tuser` above its value.
    unit: Vec<UnitWord>,
    skips: LaneSkips<N>,
    /// Stage 4a: the units with their skips counted.
    counted_unit: Vec<DFF<Bits<36>>>,
    counted_keep: Vec<DFF<Bit>>,
    counted_skip: Vec<DFF<Bits<5>>>,
    counted_any: DFF<Bit>,
    counted_valid: DFF<Bit>,
    counted_tlast: DFF<Bit>,
    /// Stage 4b: packing, then the `m_axis` flops.
    packer: LanePacker<N, 36>,
    word: Vec<Signal<Local, Bits<32>>>,
    tdata_bus: LaneBus<N, 32, TDATA>,
    tuser_bus: LaneBus<N, 4, TUSER>,
    tkeep_bus: LaneBus<N, 1, N>,
    tdata: DFF<Bits<TDATA>>,
    tuser: DFF<Bits<TUSER>>,
    tkeep: DFF<Bits<N>>,
    tvalid: DFF<Bit>,
    tlast: DFF<Bit>,
}

impl<const N: usize, const TDATA: usize, const TUSER: usize> Default
    for WordLanes<N, TDATA, TUSER>
{
    fn default() -> Self {
        assert_eq!((TDATA, TUSER), (32 * N, 4 * N), "WordLanes<N, 32N, 4N>");
        WordLanes {
            clock: Default::default(),
            rst: Default::default(),
            slot_valid: (0..N).map(|_| Default::default()).collect(),
            slot_tuser: (0..N).map(|_| Default::default()).collect(),
            slot_value: (0..N).map(|_| Default::default()).collect(),
            beat_valid: Default::default(),
            beat_tlast: Default::default(),
            m_axis_tdata: Default::default(),
            m_axis_tuser: Default::default(),
            m_axis_tkeep: Default::default(),
            m_axis_tvalid: Default::default(),
            m_axis_tlast: Default::default(),
            m_axis_tready: Default::default(),
            advance: Default::default(),
            unit: (0..N).map(|_| Default::default()).collect(),
            skips: Default::default(),
            counted_unit: (0..N).map(|_| Default::default()).collect(),
            counted_keep: (0..N).map(|_| Default::default()).collect(),
            counted_skip: (0..N).map(|_| Default::default()).collect(),
            counted_any: Default::default(),
            counted_valid: Default::default(),
            counted_tlast: Default::default(),
            packer: Default::default(),
            word: (0..N).map(|_| Default::default()).collect(),
            tdata_bus: Default::default(),
            tuser_bus: Default::default(),
            tkeep_bus: Default::default(),
            tdata: Default::default(),
            tuser: Default::default(),
            tkeep: Default::default(),
            tvalid: Default::default(),
            tlast: Default::default(),
        }
    }
}

impl<const N: usize, const TDATA: usize, const TUSER: usize> Logic for WordLanes<N, TDATA, TUSER> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            counted_any,
            counted_valid,
            counted_tlast,
            tdata,
            tuser,
            tkeep,
            tvalid,
            tlast
        );
        for i in 0..N {
            self.counted_unit[i].clock.next = self.clock.val();
            self.counted_unit[i].d.next = self.counted_unit[i].q.val();
            self.counted_keep[i].clock.next = self.clock.val();
            self.counted_keep[i].d.next = self.counted_keep[i].q.val();
            self.counted_skip[i].clock.next = self.clock.val();
            self.counted_skip[i].d.next = self.counted_skip[i].q.val();
        }
        self.m_axis_tdata.next = self.tdata.q.val();
        self.m_axis_tuser.next = self.tuser.q.val();
        self.m_axis_tkeep.next = self.tkeep.q.val();
        self.m_axis_tvalid.next = self.tvalid.q.val();
        self.m_axis_tlast.next = self.tlast.q.val();
        self.advance.next = !self.tvalid.q.val() | self.m_axis_tready.val();

        for i in 0..N {
            self.unit[i].value.next = self.slot_value[i].val();
            self.unit[i].tuser.next = self.slot_tuser[i].val();
            self.skips.keep_in[i].next = self.slot_valid[i].val();
            self.packer.lane_in[i].next = self.counted_unit[i].q.val();
            self.packer.keep_in[i].next = self.counted_keep[i].q.val();
            self.packer.skip_in[i].next = self.counted_skip[i].q.val();
        }
        for i in 0..N {
            self.word[i].next = self.packer.lane_out[i].val().get_bits::<32>(0);
            if self.packer.lane_out[i].val().get_bit(32) {
                // U+FFFD, the crate's `REPLACEMENT`.
                self.word[i].next = 0xFFFD.into();
            }
            self.tdata_bus.lane[i].next = self.word[i].val();
            self.tuser_bus.lane[i].next = self.packer.lane_out[i].val().get_bits::<4>(32);
            self.tkeep_bus.lane[i].next = self.packer.keep_out[i].val().into();
        }
        if !self.tvalid.q.val() | self.m_axis_tready.val() {
            self.counted_valid.d.next = self.beat_valid.val();
            self.counted_tlast.d.next = self.beat_tlast.val();
            self.counted_any.d.next = self.skips.any_kept.val();
            for i in 0..N {
                self.counted_unit[i].d.next = self.unit[i].unit.val();
                self.counted_keep[i].d.next = self.slot_valid[i].val();
                self.counted_skip[i].d.next = self.skips.skip[i].val();
            }
            // A beat that ends no unit and no message is not sent.
            self.tvalid.d.next = self.counted_valid.q.val()
                & (self.counted_any.q.val() | self.counted_tlast.q.val());
            self.tlast.d.next = self.counted_tlast.q.val();
            self.tdata.d.next = self.tdata_bus.bus.val();
            self.tuser.d.next = self.tuser_bus.bus.val();
            self.tkeep.d.next = self.tkeep_bus.bus.val();
        }
        if self.rst.val() {
            self.counted_valid.d.next = false;
            self.tvalid.d.next = false;
        }
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
