//! SIGINT, SIGTERM and SIGHUP stop a program as an error would: whatever
//! it started is stopped (the `stop_children` it names), and every
//! unfinished output file and scratch directory is removed
//! ([`crate::output::remove_unfinished`]). The exit status is then 128 +
//! the signal's number (130 for SIGINT), as a shell reports a command
//! that the signal killed. `utf8hdl` and the labs' programs both stop so.

use std::io::{self, Write};
use std::os::fd::AsFd;

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

/// Starts the thread that handles the signals for the program `name` (the
/// first word of its message), which calls `stop_children` first.
pub fn handle_signals(name: &'static str, stop_children: fn()) -> io::Result<()> {
    let mut signals = Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            stop(name, stop_children, signal);
        }
    });
    Ok(())
}

fn stop(name: &str, stop_children: fn(), signal: i32) -> ! {
    stop_children();
    crate::output::remove_unfinished();
    let signal_name = signal_hook::low_level::signal_name(signal).unwrap_or("a signal");
    // Through a duplicate of the descriptor, not `io::stderr()`, whose lock
    // the main thread may hold.
    if let Ok(fd) = io::stderr().as_fd().try_clone_to_owned() {
        let _ = writeln!(
            std::fs::File::from(fd),
            "{name}: stopped by {signal_name}; unfinished output files were removed"
        );
    }
    // `_exit`: `std::process::exit` would flush standard output, whose lock
    // the main thread may hold.
    signal_hook::low_level::exit(128 + signal)
}
