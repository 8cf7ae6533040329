//! `utf8hdl formal`: a core's properties proven with SymbiYosys, one line
//! a property.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use utf8hdl_hdl::Profile;
use utf8hdl_sim::cores::Kind;
use utf8hdl_sim::figures;
use utf8hdl_sim::output::write_atomically;
use utf8hdl_synth::formal::{self, Check, Outcome};

use super::args::{kind_parser, lanes_parser, profile_parser};
use super::report::report_stdout;

#[derive(Args)]
pub struct FormalArgs {
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
    /// BMC depth, in cycles, of the model equality under free backpressure.
    #[arg(long, default_value_t = formal::DEFAULT_DEPTH,
          value_parser = clap::value_parser!(u32).range(1..))]
    depth: u32,
    /// Write a VCD trace of every cover.
    #[arg(long)]
    cover: bool,
    /// Where counterexample and cover VCDs go.
    #[arg(long, default_value = ".")]
    dir: PathBuf,
}

pub fn run(args: &FormalArgs) -> Result<ExitCode> {
    args.core
        .check(args.lanes, args.profile)
        .map_err(anyhow::Error::msg)?;
    let mut options = formal::Options {
        profile: args.profile,
        verilog: args.verilog.clone(),
        depth: args.depth,
        covers: args.cover,
        dir: args.dir.clone(),
        checks: formal::CHECKS.to_vec(),
    };
    let mut cover_traces = Vec::new();
    let mut out = report_stdout()?;
    let mut written = Ok(());
    let report = |check: &Check, outcome: &Outcome| {
        if written.is_ok() {
            written = writeln!(out, "{}: {outcome}", check.property);
        }
        if let Outcome::Covered { traces, .. } = outcome {
            cover_traces.extend(traces.iter().cloned());
        }
    };
    // The wide decoders have proofs of their own.
    let all_passed = if args.core == Kind::Decoder && args.lanes > 1 {
        options.checks = formal::wide_checks(args.lanes).to_vec();
        formal::run_wide(&options, args.lanes, report)
    } else {
        options.checks = formal::checks_of(args.core).to_vec();
        formal::run_one_lane(args.core, &options, report)
    }?;
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
