//! SIGINT, SIGTERM and SIGHUP stop `utf8hdl` as an error would
//! ([`utf8hdl_sim::interrupt`]): the tools it runs (yosys, nextpnr, sby,
//! verilator, make) are stopped, and every unfinished output file and
//! scratch directory is removed; the exit status is 128 + the signal's
//! number. A broken pipe on an output ends the program the same way,
//! quietly, with 141 (128 + SIGPIPE), as `cat` or `seq` does.

use signal_hook::consts::SIGPIPE;

/// The exit status after a broken pipe.
pub const BROKEN_PIPE_STATUS: u8 = 128 + SIGPIPE as u8;

/// Starts the thread that handles the signals.
pub fn handle_signals() -> std::io::Result<()> {
    utf8hdl_sim::interrupt::handle_signals("utf8hdl", utf8hdl_synth::tools::stop_running)
}
