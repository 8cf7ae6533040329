//! `utf8hdl validate`: is the input UTF-8? The validator's RTL answers,
//! checked against the reference validator, with the offset and kind of
//! every malformed maximal subpart. Exit 0 when the input is valid, 1 when
//! it is not (as `iconv` and `grep` do), 2 on a usage error.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use utf8hdl_hdl::Profile;
use utf8hdl_sim::checker::{Stalls, Stimulus};
use utf8hdl_sim::core::Core;
use utf8hdl_sim::cores::utf8_validator::Span;
use utf8hdl_sim::input::Input;
use utf8hdl_sim::with_validator;

use super::args::{lanes_parser, profile_parser, EngineChoice, StatsFormat};
use super::engine::{resolve, run_on};
use super::progress::Progress;
use super::report::{report_stdout, visible};

#[derive(Args)]
pub struct ValidateArgs {
    /// A file, or - for standard input [default: -].
    input: Option<PathBuf>,
    /// Bytes per clock: 1, 2, 4, 8, 16 or 32.
    #[arg(long, default_value = "8", value_parser = lanes_parser())]
    lanes: usize,
    /// Which UTF-8 is valid: rfc3629 (1–4 octets) or iso10646 (1–6 octets).
    #[arg(long, default_value = "rfc3629", value_parser = profile_parser())]
    profile: Profile,
    /// Print the verdict and the errors as one JSON object instead of lines.
    #[arg(long, value_enum)]
    stats: Option<StatsFormat>,
    /// The simulator: rust-hdl's, a Verilator model of the exported
    /// Verilog, or auto (as for `sim`).
    #[arg(long, value_enum, default_value = "auto")]
    engine: EngineChoice,
}

/// One malformed maximal subpart, as the validator marked it.
struct Found {
    offset: usize,
    len: usize,
    kind: &'static str,
}

/// `utf8hdl validate`: the input, read whole as one message, through the
/// validator of `--lanes` lanes.
pub fn run(args: &ValidateArgs) -> Result<ExitCode> {
    // A closed standard output is an error before the run, not a verdict
    // lost after it.
    let mut out = report_stdout()?;
    let input = Input::from_arg(Some(args.input.as_deref().unwrap_or(Path::new("-"))));
    let bytes = input.read_all()?;
    let engine = resolve(args.engine, args.lanes, Some(bytes.len() as u64));
    let full_rate = Stimulus::stalls(Stalls::Never, Stalls::Never, 1);
    let mut found = Vec::new();
    let mut progress = Progress::bytes(Some(bytes.len() as u64));
    let agreed = with_validator!(args.lanes, args.profile, |core| {
        let summary = run_on(
            core,
            engine,
            bytes.iter().copied(),
            &full_rate,
            |unit: &Span| {
                progress.set(unit.span.end as u64);
                if let Some(kind) = unit.error {
                    found.push(Found {
                        offset: unit.span.start,
                        len: unit.span.len(),
                        kind: kind.name(),
                    });
                }
                Ok(())
            },
            0..0,
            &mut |_, _| {},
        )?;
        if let Some(mismatch) = &summary.mismatch {
            anyhow::bail!(
                "{}: the RTL and the reference disagree: {mismatch}",
                core.name()
            );
        }
        summary.agree()
    });
    progress.finish();
    anyhow::ensure!(agreed, "the validator's run did not finish");
    let verdict = match args.stats {
        Some(StatsFormat::Json) => {
            let errors: Vec<serde_json::Value> = found
                .iter()
                .map(|f| serde_json::json!({"offset": f.offset, "length": f.len, "kind": f.kind}))
                .collect();
            // The file's path (null for standard input), as JSON text
            // holds it: a name in other bytes than UTF-8 with U+FFFD.
            let path = input.path().map(|path| path.to_string_lossy());
            let verdict = serde_json::json!({
                "input": path,
                "profile": args.profile.name(),
                "bytes": bytes.len(),
                "valid": found.is_empty(),
                "errors": errors,
            });
            format!("{verdict}\n")
        }
        None => {
            let mut text: String = found
                .iter()
                .map(|f| format!("{}\t{}\t{}\n", f.offset, f.kind, f.len))
                .collect();
            // The name as a message shows it: one line, whatever it holds.
            let name = visible(&input.describe());
            text.push_str(&match found.len() {
                0 => format!("{name}: valid {} ({} bytes)\n", args.profile, bytes.len()),
                n => format!(
                    "{name}: not valid {}: {n} error{} in {} bytes\n",
                    args.profile,
                    if n == 1 { "" } else { "s" },
                    bytes.len()
                ),
            });
            text
        }
    };
    out.write_all(verdict.as_bytes())
        .and_then(|()| out.flush())
        .context("cannot write the verdict")?;
    Ok(match found.is_empty() {
        true => ExitCode::SUCCESS,
        false => ExitCode::from(1),
    })
}
