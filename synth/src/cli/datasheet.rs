//! `utf8hdl datasheet`: `docs/datasheet.md` and the README's core table,
//! rendered from the measured records and the cores' descriptions
//! ([`utf8hdl_synth::datasheet`]), or checked against them; and where
//! `--record` writes a record.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use utf8hdl_sim::input::Input;
use utf8hdl_sim::output::{check_destinations, write_atomically};
use utf8hdl_synth::datasheet::{
    core_table, load_bench_records, load_proof_records, load_records, render, sheets,
    stale_proof_records, stale_records, with_core_table,
};

use super::report::note;

#[derive(Args)]
pub struct DatasheetArgs {
    /// The directory of the measured records.
    #[arg(long, default_value = utf8hdl_synth::datasheet::RECORDS_DIR)]
    records: PathBuf,
    /// Where the datasheet goes, or - for standard output.
    #[arg(long, short = 'o', default_value = utf8hdl_synth::datasheet::DATASHEET)]
    output: PathBuf,
    /// The README whose core table (the block between its markers) is
    /// written too.
    #[arg(long, default_value = "README.md")]
    readme: PathBuf,
    /// Write nothing: exit 1, naming each problem, when the datasheet is
    /// not what the records render or a record is stale (its design has
    /// changed since it was measured).
    #[arg(long)]
    check: bool,
}

pub fn run(args: &DatasheetArgs) -> Result<ExitCode> {
    let records = load_records(&args.records)?;
    let sheets = sheets()?;
    let proofs = load_proof_records(&args.records)?;
    let text = render(
        &sheets,
        &records,
        &load_bench_records(&args.records)?,
        &proofs,
    )?;
    let readme = std::fs::read_to_string(&args.readme)
        .with_context(|| format!("cannot read '{}'", args.readme.display()))?;
    let readme_now = with_core_table(&readme, &core_table(&sheets))
        .with_context(|| format!("cannot write the core table of '{}'", args.readme.display()))?;
    if !args.check {
        check_destinations(
            &Input::Sample,
            &[("--output", &args.output), ("--readme", &args.readme)],
        )?;
        write_atomically(&args.output, |out| Ok(out.write_all(text.as_bytes())?))?;
        if readme_now != readme {
            write_atomically(
                &args.readme,
                |out| Ok(out.write_all(readme_now.as_bytes())?),
            )?;
        }
        if args.output.as_os_str() != "-" {
            note(format_args!(
                "wrote {} from {} records, and the core table of {}",
                args.output.display(),
                records.len(),
                args.readme.display()
            ));
        }
        return Ok(ExitCode::SUCCESS);
    }
    let mut problems = stale_records(&records)?;
    problems.extend(stale_proof_records(&proofs)?);
    let written = std::fs::read_to_string(&args.output)
        .with_context(|| format!("cannot read '{}'", args.output.display()))?;
    for (path, now, rendered) in [
        (&args.output, &written, &text),
        (&args.readme, &readme, &readme_now),
    ] {
        if now != rendered {
            problems.push(format!(
                "{} is not what the records and the core descriptions render; \
                 render it with: utf8hdl datasheet",
                path.display()
            ));
        }
    }
    for problem in &problems {
        note(format_args!("utf8hdl: {problem}"));
    }
    Ok(match problems.is_empty() {
        true => ExitCode::SUCCESS,
        false => ExitCode::from(1),
    })
}

/// Where `--record` writes `name`: in the records' directory, which must
/// be there (the command runs from the repository's root).
pub fn record_path(name: &str) -> Result<PathBuf> {
    let dir = Path::new(utf8hdl_synth::datasheet::RECORDS_DIR);
    anyhow::ensure!(
        dir.is_dir(),
        "--record writes into {}/, which is not here: run it from the repository's root",
        dir.display()
    );
    Ok(dir.join(name))
}
