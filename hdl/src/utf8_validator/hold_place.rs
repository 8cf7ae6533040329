//! # `HoldPlace`: one beat's place in the [`OpenLeadHold`](crate::utf8_validator::OpenLeadHold)
//!
//! The registers of one held beat: its `tdata`, `tkeep`, `tlast`, each
//! lane's mark and whether the lane is the open first octet. When the
//! open first octet is `resolve`d, its lane takes `resolved_tuser` and no
//! lane is open any more.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `rst` | in | 1 | clock; synchronous reset (of `full` and `open`) |
//! | `write`, `tdata_in`, `tkeep_in`, `tlast_in`, `tuser_in`, `open_in` | in | | write a beat's registers here |
//! | `fill` | in | 1 | the beat written is kept here: the place is in use |
//! | `clear` | in | 1 | the beat has left |
//! | `resolve`, `resolved_tuser` | in | 1, 4 | the open first octet here is decided, with its mark |
//! | `full`, `tdata`, `tkeep`, `tlast`, `tuser`, `open` | out | | registered: the beat here |
//!
//! ## Latency
//! One cycle.
//!
//! ## Invariants
//! * `open` is set exactly when some lane's open flag is: one register
//!   written and cleared with them, so that reading it costs no OR over
//!   the lanes.

use rust_hdl::prelude::*;

use crate::many;
use crate::utf8_decoder_wide::wiring::LaneBus;

#[derive(LogicBlock)]
pub struct HoldPlace<const N: usize, const TDATA: usize, const TUSER: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub write: Signal<In, Bit>,
    pub fill: Signal<In, Bit>,
    pub tdata_in: Signal<In, Bits<TDATA>>,
    pub tkeep_in: Signal<In, Bits<N>>,
    pub tlast_in: Signal<In, Bit>,
    pub tuser_in: Signal<In, Bits<TUSER>>,
    pub open_in: Signal<In, Bits<N>>,
    pub clear: Signal<In, Bit>,
    pub resolve: Signal<In, Bit>,
    pub resolved_tuser: Signal<In, Bits<4>>,
    pub full: Signal<Out, Bit>,
    pub tdata: Signal<Out, Bits<TDATA>>,
    pub tkeep: Signal<Out, Bits<N>>,
    pub tlast: Signal<Out, Bit>,
    pub tuser: Signal<Out, Bits<TUSER>>,
    pub open: Signal<Out, Bit>,
    full_reg: DFF<Bit>,
    data: DFF<Bits<TDATA>>,
    keep: DFF<Bits<N>>,
    last: DFF<Bit>,
    marks: Vec<DFF<Bits<4>>>,
    opens: Vec<DFF<Bit>>,
    /// Some lane is open: its own register, so that the hold's `release`
    /// does not wait for an OR over the lanes.
    any_open: DFF<Bit>,
    marks_bus: LaneBus<4, TUSER>,
}

impl<const N: usize, const TDATA: usize, const TUSER: usize> Default
    for HoldPlace<N, TDATA, TUSER>
{
    fn default() -> Self {
        HoldPlace {
            clock: Default::default(),
            rst: Default::default(),
            write: Default::default(),
            fill: Default::default(),
            tdata_in: Default::default(),
            tkeep_in: Default::default(),
            tlast_in: Default::default(),
            tuser_in: Default::default(),
            open_in: Default::default(),
            clear: Default::default(),
            resolve: Default::default(),
            resolved_tuser: Default::default(),
            full: Default::default(),
            tdata: Default::default(),
            tkeep: Default::default(),
            tlast: Default::default(),
            tuser: Default::default(),
            open: Default::default(),
            full_reg: Default::default(),
            data: Default::default(),
            keep: Default::default(),
            last: Default::default(),
            marks: many(N),
            opens: many(N),
            any_open: Default::default(),
            marks_bus: Default::default(),
        }
    }
}

impl<const N: usize, const TDATA: usize, const TUSER: usize> Logic for HoldPlace<N, TDATA, TUSER> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, full_reg, data, keep, last, any_open);
        for i in 0..N {
            self.marks[i].clock.next = self.clock.val();
            self.opens[i].clock.next = self.clock.val();
            self.marks[i].d.next = self.marks[i].q.val();
            self.opens[i].d.next = self.opens[i].q.val();
            self.marks_bus.lane[i].next = self.marks[i].q.val();
            if self.resolve.val() {
                if self.opens[i].q.val() {
                    self.marks[i].d.next = self.resolved_tuser.val();
                }
                self.opens[i].d.next = false;
            }
        }
        if self.resolve.val() {
            self.any_open.d.next = false;
        }
        if self.clear.val() {
            self.full_reg.d.next = false;
        }
        if self.fill.val() {
            self.full_reg.d.next = true;
        }
        if self.write.val() {
            self.data.d.next = self.tdata_in.val();
            self.keep.d.next = self.tkeep_in.val();
            self.last.d.next = self.tlast_in.val();
            self.any_open.d.next = self.open_in.val() != 0;
            for i in 0..N {
                self.marks[i].d.next = self.tuser_in.val().get_bits::<4>(4 * i);
                self.opens[i].d.next = self.open_in.val().get_bit(i);
            }
        }
        self.full.next = self.full_reg.q.val();
        self.tdata.next = self.data.q.val();
        self.tkeep.next = self.keep.q.val();
        self.tlast.next = self.last.q.val();
        self.open.next = self.any_open.q.val();
        self.tuser.next = self.marks_bus.bus.val();
        if self.rst.val() {
            self.full_reg.d.next = false;
            self.any_open.d.next = false;
            for i in 0..N {
                self.opens[i].d.next = false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hold_place_is_synthesizable() {
        crate::assert_synthesizable(HoldPlace::<2, 16, 8>::default());
    }
}
