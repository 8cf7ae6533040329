//! `--engine`, chosen in one place: [`on_engine`] turns the choice into
//! the engine (rust-hdl's simulation of the design, or a Verilator model
//! of its exported Verilog) and runs a body that works on either
//! ([`OnEngine`]); [`run_on`] is a core's run on it, checked against the
//! core's reference.

use std::ops::Range;

use anyhow::Result;
use utf8hdl_sim::checker::{run_checked, Stimulus, SummaryOf, UnitOf};
use utf8hdl_sim::core::{Core, Values};
use utf8hdl_sim::harness::{Engine, Harness, RustHdl};
use utf8hdl_synth::core_verilog;
use utf8hdl_synth::verilator::Verilated;

use super::args::EngineChoice;
use super::report::note;

/// What runs on a core's engine, whichever `--engine` chose: given a maker
/// of the engine, as many times as it needs one.
pub trait OnEngine<C: Core> {
    type Output;

    /// Runs with `new_engine`, which makes the core's engine anew at each
    /// call.
    fn run<E: Engine<Core = C>>(self, new_engine: impl Fn() -> Result<E>) -> Result<Self::Output>;
}

/// `body` on `core`, on the engine `choice` names.
pub fn on_engine<C: Core + Copy, B: OnEngine<C>>(
    choice: EngineChoice,
    core: C,
    body: B,
) -> Result<B::Output> {
    match choice {
        EngineChoice::RustHdl => body.run(|| RustHdl::new(core)),
        EngineChoice::Verilator => body.run(|| verilated(core)),
    }
}

/// The Verilator model of `core`, built on first use with a line on stderr
/// while it builds.
fn verilated<C: Core>(core: C) -> Result<Verilated<C>> {
    let verilog = core_verilog(&core)?;
    Verilated::new(core, &verilog, &|message| {
        note(format_args!("utf8hdl: {message}"))
    })
}

/// `core`'s run on `inputs` under `stimulus`, on `engine`, checked against
/// its reference; `observe` sees the probes of the cycles in `probes` (a
/// waveform's window; reading them costs time).
pub fn run_on<C: Core + Copy>(
    core: C,
    engine: EngineChoice,
    inputs: impl Iterator<Item = C::Input>,
    stimulus: &Stimulus,
    on_unit: impl FnMut(&UnitOf<C>) -> Result<()>,
    probes: Range<u64>,
    observe: &mut dyn FnMut(u64, Option<&Values>),
) -> Result<SummaryOf<C>> {
    let run = CheckedRun {
        inputs,
        stimulus,
        on_unit,
        probes,
        observe,
    };
    on_engine(engine, core, run)
}

/// The arguments of [`run_on`], as a body for [`on_engine`].
struct CheckedRun<'a, I, F> {
    inputs: I,
    stimulus: &'a Stimulus,
    on_unit: F,
    probes: Range<u64>,
    observe: &'a mut dyn FnMut(u64, Option<&Values>),
}

impl<C, I, F> OnEngine<C> for CheckedRun<'_, I, F>
where
    C: Core,
    I: Iterator<Item = C::Input>,
    F: FnMut(&UnitOf<C>) -> Result<()>,
{
    type Output = SummaryOf<C>;

    fn run<E: Engine<Core = C>>(self, new_engine: impl Fn() -> Result<E>) -> Result<SummaryOf<C>> {
        let mut harness = Harness::on(new_engine()?);
        harness.probe_window = self.probes;
        run_checked(
            harness,
            self.inputs,
            self.stimulus,
            self.on_unit,
            self.observe,
        )
    }
}
