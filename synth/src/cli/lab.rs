//! `utf8hdl lab`: the guide's labs (docs/labs.md), listed, or a block
//! checked against the reference. The blocks are not in this program: a
//! check runs the labs' own program with cargo (`cargo run --release -p
//! utf8hdl-labs -- check N`), which compiles the labs' crate alone, so
//! that the verdict is always about the file as it is.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Subcommand;
use utf8hdl_sim::labs;
use utf8hdl_synth::tools;

use super::report::report_stdout;

#[derive(Subcommand)]
pub enum LabAction {
    /// List the labs and their files.
    List,
    /// Simulate lab N's block on the lab's input and check every word
    /// against the reference: the first difference, or "passes".
    Check {
        /// The lab: 1, 2, 3, ...
        lab: String,
        /// Check the lab's solution instead of your file.
        #[arg(long)]
        solution: bool,
        /// On a failure, write the waveform (VCD) of the cycles around it.
        #[arg(long, value_name = "FILE")]
        vcd: Option<PathBuf>,
        /// On a failure, draw the same cycles as a timing diagram (SVG).
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
    },
}

/// The cargo that runs the labs' program [default: `cargo` on `PATH`].
const LAB_CARGO_VAR: &str = "UTF8HDL_CARGO";

/// cargo's exit status when the program it was to run does not build.
const CARGO_BUILD_FAILED: i32 = 101;

pub fn run(action: &LabAction) -> Result<ExitCode> {
    match action {
        LabAction::List => {
            let width = labs::LABS.iter().map(|lab| lab.title.len()).max();
            let mut out = report_stdout()?;
            for lab in labs::LABS {
                writeln!(
                    out,
                    "{:>2}  {:width$}  {}",
                    lab.id,
                    lab.title,
                    lab.file(labs::STUDENT),
                    width = width.unwrap_or(0)
                )?;
            }
            Ok(ExitCode::SUCCESS)
        }
        LabAction::Check {
            lab,
            solution,
            vcd,
            svg,
        } => check(lab, *solution, [("--vcd", vcd), ("--svg", svg)]),
    }
}

/// Runs lab `id`'s check in the labs' program (the solutions' with
/// `solution`) with cargo, in the workspace that holds the labs, and
/// returns its exit status; or an error that says why it cannot run.
fn check(id: &str, solution: bool, outputs: [(&str, &Option<PathBuf>); 2]) -> Result<ExitCode> {
    let lab = labs::find(id)?;
    let (crate_dir, package, program) = match solution {
        false => (labs::STUDENT, "utf8hdl-labs", "labs"),
        true => (labs::SOLUTIONS, "utf8hdl-lab-solutions", "lab-solutions"),
    };
    // The workspace is the one that holds the starting files, with or
    // without the solutions.
    let workspace = labs::workspace(labs::STUDENT);
    let place = match workspace == Path::new(".") {
        true => "the current directory".to_string(),
        false => format!("'{}'", workspace.display()),
    };
    let command = format!("cargo run --release -p {package} -- check {id}");
    if solution && !workspace.join(crate_dir).is_dir() {
        anyhow::bail!(
            "the solutions are not in {place} ({crate_dir}/ is absent: the labs may be handed \
             out without them)"
        );
    }
    let file = lab.file(crate_dir);
    if let Err(e) = std::fs::metadata(workspace.join(&file)) {
        anyhow::bail!("cannot read {file} ({e}): restore it, then run `{command}`");
    }
    if !workspace.join("Cargo.toml").is_file() {
        anyhow::bail!(
            "there is no Cargo.toml in {place} to build the labs with: run `{command}` in the \
             workspace that holds {file}"
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
            "cargo is not on PATH to build {file} with: with cargo, run `{command}` in {place}"
        );
    };
    let mut args: Vec<std::ffi::OsString> = [
        "run",
        "--release",
        "--quiet",
        "-p",
        package,
        "--bin",
        program,
        "--",
        "check",
        id,
    ]
    .map(Into::into)
    .to_vec();
    // The program runs in the workspace: paths as the user gave them are
    // made absolute here.
    for (flag, path) in outputs {
        if let Some(path) = path {
            args.push(flag.into());
            args.push(std::path::absolute(path)?.into());
        }
    }
    let status = std::process::Command::new(&cargo)
        .args(&args)
        .current_dir(&workspace)
        .status()
        .with_context(|| format!("running {}", cargo.display()))?;
    if status.code() == Some(CARGO_BUILD_FAILED) {
        anyhow::bail!(
            "the labs' crate {crate_dir} does not compile (cargo's errors above name the file): \
             fix it, then run `{command}`"
        );
    }
    // A run that a signal stopped: as the shell tells it.
    let code = status.code().unwrap_or_else(|| {
        use std::os::unix::process::ExitStatusExt;
        128 + status.signal().unwrap_or(0)
    });
    Ok(ExitCode::from(u8::try_from(code).unwrap_or(2)))
}
