//! `utf8hdl formal`: a core's properties proven with SymbiYosys, one line
//! a property; or, with `--block`, a shared block's contract.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use utf8hdl_sim::core::Core;
use utf8hdl_sim::figures;
use utf8hdl_sim::output::write_atomically;
use utf8hdl_sim::with_any_core;
use utf8hdl_synth::datasheet::{machine, netlist_sha256, CheckTime, ProofRecord};
use utf8hdl_synth::formal::blocks::{BlockProof, BLOCKS};
use utf8hdl_synth::formal::{self, Check, Outcome, Ran};
use utf8hdl_synth::parallel;
use utf8hdl_synth::verilog::verilog_file;

use super::args::CoreChoice;
use super::datasheet::record_path;
use super::report::{note, report_stdout};

#[derive(Args)]
pub struct FormalArgs {
    #[command(flatten)]
    core: CoreChoice,
    /// Prove this Verilog file instead of the generated core; its top module
    /// must have the core's name and ports.
    #[arg(long)]
    verilog: Option<PathBuf>,
    /// BMC depth, in cycles, of the bounded checks (the 1-lane decoder's
    /// model equality under free backpressure; the wide decoder's P3-P6),
    /// and at least the core's latency + 4.
    #[arg(long, default_value_t = formal::DEFAULT_DEPTH,
          value_parser = clap::value_parser!(u32).range(1..))]
    depth: u32,
    /// Write a VCD trace of every cover.
    #[arg(long)]
    cover: bool,
    /// Where counterexample and cover VCDs go.
    #[arg(long, default_value = ".")]
    dir: PathBuf,
    /// Checks run at once, each one SymbiYosys process [default: the
    /// machine's cores].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    jobs: Option<u32>,
    /// Run nothing: write the proof into this directory (created if
    /// missing), to run sby by hand: the core's Verilog TOP.v, TOP.sby
    /// written from the core's formal plan, and the sources it reads.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["cover", "dir", "jobs"])]
    write_sby: Option<PathBuf>,
    /// Prove the contract of one of the blocks the cores share, alone, by
    /// k-induction (its invariants, hdl/formal/blocks/BLOCK_properties.v);
    /// --verilog then names a file whose top module is the block.
    #[arg(long, value_name = "BLOCK", conflicts_with_all = ["cover", "depth", "jobs"],
          value_parser = clap::builder::PossibleValuesParser::new(BLOCKS.map(|b| b.name)))]
    block: Option<String>,
    /// Also write each check's outcome and wall time into the measured
    /// record, as docs/results/formal.TOP.json (run from the repository's
    /// root); then `utf8hdl datasheet` renders them.
    #[arg(long, conflicts_with_all = ["verilog", "write_sby", "block"])]
    record: bool,
}

pub fn run(args: &FormalArgs) -> Result<ExitCode> {
    if let Some(name) = &args.block {
        return run_block(BlockProof::named(name)?, args);
    }
    let (kind, lanes) = (args.core.kind, args.core.lanes);
    let options = formal::Options {
        profile: args.core.profile,
        verilog: args.verilog.clone(),
        depth: args.depth,
        covers: args.cover,
        dir: args.dir.clone(),
        checks: kind.formal(lanes).checks.to_vec(),
        jobs: args.jobs.map_or_else(parallel::cores, |jobs| jobs as usize),
    };
    if let Some(dir) = &args.write_sby {
        let files = formal::proof_files(kind, lanes, &options)?;
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        for (name, text) in &files {
            write_atomically(&dir.join(name), |out| Ok(out.write_all(text.as_bytes())?))?;
        }
        let sby = files
            .iter()
            .map(|(name, _)| name)
            .find(|name| name.ends_with(".sby"));
        note(format_args!(
            "wrote {} files into {}: run sby -f {} TASK there",
            files.len(),
            dir.display(),
            sby.map_or("", String::as_str)
        ));
        return Ok(ExitCode::SUCCESS);
    }
    // Where the record goes is checked before anything is proven.
    let record_to = match args.record {
        true => {
            let top = with_any_core!(kind, lanes, options.profile, |core| core.name());
            let path = record_path(&ProofRecord::file_name_of(&top))?;
            Some((top, path))
        }
        false => None,
    };
    let mut cover_traces = Vec::new();
    let mut out = report_stdout()?;
    let mut written = Ok(());
    let mut times = Vec::new();
    let start = Instant::now();
    let report = |check: &Check, ran: &Ran| {
        if written.is_ok() {
            written = writeln!(out, "{}: {}", check.property, ran.outcome);
        }
        if let Outcome::Covered { traces, .. } = &ran.outcome {
            cover_traces.extend(traces.iter().cloned());
        }
        times.push(CheckTime {
            property: check.property.to_string(),
            method: formal::method_name(check.method).to_string(),
            outcome: ran.outcome.to_string(),
            seconds: tenths(ran.seconds),
        });
    };
    let all_passed = formal::run(kind, lanes, &options, report)?;
    written?;
    // A record keeps the times of a plan that holds; a failed check is
    // reported above and recorded nowhere.
    if let Some((top, path)) = record_to.filter(|_| all_passed) {
        let (_, verilog) = verilog_file(kind, options.profile, lanes)?;
        let record = ProofRecord {
            top,
            netlist_sha256: netlist_sha256(&verilog),
            machine: machine(),
            jobs: options.jobs,
            checks: times,
            wall_seconds: tenths(start.elapsed().as_secs_f64()),
            tools: formal::tool_versions(),
        };
        write_record(&path, &record)?;
    }
    // Each cover's trace also as a timing diagram, beside its VCD, for the
    // proof whose traces the diagram reads; the others' stay VCDs.
    let drawn = figures::renders_traces_of(kind.formal(lanes));
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

/// Seconds to a tenth, as a record keeps them.
fn tenths(seconds: f64) -> f64 {
    (seconds * 10.0).round() / 10.0
}

/// `record` into `path`, and a note of it on stderr.
fn write_record(path: &Path, record: &ProofRecord) -> Result<()> {
    let json = serde_json::to_string_pretty(record)?;
    write_atomically(path, |out| Ok(writeln!(out, "{json}")?))?;
    note(format_args!(
        "recorded {}; render the datasheet with: utf8hdl datasheet",
        path.display()
    ));
    Ok(())
}

/// `--block`: the block's proof, or its files with `--write-sby`.
fn run_block(block: &BlockProof, args: &FormalArgs) -> Result<ExitCode> {
    if let Some(dir) = &args.write_sby {
        let files = block.files(args.verilog.as_deref())?;
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        for (name, text) in &files {
            write_atomically(&dir.join(name), |out| Ok(out.write_all(text.as_bytes())?))?;
        }
        note(format_args!(
            "wrote {} files into {}: run sby -f {}.sby there",
            files.len(),
            dir.display(),
            block.name
        ));
        return Ok(ExitCode::SUCCESS);
    }
    let outcome = block.prove(args.verilog.as_deref(), &args.dir)?;
    writeln!(
        report_stdout()?,
        "{} ({}): {outcome}",
        block.name,
        block.instance
    )?;
    Ok(if outcome.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
