//! # `AxisOutputRegister`: the `m_axis` flops of a stream core, with a registered `s_axis_tready`
//!
//! A register slice in front of a core's `m_axis`: every `m_axis_*` output
//! is a flop, and the beat it holds stays until the consumer takes it. The
//! core's logic offers its next beat on `s_axis_*` and moves on when
//! `s_axis_tready` is high. That `s_axis_tready` is a flop too (it is the
//! full register slice of verilog-axis's `axis_register`): a second
//! register, `spare`, takes the one beat that comes while the consumer
//! stalls, and `s_axis_tready` falls the cycle after. So no enable inside
//! the core depends on `m_axis_tready` in the same cycle: the consumer's
//! ready reaches only this block's two registers.
//!
//! ## Parameters
//! * `D`: the width of `tdata`.
//! * `U`: the width of `tuser`.
//! * `registered_ready` (a [`Constant`], set by the constructor): `true`
//!   in [`AxisOutputRegister::default`], as above. `false`
//!   ([`AxisOutputRegister::passing_ready`]) leaves `spare` out (Yosys
//!   removes its registers) and makes `s_axis_tready` combinational,
//!   `!m_axis_tvalid | m_axis_tready`: for a core whose own logic is
//!   deeper than the consumer's ready is late, and which would lose more
//!   to `spare`'s mux in front of `m_axis` than it gains (the properties
//!   core).
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `rst` | in | 1 | clock; synchronous reset, active high |
//! | `s_axis_tdata`/`tuser`/`tvalid`/`tlast` | in | D/U/1/1 | the beat the core offers |
//! | `s_axis_tready` | out | 1 | registered: `spare` is empty (`passing_ready`: `!m_axis_tvalid \| m_axis_tready`) |
//! | `s_axis_tready_next` | out | 1 | what `s_axis_tready` is next cycle, for logic that registers its own decision on it (`passing_ready`: high) |
//! | `m_axis_tdata`/`tuser`/`tvalid`/`tlast` | out | D/U/1/1 | registered |
//! | `m_axis_tready` | in | 1 | handshake |
//!
//! ## Latency
//! One cycle: a beat taken in cycle *t* while `m_axis` is empty or leaving
//! is on `m_axis` in cycle *t* + 1, and with `m_axis_tready` high one beat
//! passes every cycle. A beat taken while `m_axis` stalls waits in `spare`
//! and follows the stalled one.
//!
//! ```text
//! cycle           0    1    2    3    4    5    6
//! s_axis_tvalid   1    1    1    1    1    0
//! s_axis_tdata    a    b    c    d    d
//! m_axis_tready   1    1    0    1    1    1    1
//! s_axis_tready   1    1    1    0    1    1    1    c waits in spare; d waits
//! m_axis_tvalid        1    1    1    1    1    0
//! m_axis_tdata         a    b    b    c    d
//! ```
//!
//! ## Invariants
//! * Every `m_axis_*` output, and `s_axis_tready` unless it is passed,
//!   comes straight from a flop.
//! * While `m_axis_tvalid & !m_axis_tready`, every `m_axis_*` output
//!   holds.
//! * `s_axis_tready` is low exactly when `spare` holds a beat, and then
//!   `m_axis_tvalid` is high: at most two beats are inside.
//! * `s_axis_tready_next` is the next cycle's `s_axis_tready`.
//! * Beats leave in the order they are taken, each once, unchanged.
//! * `rst` empties both registers: `m_axis_tvalid` is low the cycle after.
//! * `tdata`'s copies of `tvalid`, one a byte ([`BytewiseRegister`]),
//!   equal it.
//!
//! These invariants are proven for the block alone, for all time, in both
//! forms (`utf8hdl formal --block axis_output_register`,
//! `hdl/formal/blocks/axis_output_register_properties.v`; `--block
//! axis_output_register_passing_ready`,
//! `hdl/formal/blocks/axis_output_register_passing_ready_properties.v`).

use rust_hdl::prelude::*;

use crate::stream::BytewiseRegister;

#[derive(LogicBlock)]
pub struct AxisOutputRegister<const D: usize, const U: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub s_axis_tdata: Signal<In, Bits<D>>,
    pub s_axis_tuser: Signal<In, Bits<U>>,
    pub s_axis_tvalid: Signal<In, Bit>,
    pub s_axis_tlast: Signal<In, Bit>,
    pub s_axis_tready: Signal<Out, Bit>,
    pub s_axis_tready_next: Signal<Out, Bit>,
    pub m_axis_tdata: Signal<Out, Bits<D>>,
    pub m_axis_tuser: Signal<Out, Bits<U>>,
    pub m_axis_tvalid: Signal<Out, Bit>,
    pub m_axis_tlast: Signal<Out, Bit>,
    pub m_axis_tready: Signal<In, Bit>,
    /// `tdata`, loaded a byte at a time, each byte under an enable read
    /// from its own copy of `tvalid`: with one enable for all of `m_axis`,
    /// sixteen bits of `tdata` or more put it past nextpnr-ice40's
    /// threshold for a global buffer.
    tdata: BytewiseRegister<D>,
    tuser: DFF<Bits<U>>,
    tvalid: DFF<Bit>,
    tlast: DFF<Bit>,
    /// `s_axis_tready` is a flop, and `spare` is in use.
    registered_ready: Constant<Bit>,
    /// The beat taken while `m_axis` stalled, next after it; while
    /// `spare_valid` is low, the payload follows the offer.
    spare_tdata: DFF<Bits<D>>,
    spare_tuser: DFF<Bits<U>>,
    spare_tlast: DFF<Bit>,
    spare_valid: DFF<Bit>,
}

impl<const D: usize, const U: usize> AxisOutputRegister<D, U> {
    /// One cycle from a beat's acceptance to the beat on `m_axis`.
    pub const LATENCY: u64 = 1;

    fn new(registered_ready: bool) -> Self {
        AxisOutputRegister {
            clock: Default::default(),
            rst: Default::default(),
            s_axis_tdata: Default::default(),
            s_axis_tuser: Default::default(),
            s_axis_tvalid: Default::default(),
            s_axis_tlast: Default::default(),
            s_axis_tready: Default::default(),
            s_axis_tready_next: Default::default(),
            m_axis_tdata: Default::default(),
            m_axis_tuser: Default::default(),
            m_axis_tvalid: Default::default(),
            m_axis_tlast: Default::default(),
            m_axis_tready: Default::default(),
            tdata: Default::default(),
            tuser: Default::default(),
            tvalid: Default::default(),
            tlast: Default::default(),
            registered_ready: Constant::new(registered_ready),
            spare_tdata: Default::default(),
            spare_tuser: Default::default(),
            spare_tlast: Default::default(),
            spare_valid: Default::default(),
        }
    }

    /// The register with no `spare`, and `s_axis_tready` combinational in
    /// `m_axis_tready`.
    pub fn passing_ready() -> Self {
        Self::new(false)
    }
}

/// The register with `spare`: `s_axis_tready` is a flop.
impl<const D: usize, const U: usize> Default for AxisOutputRegister<D, U> {
    fn default() -> Self {
        Self::new(true)
    }
}

impl<const D: usize, const U: usize> Logic for AxisOutputRegister<D, U> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            tuser,
            tvalid,
            tlast,
            spare_tdata,
            spare_tuser,
            spare_tlast,
            spare_valid
        );
        clock!(self, clock, tdata);
        self.tdata.rst.next = self.rst.val();
        // `m_axis` takes the spare beat when there is one, or else the offer.
        self.tdata.d.next = self.s_axis_tdata.val();
        if self.spare_valid.q.val() {
            self.tdata.d.next = self.spare_tdata.q.val();
        }
        self.tdata.d_valid.next = self.spare_valid.q.val() | self.s_axis_tvalid.val();
        self.tdata.advance.next = self.m_axis_tready.val();
        self.m_axis_tdata.next = self.tdata.q.val();
        self.m_axis_tuser.next = self.tuser.q.val();
        self.m_axis_tvalid.next = self.tvalid.q.val();
        self.m_axis_tlast.next = self.tlast.q.val();
        if self.registered_ready.val() {
            self.s_axis_tready.next = !self.spare_valid.q.val();
        } else {
            self.s_axis_tready.next = !self.tvalid.q.val() | self.m_axis_tready.val();
        }
        if !self.tvalid.q.val() | self.m_axis_tready.val() {
            // `m_axis` is free: it takes the spare beat, or else the offer.
            if self.spare_valid.q.val() {
                self.tuser.d.next = self.spare_tuser.q.val();
                self.tlast.d.next = self.spare_tlast.q.val();
                self.tvalid.d.next = true;
                self.spare_valid.d.next = false;
            } else {
                self.tuser.d.next = self.s_axis_tuser.val();
                self.tlast.d.next = self.s_axis_tlast.val();
                self.tvalid.d.next = self.s_axis_tvalid.val();
            }
        } else if self.registered_ready.val() & !self.spare_valid.q.val() {
            // `m_axis` stalls: an offer taken now waits in `spare`.
            self.spare_valid.d.next = self.s_axis_tvalid.val();
        }
        // While `spare` is empty its payload follows the offer, so that the
        // payload's enable is the `spare_valid` flop alone (the skid
        // buffer's way): it is read only once `spare_valid` says a beat is
        // in it, and it holds from the cycle that beat is taken.
        if !self.spare_valid.q.val() {
            self.spare_tdata.d.next = self.s_axis_tdata.val();
            self.spare_tuser.d.next = self.s_axis_tuser.val();
            self.spare_tlast.d.next = self.s_axis_tlast.val();
        }
        if self.rst.val() {
            self.tvalid.d.next = false;
            self.spare_valid.d.next = false;
        }
        // `!spare_valid.d`, written from flops and ports rather than read
        // from the mux in front of `spare_valid`: `spare` is in use next
        // cycle when `m_axis` stalls with a beat in `spare` or offered.
        self.s_axis_tready_next.next = self.rst.val()
            | !self.registered_ready.val()
            | !self.tvalid.q.val()
            | self.m_axis_tready.val()
            | (!self.spare_valid.q.val() & !self.s_axis_tvalid.val());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_output_register_is_synthesizable() {
        crate::assert_synthesizable(AxisOutputRegister::<32, 4>::default());
        crate::assert_synthesizable(AxisOutputRegister::<8, 1>::default());
        crate::assert_synthesizable(AxisOutputRegister::<32, 4>::passing_ready());
    }

    type Register = AxisOutputRegister<8, 1>;

    /// The datasheet's cycle diagram, cycle by cycle: beats a, b, c, d
    /// offered in cycles 0 to 4, `m_axis_tready` low in cycle 2.
    #[test]
    fn the_datasheet_diagram() {
        const OFFERED: [Option<u64>; 7] = [
            Some(0xA),
            Some(0xB),
            Some(0xC),
            Some(0xD),
            Some(0xD),
            None,
            None,
        ];
        const READY: [bool; 7] = [true, true, false, true, true, true, true];
        const S_READY: [bool; 7] = [true, true, true, false, true, true, true];
        const M_AXIS: [Option<u64>; 7] = [
            None,
            Some(0xA),
            Some(0xB),
            Some(0xB),
            Some(0xC),
            Some(0xD),
            None,
        ];
        let mut uut = Register::default();
        uut.connect_all();
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<Register>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<Register>| {
            let mut x = sim.init()?;
            x.rst.next = true;
            wait_clock_cycle!(sim, clock, x);
            x.rst.next = false;
            for cycle in 0..7 {
                x.s_axis_tvalid.next = OFFERED[cycle].is_some();
                x.s_axis_tdata.next = OFFERED[cycle].unwrap_or(0).into();
                x.s_axis_tlast.next = OFFERED[cycle] == Some(0xD);
                x.m_axis_tready.next = READY[cycle];
                x = sim.wait(1, x)?;
                sim_assert_eq!(sim, x.s_axis_tready.val(), S_READY[cycle], x);
                sim_assert_eq!(sim, x.m_axis_tvalid.val(), M_AXIS[cycle].is_some(), x);
                if let Some(word) = M_AXIS[cycle] {
                    sim_assert_eq!(sim, x.m_axis_tdata.val().to_u64(), word, x);
                    sim_assert_eq!(sim, x.m_axis_tlast.val(), word == 0xD, x);
                }
                wait_clock_cycle!(sim, clock, x);
            }
            sim.done(x)
        });
        sim.run(Box::new(uut), 1000).unwrap();
    }
}
