//! Cycle stepping of a core, with no testbench threads, on either engine:
//! rust-hdl's own simulation of its block ([`RustHdl`]), or a compiled
//! model of its exported Verilog (`utf8hdl_synth::verilator`).
//!
//! Each [`Harness::cycle`] is one clock period: sample both handshakes (they
//! are flops, so this is what a real consumer sees in the cycle), drive the
//! inputs while the clock is low, let the logic settle, then raise the
//! clock.

use std::ops::{ControlFlow, Range};

use anyhow::Result;
use rust_hdl::prelude::*;

use crate::core::{
    probes, Beat, Core, Inputs, InputsOf, Lane, Lanes, Outputs, OutputsOf, Signals, Values,
};

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

    /// Runs the cycles of `batch` as [`Batch`] says, and calls `each`
    /// after every cycle with its inputs, what it did, the values of the probes when `probes` is given (as [`Engine::step`]
    /// fills them), and [`Engine::fault`]; stops when `each` breaks.
    /// Returns the cycles `each` saw. An engine may run the whole batch
    /// before `each` sees its first cycle (a compiled model does, in one
    /// call), so after a break it may stand past the cycles seen: the run
    /// ends there.
    fn run(
        &mut self,
        batch: &Batch<<Self::Core as Core>::Input>,
        mut probes: Option<&mut Values>,
        each: &mut EachCycle<Self::Core>,
    ) -> usize {
        let mut walk = batch.walk();
        let mut cycle = Cycle::default();
        for c in 0..batch.flags.len() {
            let inputs = batch.inputs(c, &mut walk);
            self.step(&inputs, probes.as_deref_mut(), &mut cycle.outputs);
            cycle.handshake(&inputs);
            let flow = each(&inputs, &cycle, probes.as_deref(), self.fault());
            let over = batch.advance(&mut walk, &cycle);
            if flow.is_break() || over {
                return c + 1;
            }
        }
        batch.flags.len()
    }
}

/// What [`Engine::run`] calls after each cycle: the cycle's inputs, what
/// it did, the probes' values (when asked) and the engine's fault; a break
/// stops the run.
pub type EachCycle<'a, C> =
    dyn FnMut(&InputsOf<C>, &CycleOf<C>, Option<&Values>, Option<&str>) -> ControlFlow<()> + 'a;

/// In a [`Batch`]'s flags: the source may offer a beat in this cycle.
pub const MAY_OFFER: u8 = 1;
/// In a [`Batch`]'s flags: `m_axis_tready` is high in this cycle.
pub const SINK_READY: u8 = 2;

/// The stimulus of a batch of cycles, decided before they run, so that a
/// compiled model runs them in one call: for each cycle, whether the
/// source may offer a beat and whether the sink is ready (`flags`, of
/// [`MAY_OFFER`] and [`SINK_READY`]), and the beats to offer, in order.
///
/// In each cycle `s_axis` carries the beat held from the cycle before
/// (offered and not accepted), else the next beat when the cycle may
/// offer one, else none; `rst` is low. A beat offered while
/// `s_axis_tready` is high is accepted, and the next one follows. The
/// batch ends after its last cycle, or after the cycle that accepts its
/// last beat, whichever comes first.
pub struct Batch<'a, I: Lane> {
    pub flags: &'a [u8],
    pub beats: &'a [Beat<I>],
    /// `beats[0]` is held: offered in the cycle before the batch, and not
    /// accepted.
    pub holding: bool,
}

/// Where a walk through a [`Batch`] stands: the next beat to offer, and
/// whether it is on `s_axis` already.
#[derive(Copy, Clone, Debug)]
pub struct Walk {
    pub next: usize,
    pub holding: bool,
}

impl<I: Lane> Batch<'_, I> {
    /// A walk from the batch's first cycle.
    pub fn walk(&self) -> Walk {
        Walk {
            next: 0,
            holding: self.holding && !self.beats.is_empty(),
        }
    }

    /// The inputs of cycle `c` of the batch, the walk at that cycle.
    #[inline]
    pub fn inputs(&self, c: usize, walk: &mut Walk) -> Inputs<I> {
        let flags = self.flags[c];
        walk.holding |= flags & MAY_OFFER != 0 && walk.next < self.beats.len();
        Inputs {
            rst: false,
            s_axis: walk.holding.then(|| self.beats[walk.next]),
            m_axis_tready: flags & SINK_READY != 0,
        }
    }

    /// Moves the walk past `cycle`; whether it ends the batch (it
    /// accepted the last beat).
    #[inline]
    pub fn advance<O: Lane>(&self, walk: &mut Walk, cycle: &Cycle<O>) -> bool {
        if !cycle.accepted {
            return false;
        }
        walk.next += 1;
        walk.holding = false;
        walk.next == self.beats.len()
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
    /// Sets which handshakes happened, from the cycle's `inputs` and its
    /// outputs.
    #[inline]
    pub fn handshake<I: Lane>(&mut self, inputs: &Inputs<I>) {
        self.accepted = inputs.s_axis.is_some() && self.s_axis_tready() && !inputs.rst;
        self.taken = self.m_axis_tvalid() && inputs.m_axis_tready && !inputs.rst;
    }

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

/// One cycle of a [`Batch`], as [`Harness::run`] shows it.
pub struct Ran<'a, C: Core> {
    /// Its number.
    pub number: u64,
    pub inputs: &'a InputsOf<C>,
    pub cycle: &'a CycleOf<C>,
    /// The probes' values, inside the probe window.
    pub probes: Option<&'a Values>,
    /// A rule the engine saw broken in the cycle ([`Engine::fault`]).
    pub fault: Option<&'a str>,
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

    /// Runs the cycles of `batch` (see [`Batch`]), which lies inside the
    /// probe window or outside it ([`Harness::batch_len`]); `each` sees
    /// every cycle as [`Harness::step`]'s caller does, with its inputs and
    /// the engine's fault, and stops the run by breaking (the cycle is
    /// `each`'s to see: [`Harness::last_cycle`] stays). Returns the
    /// cycles run. After a break the engine may stand past them (see
    /// [`Engine::run`]): the harness is not stepped again.
    pub fn run(
        &mut self,
        batch: &Batch<<E::Core as Core>::Input>,
        each: &mut dyn FnMut(Ran<'_, E::Core>) -> ControlFlow<()>,
    ) -> usize {
        let probing = self.probe_window.contains(&self.cycles);
        debug_assert_eq!(
            self.batch_len(batch.flags.len()),
            batch.flags.len(),
            "a batch across an edge of the probe window"
        );
        let cycles = &mut self.cycles;
        self.engine.run(
            batch,
            probing.then_some(&mut self.probes),
            &mut |inputs, cycle, probes, fault| {
                let number = *cycles;
                *cycles += 1;
                each(Ran {
                    number,
                    inputs,
                    cycle,
                    probes,
                    fault,
                })
            },
        )
    }

    /// How many cycles, up to `most`, the next batch may have: one never
    /// crosses an edge of the probe window. At least one.
    pub fn batch_len(&self, most: usize) -> usize {
        let window = &self.probe_window;
        let edge = [window.start, window.end]
            .into_iter()
            .filter(|&edge| edge > self.cycles)
            .min()
            .unwrap_or(u64::MAX);
        (edge - self.cycles).min(most as u64).max(1) as usize
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
        cycle.handshake(inputs);
        cycle
    }
}
