//! SIGINT, SIGTERM and SIGHUP stop `utf8hdl` as an error would: the tools
//! it runs (yosys, nextpnr, sby, verilator, make) are stopped, and every
//! unfinished output file and scratch directory is removed. The exit status is then 128 + the
//! signal's number (130 for SIGINT), as a shell reports a command that the
//! signal killed. A broken pipe on an output ends the program the same way,
//! quietly, with 141 (128 + SIGPIPE), as `cat` or `seq` does.

use std::io::{self, Write};
use std::os::fd::AsFd;

use signal_hook::consts::{SIGHUP, SIGINT, SIGPIPE, SIGTERM};
use signal_hook::iterator::Signals;

/// The exit status after a broken pipe.
pub const BROKEN_PIPE_STATUS: u8 = 128 + SIGPIPE as u8;

/// Starts the thread that handles the signals.
pub fn handle_signals() -> io::Result<()> {
    let mut signals = Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            stop(signal);
        }
    });
    Ok(())
}

fn stop(signal: i32) -> ! {
    utf8hdl_synth::tools::stop_running();
    utf8hdl_sim::output::remove_unfinished();
    let name = signal_hook::low_level::signal_name(signal).unwrap_or("a signal");
    // Through a duplicate of the descriptor, not `io::stderr()`, whose lock
    // the main thread may hold.
    if let Ok(fd) = io::stderr().as_fd().try_clone_to_owned() {
        let _ = writeln!(
            std::fs::File::from(fd),
            "utf8hdl: stopped by {name}; unfinished output files were removed"
        );
    }
    // `_exit`: `std::process::exit` would flush standard output, whose lock
    // the main thread may hold.
    signal_hook::low_level::exit(128 + signal)
}
