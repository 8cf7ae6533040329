//! The external tools (yosys, nextpnr, iverilog, verilator, ...): running
//! them so that a signal stops them too, and the one policy for tests that
//! need them.

use std::io;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::{mpsc, Mutex, MutexGuard};
use std::time::Duration;

/// Where `name` is on `PATH`, if it is.
pub fn find(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable(candidate))
}

#[cfg(unix)]
fn is_executable(path: &std::path::Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

#[cfg(not(unix))]
fn is_executable(path: &std::path::Path) -> bool {
    path.is_file()
}

/// Whether a test that needs the tool `name` should run.
///
/// Returns `true` when the tool is on `PATH`. When it is not, the test is
/// skipped with a message on stderr and this returns `false` — unless the
/// environment variable `UTF8HDL_REQUIRE_TOOLS=1` is set (as in CI), in which
/// case a missing tool is a failure and this panics.
pub fn require(name: &str) -> bool {
    find(name).is_some() || missing(&format!("{name} is not on PATH"))
}

/// [`require`]'s policy for a tool found some other way: `what` names it
/// ("pyosys's yosys-abc"), `present` says whether it was found.
pub fn require_that(what: &str, present: bool) -> bool {
    present || missing(&format!("{what} is not installed"))
}

fn missing(reason: &str) -> bool {
    if std::env::var("UTF8HDL_REQUIRE_TOOLS").as_deref() == Ok("1") {
        panic!("{reason}, and UTF8HDL_REQUIRE_TOOLS=1 requires it");
    }
    eprintln!("SKIPPED: {reason} (set UTF8HDL_REQUIRE_TOOLS=1 to make this a failure)");
    false
}

/// [`require`] for several tools; every missing one is reported.
pub fn require_all(names: &[&str]) -> bool {
    // Not `all`: it would stop at the first missing tool and hide the rest.
    names.iter().filter(|name| !require(name)).count() == 0
}

/// The process groups of the tools running now: each tool is started as
/// the leader of a group of its own, so that whatever it starts in turn
/// (sby's yosys, smtbmc and abc; make's compilers) is in it too.
static RUNNING: Mutex<Vec<u32>> = Mutex::new(Vec::new());

fn running() -> MutexGuard<'static, Vec<u32>> {
    // A panic elsewhere leaves the list as valid as it was.
    RUNNING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `command` to its end, as [`Command::output`] does (stdin empty,
/// stdout and stderr captured), in a process group of its own that
/// [`stop_running`] can stop. Every tool utf8hdl runs is run through here
/// or [`output_within`].
pub fn output(command: &mut Command) -> io::Result<Output> {
    captured(command, None)
}

/// [`output`], but a run longer than `limit` is stopped (its whole group,
/// with SIGKILL) and is an error of kind [`io::ErrorKind::TimedOut`]. For
/// the simulators: a zero-delay loop in a design never ends on its own,
/// and `vvp` ran one for 47 minutes before a person stopped it.
///
/// A watchdog thread of a few lines rather than the `wait-timeout` crate:
/// that crate waits on the child but does not drain its pipes, so it
/// would need reader threads of its own, and the group kill is needed
/// either way.
pub fn output_within(command: &mut Command, limit: Duration) -> io::Result<Output> {
    captured(command, Some(limit))
}

fn captured(command: &mut Command, limit: Option<Duration>) -> io::Result<Output> {
    let child = {
        // Spawned under the lock: once `stop_running` holds it, nothing new
        // starts.
        let mut list = running();
        let child = command
            .process_group(0)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        list.push(child.id());
        child
    };
    let id = child.id();
    // The watchdog waits for the run's end (the sender dropped) or the
    // limit, whichever comes first.
    let (ended, end) = mpsc::channel::<()>();
    // It returns the limit when it stopped the run.
    let watchdog = limit.map(|limit| {
        std::thread::spawn(move || {
            let late = end.recv_timeout(limit) == Err(mpsc::RecvTimeoutError::Timeout);
            if late {
                // SAFETY: kill(2) takes no pointer; a group already gone
                // is ESRCH.
                unsafe { libc::kill(-(id as libc::pid_t), libc::SIGKILL) };
            }
            late.then_some(limit)
        })
    });
    let out = child.wait_with_output();
    drop(ended);
    let stopped_at = watchdog.and_then(|w| w.join().ok().flatten());
    running().retain(|&p| p != id);
    if let Some(limit) = stopped_at {
        return Err(io::Error::new(
            io::ErrorKind::TimedOut,
            format!("stopped after {} s", limit.as_secs()),
        ));
    }
    out
}

/// Sends SIGTERM to every running tool's process group and waits (at most
/// two seconds) until they are gone, so that none goes on writing into a
/// scratch directory about to be removed, or on using the machine after
/// utf8hdl has stopped. Keeps the list locked, so that no tool starts
/// afterwards: for a signal handler, on the way out of the program.
pub fn stop_running() {
    let list = running();
    let groups: Vec<libc::pid_t> = list.iter().filter_map(|&p| p.try_into().ok()).collect();
    for &group in &groups {
        // SAFETY: kill(2) takes no pointer; a group already gone is ESRCH.
        unsafe { libc::kill(-group, libc::SIGTERM) };
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
    // Signal 0 tests whether any process of the group is left.
    let alive = |&group: &libc::pid_t| unsafe { libc::kill(-group, 0) } == 0;
    while groups.iter().any(alive) && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    std::mem::forget(list);
}

/// Runs `program` with `args` in `dir`, saving its stdout and stderr to
/// `dir/log`. Fails with the log's last lines when the program fails.
pub fn run<S: AsRef<std::ffi::OsStr>>(
    dir: &std::path::Path,
    program: &str,
    args: &[S],
    log: &str,
) -> anyhow::Result<String> {
    use anyhow::Context;
    let out = output(Command::new(program).current_dir(dir).args(args))
        .with_context(|| format!("running {program}"))?;
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    std::fs::write(dir.join(log), &text)?;
    if !out.status.success() {
        let tail: Vec<&str> = text.lines().rev().take(30).collect();
        anyhow::bail!(
            "{program} failed ({}); log in {}:\n{}",
            out.status,
            dir.join(log).display(),
            tail.into_iter().rev().collect::<Vec<_>>().join("\n")
        );
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run past its limit is stopped and reported, not waited for; one
    /// within it is the tool's own output.
    #[test]
    fn output_within_stops_a_run_past_its_limit() {
        let started = std::time::Instant::now();
        let err = output_within(Command::new("sleep").arg("30"), Duration::from_millis(300))
            .expect_err("sleep 30 ran past 300 ms");
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
        assert!(started.elapsed() < Duration::from_secs(10));
        let out = output_within(Command::new("echo").arg("on time"), Duration::from_secs(30))
            .expect("echo");
        assert_eq!(String::from_utf8_lossy(&out.stdout), "on time\n");
    }
}
