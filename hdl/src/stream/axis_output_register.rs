//! # `AxisOutputRegister`: the `m_axis` flops of a stream core
//!
//! A register slice of one beat in front of a core's `m_axis`: every
//! `m_axis_*` output is a flop, and the beat it holds stays until the
//! consumer takes it. The core's logic offers its next beat on `s_axis_*`
//! and moves on when `s_axis_tready` is high: that is the core's
//! `advance`, combinational in `m_axis_tready`, which is why the core's own
//! `s_axis_tready` comes from a [`SkidBuffer`](crate::stream::SkidBuffer)
//! instead.
//!
//! ## Parameters
//! * `D`: the width of `tdata`.
//! * `U`: the width of `tuser`.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `rst` | in | 1 | clock; synchronous reset, active high |
//! | `s_axis_tdata`/`tuser`/`tvalid`/`tlast` | in | D/U/1/1 | the beat the core offers |
//! | `s_axis_tready` | out | 1 | combinational: `!m_axis_tvalid \| m_axis_tready`, the register loads this cycle |
//! | `m_axis_tdata`/`tuser`/`tvalid`/`tlast` | out | D/U/1/1 | registered |
//! | `m_axis_tready` | in | 1 | handshake |
//!
//! ## Latency
//! One cycle: a beat taken in cycle *t* is on `m_axis` in cycle *t* + 1,
//! and with `m_axis_tready` high one beat passes every cycle.
//!
//! ```text
//! cycle           0    1    2    3    4    5
//! s_axis_tvalid   1    1    1    1    0
//! s_axis_tdata    a    b    c    c
//! m_axis_tready   1    1    0    1    1    1
//! s_axis_tready   1    1    0    1    1    1    c waits while b is held
//! m_axis_tvalid        1    1    1    1    0
//! m_axis_tdata         a    b    b    c
//! ```
//!
//! ## Invariants
//! * Every `m_axis_*` output comes straight from a flop.
//! * While `m_axis_tvalid & !m_axis_tready`, every `m_axis_*` output
//!   holds, and `s_axis_tready` is low.
//! * A beat offered with `s_axis_tvalid & s_axis_tready` is on `m_axis`
//!   the next cycle; none is lost or sent twice.
//! * On a cycle with `s_axis_tready` high, `tdata`, `tuser` and `tlast`
//!   load whatever is offered (one enable for the whole beat), so they
//!   mean something only with `m_axis_tvalid`.
//! * `rst` empties the register: `m_axis_tvalid` is low the cycle after.
//!
//! These invariants are proven for the block alone, for all time
//! (`utf8hdl formal --block axis_output_register`, `hdl/formal/blocks/axis_output_register_properties.v`).

use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct AxisOutputRegister<const D: usize, const U: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub s_axis_tdata: Signal<In, Bits<D>>,
    pub s_axis_tuser: Signal<In, Bits<U>>,
    pub s_axis_tvalid: Signal<In, Bit>,
    pub s_axis_tlast: Signal<In, Bit>,
    pub s_axis_tready: Signal<Out, Bit>,
    pub m_axis_tdata: Signal<Out, Bits<D>>,
    pub m_axis_tuser: Signal<Out, Bits<U>>,
    pub m_axis_tvalid: Signal<Out, Bit>,
    pub m_axis_tlast: Signal<Out, Bit>,
    pub m_axis_tready: Signal<In, Bit>,
    tdata: DFF<Bits<D>>,
    tuser: DFF<Bits<U>>,
    tvalid: DFF<Bit>,
    tlast: DFF<Bit>,
}

impl<const D: usize, const U: usize> AxisOutputRegister<D, U> {
    /// One cycle from a beat's acceptance to the beat on `m_axis`.
    pub const LATENCY: u64 = 1;
}

impl<const D: usize, const U: usize> Logic for AxisOutputRegister<D, U> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, tdata, tuser, tvalid, tlast);
        self.m_axis_tdata.next = self.tdata.q.val();
        self.m_axis_tuser.next = self.tuser.q.val();
        self.m_axis_tvalid.next = self.tvalid.q.val();
        self.m_axis_tlast.next = self.tlast.q.val();
        self.s_axis_tready.next = !self.tvalid.q.val() | self.m_axis_tready.val();
        if !self.tvalid.q.val() | self.m_axis_tready.val() {
            self.tdata.d.next = self.s_axis_tdata.val();
            self.tuser.d.next = self.s_axis_tuser.val();
            self.tvalid.d.next = self.s_axis_tvalid.val();
            self.tlast.d.next = self.s_axis_tlast.val();
        }
        if self.rst.val() {
            self.tvalid.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_output_register_is_synthesizable() {
        crate::assert_synthesizable(AxisOutputRegister::<32, 4>::default());
        crate::assert_synthesizable(AxisOutputRegister::<8, 1>::default());
    }

    type Register = AxisOutputRegister<8, 1>;

    /// The datasheet's cycle diagram, cycle by cycle: beats a, b, c offered
    /// in cycles 0 to 3, `m_axis_tready` low in cycle 2.
    #[test]
    fn the_datasheet_diagram() {
        const OFFERED: [Option<u64>; 6] = [Some(0xA), Some(0xB), Some(0xC), Some(0xC), None, None];
        const READY: [bool; 6] = [true, true, false, true, true, true];
        const S_READY: [bool; 6] = [true, true, false, true, true, true];
        const M_AXIS: [Option<u64>; 6] = [None, Some(0xA), Some(0xB), Some(0xB), Some(0xC), None];
        let mut uut = Register::default();
        uut.connect_all();
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<Register>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<Register>| {
            let mut x = sim.init()?;
            x.rst.next = true;
            wait_clock_cycle!(sim, clock, x);
            x.rst.next = false;
            for cycle in 0..6 {
                x.s_axis_tvalid.next = OFFERED[cycle].is_some();
                x.s_axis_tdata.next = OFFERED[cycle].unwrap_or(0).into();
                x.s_axis_tlast.next = OFFERED[cycle] == Some(0xC);
                x.m_axis_tready.next = READY[cycle];
                x = sim.wait(1, x)?;
                sim_assert_eq!(sim, x.s_axis_tready.val(), S_READY[cycle], x);
                sim_assert_eq!(sim, x.m_axis_tvalid.val(), M_AXIS[cycle].is_some(), x);
                if let Some(word) = M_AXIS[cycle] {
                    sim_assert_eq!(sim, x.m_axis_tdata.val().to_u64(), word, x);
                    sim_assert_eq!(sim, x.m_axis_tlast.val(), word == 0xC, x);
                }
                wait_clock_cycle!(sim, clock, x);
            }
            sim.done(x)
        });
        sim.run(Box::new(uut), 1000).unwrap();
    }
}
