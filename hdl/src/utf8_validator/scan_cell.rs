//! # `ScanCell`: one lane of one registered level of the validator's scans
//!
//! Level `d` of a Kogge–Stone prefix network over the lanes, forward and
//! backward at once, for one lane: its forward summary joins
//! `forward_from`, lane `i − d`'s, before it ([`ForwardJoin`]), its
//! backward summary `backward_from`, lane `i + d`'s, after it
//! ([`BackwardJoin`]); a lane with no such neighbour is given the empty
//! stretch (1), which changes nothing (and synthesis removes the join).
//! The network ([`LaneScan`](crate::utf8_validator::LaneScan)) wires the
//! neighbours. The lane (its byte and mark class, [`SCANNED_LANE`] bits)
//! and kept bit ride along with its forward summary in a [`LaneRegister`].
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock` | in | 1 | |
//! | `data_in`, `keep_in` | in | 21, 1 | the lane and its kept bit |
//! | `forward_in`, `backward_in` | in | 17, 9 | the lane's summaries ([`ByteSummary`](crate::utf8_validator::ByteSummary)) |
//! | `forward_from`, `backward_from` | in | 17, 9 | its neighbours' `d` lanes before and after it |
//! | `data`, `keep`, `forward`, `backward` | out | | the same, registered, the summaries joined |
//!
//! ## Latency
//! One cycle.

use rust_hdl::prelude::*;

use crate::utf8_decoder_wide::packing::LaneRegister;
use crate::utf8_validator::{BackwardJoin, ForwardJoin, SCANNED_LANE};

#[derive(LogicBlock, Default)]
pub struct ScanCell {
    pub clock: Signal<In, Clock>,
    pub data_in: Signal<In, Bits<SCANNED_LANE>>,
    pub keep_in: Signal<In, Bit>,
    pub forward_in: Signal<In, Bits<17>>,
    pub backward_in: Signal<In, Bits<9>>,
    pub forward_from: Signal<In, Bits<17>>,
    pub backward_from: Signal<In, Bits<9>>,
    pub data: Signal<Out, Bits<SCANNED_LANE>>,
    pub keep: Signal<Out, Bit>,
    pub forward: Signal<Out, Bits<17>>,
    pub backward: Signal<Out, Bits<9>>,
    /// The lane, kept bit and forward summary; the backward summary.
    lane: LaneRegister<SCANNED_LANE, 17>,
    backward_reg: DFF<Bits<9>>,
    forward_join: ForwardJoin,
    backward_join: BackwardJoin,
}

impl Logic for ScanCell {
    #[hdl_gen]
    fn update(&mut self) {
        self.forward_join.earlier.next = self.forward_from.val();
        self.forward_join.later.next = self.forward_in.val();
        self.backward_join.earlier.next = self.backward_in.val();
        self.backward_join.later.next = self.backward_from.val();
        self.lane.clock.next = self.clock.val();
        self.lane.data_in.next = self.data_in.val();
        self.lane.keep_in.next = self.keep_in.val();
        self.lane.value_in.next = self.forward_join.joined.val();
        self.backward_reg.clock.next = self.clock.val();
        self.backward_reg.d.next = self.backward_join.joined.val();
        self.data.next = self.lane.data.val();
        self.keep.next = self.lane.keep.val();
        self.forward.next = self.lane.value.val();
        self.backward.next = self.backward_reg.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scan_cell_is_synthesizable() {
        crate::assert_synthesizable(ScanCell::default());
    }
}
