//! `utf8hdl lab`: the guide's labs (docs/labs.md), listed, or a block
//! checked against the reference; a binary built from another version of
//! the block's file rebuilds itself first.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Subcommand;
use utf8hdl_sim::labs;
use utf8hdl_synth::tools;

use super::report::{note, note_summary, report_stdout};

#[derive(Subcommand)]
pub enum LabAction {
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

pub fn run(action: &LabAction) -> Result<ExitCode> {
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
            note_summary(&summary);
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
