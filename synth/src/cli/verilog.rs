//! `utf8hdl verilog`: one core as a self-contained Verilog-2005 file, or
//! every core with its FuseSoC core file (`--all`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use utf8hdl_sim::core::Core;
use utf8hdl_sim::output::write_atomically;
use utf8hdl_sim::with_any_core;
use utf8hdl_synth::core_verilog;
use utf8hdl_synth::fusesoc::rtl_files;
use utf8hdl_synth::verilog::all_cores;

use super::args::CoreChoice;
use super::report::note;

#[derive(Args)]
pub struct VerilogArgs {
    #[command(flatten)]
    core: CoreChoice,
    /// Where the Verilog goes, or - for standard output [default: TOP.v,
    /// the file name Verilator's lint expects for the top module].
    #[arg(long, short = 'o')]
    output: Option<PathBuf>,
    /// Write every core (each kind, profile and lane count) into --dir,
    /// each as TOP.v and its FuseSoC core file TOP.core: how the
    /// repository's synth/rtl is made.
    #[arg(long, conflicts_with_all = ["core", "profile", "lanes", "output"], requires = "dir")]
    all: bool,
    /// Where --all writes (created if missing).
    #[arg(long, requires = "all")]
    dir: Option<PathBuf>,
}

pub fn run(args: &VerilogArgs) -> Result<ExitCode> {
    if let Some(dir) = args.dir.as_deref().filter(|_| args.all) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        for (kind, profile, lanes) in all_cores() {
            for (name, text) in rtl_files(kind, profile, lanes)? {
                write_atomically(&dir.join(name), |out| Ok(out.write_all(text.as_bytes())?))?;
            }
        }
        note(format_args!(
            "wrote {} cores (Verilog and FuseSoC core files) into {}",
            all_cores().count(),
            dir.display()
        ));
        return Ok(ExitCode::SUCCESS);
    }
    with_any_core!(args.core.kind, args.core.lanes, args.core.profile, |core| {
        verilog_of(&core, args)
    })
}

fn verilog_of<C: Core>(core: &C, args: &VerilogArgs) -> Result<ExitCode> {
    let text = core_verilog(core)?;
    let path = args
        .output
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("{}.v", core.name())));
    write_atomically(&path, |out| Ok(out.write_all(text.as_bytes())?))?;
    if path.as_os_str() != "-" {
        note(format_args!("wrote {}", path.display()));
    }
    Ok(ExitCode::SUCCESS)
}
