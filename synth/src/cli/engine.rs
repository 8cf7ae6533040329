//! `--engine`, chosen in one place: [`on_engine`] turns the choice into
//! the engine (rust-hdl's simulation of the design, or a Verilator model
//! of its exported Verilog) and runs a body that works on either
//! ([`OnEngine`]); [`run_on`] is a core's run on it, checked against the
//! core's reference. `--engine auto` is settled there too ([`resolve`]).

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Result;
use utf8hdl_sim::checker::{run_checked, Stimulus, SummaryOf, UnitOf};
use utf8hdl_sim::core::{Core, Values};
use utf8hdl_sim::harness::{Engine, Harness, RustHdl};
use utf8hdl_synth::core_verilog;
use utf8hdl_synth::{tools, verilator, verilator::Verilated};

use super::args::EngineChoice;
use super::report::note;

/// Inputs of at least this many items are large: on rust-hdl's engine
/// they take long enough that `--engine auto` builds a Verilator model
/// for them (once; it is cached).
const LARGE_INPUT: u64 = 1_000_000;

/// What runs on a core's engine, whichever `--engine` chose: given a maker
/// of the engine, as many times as it needs one.
pub trait OnEngine<C: Core> {
    type Output;

    /// Runs on `engine` (never [`EngineChoice::Auto`]: the engine chosen,
    /// for the cores that run after this one) with `new_engine`, which
    /// makes the core's engine anew at each call.
    fn run<E: Engine<Core = C>>(
        self,
        engine: EngineChoice,
        new_engine: impl Fn() -> Result<E>,
    ) -> Result<Self::Output>;
}

/// `body` on `core`, on the engine `choice` names; `items` is the size of
/// the input when it is known, for `--engine auto`.
pub fn on_engine<C: Core + Copy, B: OnEngine<C>>(
    choice: EngineChoice,
    core: C,
    items: Option<u64>,
    body: B,
) -> Result<B::Output> {
    let lanes = core.lanes()?.count;
    match resolve(choice, lanes, items) {
        EngineChoice::Verilator => body.run(EngineChoice::Verilator, || verilated(core)),
        _ => body.run(EngineChoice::RustHdl, || RustHdl::new(core)),
    }
}

/// The engine `choice` names: for [`EngineChoice::Auto`], Verilator when
/// its tools are installed and the core is wide (`lanes` of 2 or more) or
/// its input large (`items`, when known), with a line on stderr saying
/// so; rust-hdl otherwise, with a line saying why when Verilator would
/// have been chosen. Each line is said once a process: the cores of a
/// chain follow the same choice.
pub fn resolve(choice: EngineChoice, lanes: usize, items: Option<u64>) -> EngineChoice {
    static SAID: AtomicBool = AtomicBool::new(false);
    if choice != EngineChoice::Auto {
        return choice;
    }
    let why = match items {
        _ if lanes > 1 => format!("the core is {lanes} lanes wide"),
        Some(n) if n >= LARGE_INPUT => format!("the input is large ({n} items)"),
        _ => return EngineChoice::RustHdl,
    };
    let missing: Vec<&str> = (verilator::TOOLS.iter().copied())
        .filter(|tool| tools::find(tool).is_none())
        .collect();
    let (engine, line) = match missing.is_empty() {
        true => (
            EngineChoice::Verilator,
            format!("utf8hdl: --engine auto: verilator, as {why}"),
        ),
        false => (
            EngineChoice::RustHdl,
            format!(
                "utf8hdl: --engine auto: rust-hdl; Verilator would be faster as {why}, \
                 but it needs {} on PATH",
                missing.join(", ")
            ),
        ),
    };
    if !SAID.swap(true, Ordering::Relaxed) {
        note(line);
    }
    engine
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
    inputs: impl ExactSizeIterator<Item = C::Input>,
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
    let items = run.inputs.len() as u64;
    on_engine(engine, core, Some(items), run)
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

    fn run<E: Engine<Core = C>>(
        self,
        _: EngineChoice,
        new_engine: impl Fn() -> Result<E>,
    ) -> Result<SummaryOf<C>> {
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
