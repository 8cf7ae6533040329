//! `utf8hdl`: the command-line face of the project. [`cli`] holds the
//! commands; this parses them, runs the one asked for, and turns an error
//! into one line on stderr and its exit status.

use std::process::ExitCode;

use anyhow::Result;
use clap::{CommandFactory, Parser};

mod cli;

use cli::report::{fail, is_broken_pipe, one_line, usage_error};
use cli::{interrupt, Cli, Command};

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Some(Command::Reference(args)) => cli::reference::run(&args),
        Some(Command::Sim(args)) => cli::sim::run(&args),
        Some(Command::Encode(args)) => cli::encode::run(&args),
        Some(Command::Validate(args)) => cli::validate::run(&args),
        Some(Command::Bench(args)) => cli::bench::run(&args),
        Some(Command::Wave(args)) => cli::wave::run(&args),
        Some(Command::Lab { action }) => cli::lab::run(&action),
        Some(Command::Verilog(args)) => cli::verilog::run(&args),
        Some(Command::Synth(args)) => cli::synth::run(&args),
        Some(Command::Formal(args)) => cli::formal::run(&args),
        Some(Command::Datasheet(args)) => cli::datasheet::run(&args),
        None => cli::main_job::run(),
    }
}

/// The subcommand the command line names, if its first argument is one.
fn subcommand() -> Option<String> {
    let first = std::env::args_os().nth(1)?.into_string().ok()?;
    Cli::command().find_subcommand(&first)?;
    Some(first)
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => return fail(&usage_error(&e, subcommand().as_deref())),
    };
    if let Err(e) = interrupt::handle_signals() {
        return fail(&format!("cannot handle signals: {e}"));
    }
    match run(cli) {
        Ok(code) => code,
        Err(e) if is_broken_pipe(&e) => ExitCode::from(interrupt::BROKEN_PIPE_STATUS),
        Err(e) => fail(&one_line(&e)),
    }
}
