//! `utf8hdl wave`: the guide's waveform figures (SVG), drawn from real
//! simulations.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use utf8hdl_sim::cycle_diagrams::refresh_dir;
use utf8hdl_sim::figures::{all, find, render};

use super::args::lanes_parser;
use super::report::report_stdout;

#[derive(Args)]
pub struct WaveArgs {
    /// Figures to render [default: all of them].
    names: Vec<String>,
    /// Where the SVGs go.
    #[arg(long, default_value = "docs/figures")]
    dir: PathBuf,
    /// The guide, whose cycle diagrams (between `<!-- BEGIN cycles: ... -->`
    /// and `<!-- END cycles -->`) are regenerated with the figures
    /// [default: docs, when run where it exists].
    #[arg(long)]
    docs: Option<PathBuf>,
    /// List the figures and what they show.
    #[arg(long)]
    list: bool,
    /// Bytes per clock of the core whose figures to draw, when no NAME is
    /// given (a named figure says its own core).
    #[arg(long, default_value = "1", value_parser = lanes_parser())]
    lanes: usize,
}

pub fn run(args: &WaveArgs) -> Result<ExitCode> {
    let of_lanes: Vec<_> = all().filter(|(_, f)| f.lanes == args.lanes).collect();
    let mut out = report_stdout()?;
    if args.list {
        for (_, f) in all() {
            writeln!(out, "{:<14} x{:<2} {}", f.name, f.lanes, f.caption)?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let figures = if args.names.is_empty() {
        if of_lanes.is_empty() {
            let counts: std::collections::BTreeSet<String> =
                all().map(|(_, f)| f.lanes.to_string()).collect();
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
    for (kind, figure) in figures {
        render(kind, figure, &args.dir)?;
        writeln!(
            out,
            "{}",
            args.dir.join(format!("{}.svg", figure.name)).display()
        )?;
    }
    // The diagrams come from the same simulations, so they are redrawn
    // with any figure: a chapter never shows a figure and a diagram of two
    // designs.
    // Outside the repository (no `docs` here) there is no guide to update.
    let docs = match &args.docs {
        Some(dir) => Some(dir.clone()),
        None => Some(PathBuf::from("docs")).filter(|dir| dir.is_dir()),
    };
    for chapter in docs
        .map(|dir| refresh_dir(&dir))
        .transpose()?
        .unwrap_or_default()
    {
        writeln!(out, "{}", chapter.display())?;
    }
    Ok(ExitCode::SUCCESS)
}
