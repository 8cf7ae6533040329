//! [`Registered`]: the labs' engine, rust-hdl's simulation with one more
//! check, that every output is a register.

use rust_hdl::prelude::Clock;

use crate::core::{Beat, Core, InputsOf, Lane, Outputs, OutputsOf, Values};
use crate::harness::{settle, Engine, RustHdl};

/// rust-hdl's simulation of a lab's block ([`RustHdl`]), which also checks
/// that every output is a register. A cycle runs as in the decoder's
/// harness: the inputs are driven and the logic settles while the clock is
/// low, then the clock rises. Here the outputs are also compared after the
/// first half with those the cycle began with: no clock edge came between,
/// so an output that moved follows an input through logic alone, as a
/// wire would (the decoder's harness samples each cycle's outputs before
/// it drives the inputs, so a wire from an input looks like a register).
/// [`Engine::fault`] then names the output and the input, found by driving
/// the cycle's changes one input port at a time.
pub struct Registered<C: Core> {
    engine: RustHdl<C>,
    /// What the ports were driven with in the cycle before: `tvalid`, and
    /// the lines of the last beat offered, which hold while none is.
    rst: bool,
    tvalid: bool,
    lines: Beat<C::Input>,
    m_axis_tready: bool,
    fault: Option<String>,
}

impl<C: Core> Registered<C> {
    /// The core's block, settled with every input low, as before a reset.
    pub fn new(core: C) -> Self {
        let mut engine =
            RustHdl::new(core).expect("the design passes rust-hdl's structural checks");
        settle(&mut engine.uut);
        Registered {
            engine,
            rst: false,
            tvalid: false,
            lines: Beat::new(&[], false),
            m_axis_tready: false,
            fault: None,
        }
    }

    /// The input port whose change moved an output in this cycle, and the
    /// output ports it moved, as [`Engine::fault`] tells them.
    fn blame(&mut self, before: &OutputsOf<C>, inputs: &InputsOf<C>) -> String {
        let mut now = InputsOf::<C> {
            rst: self.rst,
            s_axis: self.tvalid.then_some(self.lines),
            m_axis_tready: self.m_axis_tready,
        };
        let mut lines = self.lines;
        let mut changes = Vec::new();
        now.rst = inputs.rst;
        changes.push(("rst", now));
        now.m_axis_tready = inputs.m_axis_tready;
        changes.push(("m_axis_tready", now));
        now.s_axis = inputs.s_axis.map(|_| lines);
        changes.push(("s_axis_tvalid", now));
        if let Some(beat) = inputs.s_axis {
            lines.tlast = beat.tlast;
            now.s_axis = Some(lines);
            changes.push(("s_axis_tlast", now));
            lines.tkeep = beat.tkeep;
            now.s_axis = Some(lines);
            changes.push(("s_axis_tkeep", now));
            lines.lanes = beat.lanes;
            now.s_axis = Some(lines);
            changes.push(("s_axis_tdata", now));
        }
        let uut = &mut self.engine.uut;
        let mut blamed = None;
        for (input, step) in changes {
            C::drive(uut, &step);
            settle(uut);
            let ports = moved(before, &C::sample(uut));
            if !ports.is_empty() {
                blamed = Some((input, ports));
                break;
            }
        }
        // Back to the cycle's inputs.
        C::drive(uut, inputs);
        settle(uut);
        let (input, ports) = blamed.unwrap_or_else(|| ("an input", moved(before, &C::sample(uut))));
        match ports.as_slice() {
            [port] => format!(
                "{port} follows {input} combinationally: it changed with {input}, before the \
                 clock's rising edge; {port} must be a register"
            ),
            _ => format!(
                "{} follow {input} combinationally: they changed with {input}, before the \
                 clock's rising edge; every output must be a register",
                ports.join(" and ")
            ),
        }
    }
}

/// The output ports whose values differ from `a` to `b` (the lines of
/// `m_axis` only while `m_axis_tvalid` is high in both).
fn moved<O: Lane>(a: &Outputs<O>, b: &Outputs<O>) -> Vec<&'static str> {
    let mut ports = Vec::new();
    if a.s_axis_tready != b.s_axis_tready {
        ports.push("s_axis_tready");
    }
    match (&a.m_axis, &b.m_axis) {
        (Some(a), Some(b)) => {
            let differ = |lane: fn(&O) -> u32| {
                a.lanes
                    .iter()
                    .zip(&b.lanes)
                    .any(|(x, y)| lane(x) != lane(y))
            };
            if differ(O::tdata) {
                ports.push("m_axis_tdata");
            }
            if differ(O::tuser) {
                ports.push("m_axis_tuser");
            }
            if a.tkeep != b.tkeep {
                ports.push("m_axis_tkeep");
            }
            if a.tlast != b.tlast {
                ports.push("m_axis_tlast");
            }
        }
        (None, None) => {}
        _ => ports.push("m_axis_tvalid"),
    }
    ports
}

impl<C: Core> Engine for Registered<C> {
    type Core = C;

    fn core(&self) -> &C {
        self.engine.core()
    }

    fn outputs(&self) -> OutputsOf<C> {
        self.engine.outputs()
    }

    fn step(
        &mut self,
        inputs: &InputsOf<C>,
        probes: Option<&mut Values>,
        outputs: &mut OutputsOf<C>,
    ) {
        let uut = &mut self.engine.uut;
        *outputs = C::sample(uut);
        C::drive(uut, inputs);
        C::clock(uut).next = Clock::from(false);
        settle(uut);
        if self.fault.is_none() && C::sample(uut) != *outputs {
            self.fault = Some(self.blame(outputs, inputs));
        }
        if let Some(values) = probes {
            self.engine.probes.read(&self.engine.uut, values);
        }
        let uut = &mut self.engine.uut;
        C::clock(uut).next = Clock::from(true);
        settle(uut);
        self.rst = inputs.rst;
        self.tvalid = inputs.s_axis.is_some();
        if let Some(beat) = inputs.s_axis {
            self.lines = beat;
        }
        self.m_axis_tready = inputs.m_axis_tready;
    }

    fn fault(&self) -> Option<&str> {
        self.fault.as_deref()
    }
}
