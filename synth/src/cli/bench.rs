//! `utf8hdl bench`: simulated cycles per second with and without a VCD,
//! VCD bytes per cycle and peak memory, on each engine (Icarus Verilog
//! timed for comparison).

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use utf8hdl_hdl::Profile;
use utf8hdl_sim::bench::Figures;
use utf8hdl_sim::core::Core;
use utf8hdl_sim::harness::{Engine, Harness};
use utf8hdl_sim::output::write_atomically;
use utf8hdl_sim::with_core;
use utf8hdl_synth::datasheet::{BenchRecord, EngineSpeed};
use utf8hdl_synth::{tools, verilator};

use super::args::{lanes_parser, EngineChoice};
use super::datasheet::record_path;
use super::engine::{on_engine, resolve, OnEngine};
use super::progress::Progress;
use super::report::{note, report_stdout};

/// The largest benchmark input, in MB (1 TB).
const MAX_BENCH_MB: u64 = 1_000_000;
/// Bytes in a MB.
const MB: u64 = 1_000_000;

#[derive(Args)]
pub struct BenchArgs {
    /// Size of the mixed corpus for the speed figures, in MB (1 to 1000000).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=MAX_BENCH_MB))]
    corpus_mb: u64,
    /// Size of the streamed input for the peak-memory figure, in MB (1 to
    /// 1000000).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=MAX_BENCH_MB))]
    memory_mb: u64,
    /// Measure only this engine (auto: the one `sim` would use on the
    /// corpus) [default: both, and Icarus Verilog for comparison].
    #[arg(long, value_enum)]
    engine: Option<EngineChoice>,
    /// Bytes per clock of the benchmarked (rfc3629) core.
    #[arg(long, default_value = "1", value_parser = lanes_parser())]
    lanes: usize,
    /// Also write the figures into the measured record, as
    /// docs/results/bench.TOP.json (run from the repository's root); then
    /// `utf8hdl datasheet` renders them.
    #[arg(long)]
    record: bool,
}

pub fn run(args: &BenchArgs) -> Result<ExitCode> {
    with_core!(args.lanes, Profile::Rfc3629, |core| bench_of(core, args))
}

fn bench_of<C: Core<Input = u8> + Copy>(core: C, args: &BenchArgs) -> Result<ExitCode> {
    let bytes = |n: u64| {
        usize::try_from(n * MB)
            .context("the benchmark input does not fit in memory's address space")
    };
    let measure = Measure {
        corpus: bytes(args.corpus_mb)?,
        memory: bytes(args.memory_mb)?,
        total: (2 * args.corpus_mb + args.memory_mb) * MB,
    };
    let mut out = report_stdout()?;
    writeln!(
        out,
        "mixed corpus: {} MB through the {} decoder {}, no stalls",
        args.corpus_mb,
        core.profile(),
        core.name()
    )?;
    let record_path = args
        .record
        .then(|| record_path(&format!("bench.{}.json", core.name())))
        .transpose()?;
    let mut record = BenchRecord {
        top: core.name(),
        corpus_mb: args.corpus_mb,
        memory_mb: args.memory_mb,
        machine: utf8hdl_synth::datasheet::machine(),
        engines: Vec::new(),
        icarus_cycles_per_second: None,
        tools: Vec::new(),
    };
    let mut verilator_speed = None;
    let only = (args.engine).map(|chosen| resolve(chosen, args.lanes, Some(measure.total)));
    for engine in [EngineChoice::RustHdl, EngineChoice::Verilator] {
        if only.is_some_and(|chosen| chosen != engine) {
            continue;
        }
        let verilator = engine == EngineChoice::Verilator;
        let missing = || verilator::TOOLS.iter().any(|t| tools::find(t).is_none());
        if verilator && only.is_none() && missing() {
            writeln!(
                out,
                "verilator: not measured (needs {})",
                verilator::TOOLS.join(", ")
            )?;
            continue;
        }
        let f = on_engine(engine, core, None, measure)?;
        print_figures(&mut out, &engine.to_string(), &f, args.memory_mb)?;
        record.engines.push(engine_speed(&engine.to_string(), &f));
        if verilator {
            record.tools.push(tool_version("verilator", "--version"));
            verilator_speed = Some(f.cycles_per_second);
        }
    }
    if args.engine.is_none() {
        if tools::find("iverilog").is_some() && tools::find("vvp").is_some() {
            let progress = Progress::task("timing Icarus Verilog on 200k cycles".into());
            let icarus = utf8hdl_synth::cosim::icarus_cycles_per_second(core, 200_000);
            progress.finish();
            let icarus = icarus?;
            record.icarus_cycles_per_second = Some(icarus);
            record.tools.push(tool_version("iverilog", "-V"));
            write!(
                out,
                "icarus     {:.3}M simulated cycles/s (vvp, 200k cycles)",
                icarus / 1e6
            )?;
            match verilator_speed {
                Some(v) => writeln!(out, "; the Verilator engine is {:.0}x faster", v / icarus)?,
                None => writeln!(out)?,
            }
        } else {
            writeln!(out, "icarus: not measured (needs iverilog and vvp)")?;
        }
    }
    if let Some(path) = record_path {
        let json = serde_json::to_string_pretty(&record)?;
        write_atomically(&path, |out| Ok(writeln!(out, "{json}")?))?;
        note(format_args!(
            "recorded {}; render the datasheet with: utf8hdl datasheet",
            path.display()
        ));
    }
    Ok(ExitCode::SUCCESS)
}

/// The benchmark's runs on one engine, in bytes: the mixed corpus, the
/// streamed input, and all of them together for the progress bar.
#[derive(Copy, Clone)]
struct Measure {
    corpus: usize,
    memory: usize,
    total: u64,
}

impl<C: Core<Input = u8>> OnEngine<C> for Measure {
    type Output = Figures;

    fn run<E: Engine<Core = C>>(
        self,
        _: EngineChoice,
        new_engine: impl Fn() -> Result<E>,
    ) -> Result<Figures> {
        // Built (a Verilator model compiled and cached) before the progress
        // bar starts.
        drop(new_engine()?);
        let mut progress = Progress::bytes(Some(self.total));
        let figures = utf8hdl_sim::bench::run(
            || Ok(Harness::on(new_engine()?)),
            self.corpus,
            self.memory,
            &mut |done| progress.set(done),
        );
        progress.finish();
        figures
    }
}

/// An engine's figures, as the record keeps them.
fn engine_speed(engine: &str, f: &Figures) -> EngineSpeed {
    EngineSpeed {
        engine: engine.into(),
        cycles_per_second: f.cycles_per_second,
        vcd_cycles_per_second: f.vcd_cycles_per_second,
        vcd_bytes_per_cycle: f.vcd_bytes_per_cycle,
        memory_cycles_per_second: f.memory_cycles_per_second,
        memory_peak_rss_bytes: f.memory_peak_rss_bytes,
    }
}

/// `tool: its version`, for the record.
fn tool_version(tool: &str, flag: &str) -> String {
    format!("{tool}: {}", tools::version(tool, flag))
}

fn print_figures(
    out: &mut impl Write,
    engine: &str,
    f: &Figures,
    memory_mb: u64,
) -> io::Result<()> {
    writeln!(
        out,
        "{engine:<10} without VCD: {:.2}M simulated cycles/s",
        f.cycles_per_second / 1e6
    )?;
    writeln!(
        out,
        "{:<10} with VCD:    {:.2}M simulated cycles/s, {:.1} VCD bytes/cycle",
        "",
        f.vcd_cycles_per_second / 1e6,
        f.vcd_bytes_per_cycle
    )?;
    let rss = f
        .memory_peak_rss_bytes
        .map_or("unknown".into(), |b| format!("{:.1} MB", b as f64 / 1e6));
    writeln!(
        out,
        "{:<10} {memory_mb} MB streamed: {:.1} s, {:.2}M cycles/s, peak RSS {rss}",
        "",
        f.memory_seconds,
        f.memory_cycles_per_second / 1e6
    )
}
