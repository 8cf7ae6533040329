//! `utf8hdl` with no command (`cargo run --release`): the embedded sample
//! through the decoder RTL, as a table, with a VCD to open.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use utf8hdl_hdl::Profile;
use utf8hdl_sim::output::Format;

use super::args::{EngineChoice, StreamArgs};
use super::report::{note, report_stdout};
use super::sim::{self, SimArgs};

/// Where the main job writes its waveform.
const MAIN_JOB_VCD: &str = "utf8hdl.vcd";

pub fn run() -> Result<ExitCode> {
    let args = SimArgs {
        stream: StreamArgs {
            input: None,
            profile: Profile::Rfc3629,
            format: Format::Table,
            output: PathBuf::from("-"),
            properties: false,
        },
        vcd: Some(PathBuf::from(MAIN_JOB_VCD)),
        svg: None,
        vcd_cycles: None,
        vcd_period: 10,
        stall_in: 0.0,
        stall_out: 0.0,
        seed: 1,
        lanes: 1,
        null_lanes: 0.0,
        engine: EngineChoice::RustHdl,
        stats: None,
    };
    writeln!(
        report_stdout()?,
        "utf8hdl: the embedded sample through the rfc3629 decoder RTL, cycle by cycle\n"
    )?;
    let code = sim::run(&args)?;
    note(format_args!(
        "waveform written to {MAIN_JOB_VCD} (open it with: gtkwave {MAIN_JOB_VCD} sim/utf8hdl.gtkw)"
    ));
    Ok(code)
}
