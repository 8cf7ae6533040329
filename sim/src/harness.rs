//! Cycle stepping of a core, with no testbench threads, on either engine:
//! rust-hdl's own simulation of its block ([`RustHdl`]), or a compiled
//! model of its exported Verilog (`utf8hdl_synth::verilator`).
//!
//! Each [`Harness::cycle`] is one clock period: sample both handshakes (they
//! are flops, so this is what a real consumer sees in the cycle), drive the
//! inputs while the clock is low, let the logic settle, then raise the
//! clock.

use std::ops::Range;

use anyhow::Result;
use rust_hdl::prelude::*;

use crate::core::{probes, Beat, Core, InputsOf, Lane, Lanes, Outputs, OutputsOf, Signals, Values};

/// Settling iterations allowed per half cycle; the design settles in far fewer.
const SETTLE_LIMIT: usize = 64;

/// A cycle-accurate model of a core.
pub trait Engine {
    type Core: Core;

    /// The core it models.
    fn core(&self) -> &Self::Core;

    /// The handshake outputs as they stand (flops).
    fn outputs(&self) -> OutputsOf<Self::Core>;

    /// Runs one clock cycle with `inputs` and sets `outputs` to the
    /// outputs as the cycle began (in place: a beat is large, and this runs
    /// on every cycle). With `probes`, also fills it with the settled
    /// values of the core's probes ([`crate::core::probes`]) just before
    /// the rising edge: what a waveform shows for the cycle.
    fn step(
        &mut self,
        inputs: &InputsOf<Self::Core>,
        probes: Option<&mut Values>,
        outputs: &mut OutputsOf<Self::Core>,
    );

    /// A rule that the engine itself saw broken inside a cycle, which the
    /// outputs sampled at its start cannot show (the labs' engine checks
    /// that no output follows an input combinationally); [`run_checked`]
    /// stops on it. None for a plain engine.
    ///
    /// [`run_checked`]: crate::checker::run_checked
    fn fault(&self) -> Option<&str> {
        None
    }
}

/// rust-hdl's simulation of the core's block: the design as written.
pub struct RustHdl<C: Core> {
    core: C,
    pub uut: C::Block,
    pub(crate) probes: Signals,
}

impl<C: Core> RustHdl<C> {
    /// Builds the core's block and runs rust-hdl's structural checks.
    pub fn new(core: C) -> Result<Self> {
        let mut uut = core.block();
        uut.connect_all();
        check_all(&uut).map_err(|e| anyhow::anyhow!("rust-hdl rejects the design: {e:?}"))?;
        let probes = probes(&core)?;
        Ok(RustHdl { core, uut, probes })
    }
}

impl<C: Core> Engine for RustHdl<C> {
    type Core = C;

    fn core(&self) -> &C {
        &self.core
    }

    fn outputs(&self) -> OutputsOf<C> {
        C::sample(&self.uut)
    }

    fn step(
        &mut self,
        inputs: &InputsOf<C>,
        probes: Option<&mut Values>,
        outputs: &mut OutputsOf<C>,
    ) {
        *outputs = C::sample(&self.uut);
        C::drive(&mut self.uut, inputs);
        C::clock(&mut self.uut).next = Clock::from(false);
        settle(&mut self.uut);
        if let Some(values) = probes {
            self.probes.read(&self.uut, values);
        }
        C::clock(&mut self.uut).next = Clock::from(true);
        settle(&mut self.uut);
    }
}

/// Lets the design settle after its inputs or its clock changed.
pub fn settle<B: Block>(uut: &mut B) {
    assert!(
        simulate(uut, SETTLE_LIMIT),
        "the design did not settle: a combinational loop"
    );
}

/// What happened in one cycle, on a core whose output lanes are `O`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Cycle<O: Lane> {
    /// The handshake outputs in this cycle (flops): `s_axis_tready`, and
    /// the beat on `m_axis`, whether or not it was taken.
    pub outputs: Outputs<O>,
    /// A beat was offered and accepted.
    pub accepted: bool,
    /// The beat on `m_axis` was taken (`m_axis_tvalid & m_axis_tready`).
    pub taken: bool,
}

impl<O: Lane> Default for Cycle<O> {
    fn default() -> Self {
        Cycle {
            outputs: Outputs::default(),
            accepted: false,
            taken: false,
        }
    }
}

/// The [`Cycle`] of core `C`.
pub type CycleOf<C> = Cycle<<C as Core>::Output>;

impl<O: Lane> Cycle<O> {
    /// `s_axis_tready` in this cycle (a flop).
    pub fn s_axis_tready(&self) -> bool {
        self.outputs.s_axis_tready
    }

    /// `m_axis_tvalid` in this cycle.
    pub fn m_axis_tvalid(&self) -> bool {
        self.outputs.m_axis.is_some()
    }

    /// The beat on `m_axis` in this cycle, whether or not it was taken.
    pub fn m_axis(&self) -> Option<&Beat<O>> {
        self.outputs.m_axis.as_ref()
    }

    /// The beat taken in this cycle, if any. (A beat is large, so a cycle
    /// holds it once: this runs on every simulated cycle.)
    pub fn delivered(&self) -> Option<&Beat<O>> {
        self.m_axis().filter(|_| self.taken)
    }
}

/// A core on an engine, and its clock.
pub struct Harness<E: Engine> {
    pub engine: E,
    pub cycles: u64,
    /// The cycles whose probes are read and shown to the observer of
    /// [`Harness::step`]; reading them costs time, so none by default.
    pub probe_window: Range<u64>,
    probes: Values,
    lanes: Lanes,
    /// The last cycle, updated in place by [`Harness::step`].
    cycle: CycleOf<E::Core>,
}

impl<C: Core> Harness<RustHdl<C>> {
    /// The core on rust-hdl's engine, reset.
    pub fn new(core: C) -> Self {
        let engine = RustHdl::new(core).expect("the design passes rust-hdl's structural checks");
        Harness::on(engine)
    }
}

impl<E: Engine> Harness<E> {
    /// The core on `engine`: 2 cycles of reset, then cycle 0.
    pub fn on(engine: E) -> Self {
        let probes = probes(engine.core())
            .expect("the core's probes are in its block")
            .values();
        let lanes = engine
            .core()
            .lanes()
            .expect("the core's ports follow the conventions");
        let mut harness = Harness {
            engine,
            cycles: 0,
            probe_window: 0..0,
            probes,
            lanes,
            cycle: Cycle::default(),
        };
        harness.reset(2);
        harness.cycles = 0;
        harness
    }

    /// Holds `rst` high for `cycles` cycles, with both sides idle.
    pub fn reset(&mut self, cycles: usize) {
        for _ in 0..cycles {
            let inputs = InputsOf::<E::Core> {
                rst: true,
                ..Default::default()
            };
            self.step(&inputs, &mut |_, _| {});
        }
    }

    /// The core's lanes.
    pub fn lanes(&self) -> Lanes {
        self.lanes
    }

    /// The handshake outputs as they stand (flops), before a cycle's inputs
    /// are driven.
    pub fn outputs(&self) -> OutputsOf<E::Core> {
        self.engine.outputs()
    }

    /// The cycle that [`Harness::step`] ran last.
    pub fn last_cycle(&self) -> &CycleOf<E::Core> {
        &self.cycle
    }

    /// Runs one clock cycle: offers `beat` (tvalid low when `None`) and
    /// drives `m_axis_tready`.
    pub fn cycle(
        &mut self,
        beat: Option<Beat<<E::Core as Core>::Input>>,
        m_axis_tready: bool,
    ) -> &CycleOf<E::Core> {
        let inputs = InputsOf::<E::Core> {
            rst: false,
            s_axis: beat,
            m_axis_tready,
        };
        self.step(&inputs, &mut |_, _| {})
    }

    /// One clock cycle with any inputs, reset included. `observe` sees the
    /// cycle's number and, inside [`Harness::probe_window`], the values of
    /// the core's probes for the cycle. The cycle is the harness's own,
    /// updated in place: a beat is large, and this runs on every cycle.
    pub fn step(
        &mut self,
        inputs: &InputsOf<E::Core>,
        observe: &mut dyn FnMut(u64, Option<&Values>),
    ) -> &CycleOf<E::Core> {
        debug_assert!(
            inputs.s_axis.is_none_or(|beat| self.lanes.admit(&beat)),
            "{:?} is not a beat of a core of {:?}",
            inputs.s_axis,
            self.lanes
        );
        let probing = self.probe_window.contains(&self.cycles);
        let cycle = &mut self.cycle;
        self.engine.step(
            inputs,
            probing.then_some(&mut self.probes),
            &mut cycle.outputs,
        );
        observe(self.cycles, probing.then_some(&self.probes));
        self.cycles += 1;
        cycle.accepted = inputs.s_axis.is_some() && cycle.s_axis_tready() && !inputs.rst;
        cycle.taken = cycle.m_axis_tvalid() && inputs.m_axis_tready && !inputs.rst;
        cycle
    }
}
