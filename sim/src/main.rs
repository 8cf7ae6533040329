//! `utf8hdl`: the command-line face of the project.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, Parser, Subcommand};
use utf8hdl_hdl::Profile;
use utf8hdl_sim::input::Input;
use utf8hdl_sim::output::{Format, UnitWriter};
use utf8hdl_sim::reference::Decoder;

/// A hardware UTF-8 → UCS-4 decoder in rust-hdl: simulate it, check it
/// against the reference, export it.
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

fn reference(args: &StreamArgs) -> Result<ExitCode> {
    let mut stream = Input::from_arg(args.input.as_deref()).open()?;
    let mut writer = UnitWriter::create(Some(&args.output), args.format)?;
    for unit in Decoder::new(&mut stream, args.profile) {
        writer.write(&unit)?;
    }
    stream.finish()?;
    writer.commit()?;
    Ok(ExitCode::SUCCESS)
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Some(Command::Reference(args)) => reference(&args),
        None => reference(&StreamArgs {
            input: None,
            profile: Profile::Rfc3629,
            format: Format::Lines,
            output: PathBuf::from("-"),
        }),
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
