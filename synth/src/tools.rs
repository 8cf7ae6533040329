//! The external tools (yosys, nextpnr, iverilog, verilator, ...): running
//! them so that a signal stops them too, and the one policy for tests that
//! need them.

use std::io;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{mpsc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use utf8hdl_sim::output::ScratchDir;

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

/// What CPython says, for the checks that hold a core to it: `script` run
/// by python3 with `input` on its standard input, and its standard output;
/// `None` when python3 is missing and not required ([`require`]). Fails
/// with python3's standard error when the script does.
pub fn python3(script: &str, input: &[u8]) -> anyhow::Result<Option<Vec<u8>>> {
    use std::io::Write;
    if !require("python3") {
        return Ok(None);
    }
    let mut child = Command::new("python3")
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let input = input.to_vec();
    // Written from a thread of its own, so that a large answer cannot fill
    // the stdout pipe while the input is still being written.
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let output = child.wait_with_output()?;
    let written = writer.join().expect("the writer does not panic");
    anyhow::ensure!(
        output.status.success(),
        "python3 failed ({}): {}",
        output.status,
        String::from_utf8_lossy(&output.stderr).trim_end()
    );
    written?;
    Ok(Some(output.stdout))
}

/// A tool running now.
struct Running {
    /// Its process group: each tool is started as the leader of a group of
    /// its own, so that whatever it starts in turn (sby's yosys, smtbmc and
    /// abc; make's compilers) is in it too, unless it moves them out.
    group: u32,
    /// Its private `TMPDIR`, which every process it starts inherits: it
    /// finds the processes that left the group (sby starts each of its
    /// tools in a group of its own).
    tmpdir: Option<PathBuf>,
}

/// The tools running now.
static RUNNING: Mutex<Vec<Running>> = Mutex::new(Vec::new());

fn running() -> MutexGuard<'static, Vec<Running>> {
    // A panic elsewhere leaves the list as valid as it was.
    RUNNING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `command` to its end, as [`Command::output`] does (stdin empty,
/// stdout and stderr captured), in a process group of its own that
/// [`stop_running`] can stop, and with a private `TMPDIR` (see
/// [`private_tmpdir`]). Every tool utf8hdl runs is run through here or
/// [`output_within`].
pub fn output(command: &mut Command) -> io::Result<Output> {
    captured(command, None)
}

/// What `program` says of its version when asked with `flag`: the first
/// line of its answer (standard output, then standard error) with a digit
/// in it, as `yosys -V`, `nextpnr-ice40 --version`, `verilator --version`
/// and `iverilog -V` each say it; `unknown version` when it says none or
/// does not run.
pub fn version(program: &str, flag: &str) -> String {
    let Ok(out) = output(Command::new(program).arg(flag)) else {
        return "unknown version".into();
    };
    let answer = [out.stdout, out.stderr].concat();
    String::from_utf8_lossy(&answer)
        .lines()
        .map(str::trim)
        .find(|line| line.chars().any(|c| c.is_ascii_digit()))
        .unwrap_or("unknown version")
        .to_string()
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

/// A scratch directory for the temporary files of one run of `command`,
/// unless the caller set `TMPDIR` (or removed it) itself. A tool killed
/// before it cleans up leaves its temporary files there (a YoWASP tool
/// that sby stops with SIGTERM leaves its `yowasp_*` directory), and
/// utf8hdl removes the directory after the run, at exit and on a signal.
/// It is made in the run's working directory, beside the work files it
/// belongs with, or else in the system's temporary directory.
fn private_tmpdir(command: &Command) -> io::Result<Option<ScratchDir>> {
    if command.get_envs().any(|(name, _)| name == "TMPDIR") {
        return Ok(None);
    }
    // Absolute: the tool resolves it from its own working directory.
    let parent = std::path::absolute(match command.get_current_dir() {
        Some(dir) => dir.to_path_buf(),
        None => std::env::temp_dir(),
    })?;
    ScratchDir::new_in(&parent, ".tmp-").map(Some)
}

fn captured(command: &mut Command, limit: Option<Duration>) -> io::Result<Output> {
    // Made before the lock is taken: it takes the scratch registry's.
    let tmpdir = private_tmpdir(command)?;
    if let Some(dir) = &tmpdir {
        command.env("TMPDIR", dir.path());
    }
    let child = {
        // Spawned under the lock: once `stop_running` holds it, nothing new
        // starts.
        let mut list = running();
        let parent = std::process::id() as libc::pid_t;
        // SAFETY: `supervise` makes only async-signal-safe calls.
        unsafe { command.pre_exec(move || supervise(parent)) };
        let child = command
            .process_group(0)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        list.push(Running {
            group: child.id(),
            tmpdir: tmpdir.as_ref().map(|dir| dir.path().to_path_buf()),
        });
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
    running().retain(|run| run.group != id);
    drop(tmpdir);
    if let Some(limit) = stopped_at {
        return Err(io::Error::new(
            io::ErrorKind::TimedOut,
            format!("stopped after {} s", limit.as_secs()),
        ));
    }
    out
}

/// The signal the kernel sends a tool's supervisor when utf8hdl ends.
const PARENT_GONE: libc::c_int = libc::SIGUSR1;

/// Runs in the child between `fork` and `exec` (so only async-signal-safe
/// calls), once it leads the tool's new process group: forks the tool,
/// which returns from here to be executed, and stays as its supervisor, so
/// that a utf8hdl that ends in any way, SIGKILL included, leaves no tool
/// running. The group's leader, whose id [`stop_running`] signals, is this
/// supervisor.
///
/// `PR_SET_PDEATHSIG` alone would not do: it reaches only the process that
/// set it and is not inherited, so a SIGKILLed utf8hdl would take `make`
/// with it but leave `make`'s `g++` and `cc1plus` compiling on, into the
/// build directory. The supervisor gets the parent-death signal when
/// `parent` (utf8hdl) dies, and then kills the whole group. Otherwise it
/// waits for the tool and ends as it did (its exit status, or its signal),
/// which is what utf8hdl sees. The tool itself dies with the supervisor.
fn supervise(parent: libc::pid_t) -> io::Result<()> {
    // SAFETY: every call here is async-signal-safe, takes pointers only to
    // locals, and allocates nothing.
    unsafe {
        // A command run a second time carries this twice; the second runs
        // in the tool that the first forked, which has its supervisor (and
        // the parent-death signal that a fork clears).
        let mut inherited: libc::c_int = 0;
        libc::prctl(libc::PR_GET_PDEATHSIG, &mut inherited);
        if inherited != 0 {
            return Ok(());
        }
        let mut waited: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut waited);
        libc::sigaddset(&mut waited, libc::SIGCHLD);
        libc::sigaddset(&mut waited, PARENT_GONE);
        // Blocked before the fork, so that neither is missed: a SIGCHLD
        // neither blocked nor handled is discarded.
        let mut before: libc::sigset_t = std::mem::zeroed();
        libc::sigprocmask(libc::SIG_BLOCK, &waited, &mut before);
        let supervisor = libc::getpid();
        let tool = libc::fork();
        if tool == -1 {
            return Err(io::Error::last_os_error());
        }
        if tool == 0 {
            libc::sigprocmask(libc::SIG_SETMASK, &before, std::ptr::null_mut());
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            // The supervisor may have died before the line above.
            if libc::getppid() != supervisor {
                libc::kill(libc::getpid(), libc::SIGKILL);
            }
            return Ok(());
        }
        libc::prctl(libc::PR_SET_PDEATHSIG, PARENT_GONE);
        // utf8hdl may have died before the line above.
        if libc::getppid() != parent {
            libc::kill(0, libc::SIGKILL);
        }
        // The tool has every descriptor it needs. Held here too, its
        // standard output and error would end only with the supervisor,
        // and the pipe through which `Command::spawn` learns that `exec`
        // succeeded would keep `spawn` waiting for the tool's end.
        if libc::syscall(libc::SYS_close_range, 0u32, u32::MAX, 0u32) != 0 {
            for fd in 0..65536 {
                libc::close(fd);
            }
        }
        // The tool gets the group's signals as well; the supervisor stays
        // to report how it ended.
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT] {
            libc::signal(signal, libc::SIG_IGN);
        }
        loop {
            if libc::sigwaitinfo(&waited, std::ptr::null_mut()) == PARENT_GONE {
                libc::kill(0, libc::SIGKILL);
            }
            let mut status = 0;
            if libc::waitpid(tool, &mut status, libc::WNOHANG) != tool {
                continue;
            }
            if libc::WIFEXITED(status) {
                libc::_exit(libc::WEXITSTATUS(status));
            }
            // Killed by a signal: the same signal ends the supervisor,
            // without a core dump of its own.
            let signal = libc::WTERMSIG(status);
            let no_core = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            libc::setrlimit(libc::RLIMIT_CORE, &no_core);
            libc::signal(signal, libc::SIG_DFL);
            let mut only: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut only);
            libc::sigaddset(&mut only, signal);
            libc::sigprocmask(libc::SIG_UNBLOCK, &only, std::ptr::null_mut());
            libc::kill(libc::getpid(), signal);
            libc::_exit(128 + signal);
        }
    }
}

/// How long [`stop_running`] gives the tools after SIGINT, then after
/// SIGTERM, then after SIGKILL, to be gone.
const STOP_GRACE: [Duration; 3] = [
    Duration::from_millis(1500),
    Duration::from_millis(1000),
    Duration::from_millis(1000),
];

/// Stops every running tool and waits until it is gone, so that none goes
/// on writing into a scratch directory about to be removed, or on using
/// the machine after utf8hdl has stopped. Keeps the list locked, so that
/// no tool starts afterwards: for a signal handler, on the way out of the
/// program.
///
/// SIGINT first, to each tool's process group: the signal tools take as
/// "stop and clean up" (a YoWASP tool removes its temporary directory on
/// SIGINT but dies at once on SIGTERM; sby stops the tools it started;
/// make removes a half-made target). What is left after
/// [`STOP_GRACE`]`[0]` gets SIGTERM, then SIGKILL: the groups, and the
/// processes that left them but carry a tool's private `TMPDIR`.
pub fn stop_running() {
    let list = running();
    let groups: Vec<libc::pid_t> = list
        .iter()
        .filter_map(|run| run.group.try_into().ok())
        .collect();
    let tmpdirs: Vec<&Path> = list
        .iter()
        .filter_map(|run| run.tmpdir.as_deref())
        .collect();
    // SAFETY (every kill here): kill(2) takes no pointer; a process or a
    // group already gone is ESRCH.
    for &group in &groups {
        unsafe { libc::kill(-group, libc::SIGINT) };
    }
    let next = [Some(libc::SIGTERM), Some(libc::SIGKILL), None];
    for (grace, signal) in STOP_GRACE.into_iter().zip(next) {
        let deadline = Instant::now() + grace;
        let mut left = survivors(&groups, &tmpdirs);
        while !left.is_empty() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
            left = survivors(&groups, &tmpdirs);
        }
        let Some(signal) = signal.filter(|_| !left.is_empty()) else {
            break;
        };
        for &group in &groups {
            unsafe { libc::kill(-group, signal) };
        }
        for pid in left {
            unsafe { libc::kill(pid, signal) };
        }
    }
    std::mem::forget(list);
}

/// The live processes of the running tools: those in `groups`, and those
/// with one of `tmpdirs` as their `TMPDIR`. A zombie is dead: it only
/// waits for its parent to collect its status. Without `/proc`, the
/// groups that have a process left, as `-group`, which [`libc::kill`]
/// takes too.
fn survivors(groups: &[libc::pid_t], tmpdirs: &[&Path]) -> Vec<libc::pid_t> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        // SAFETY: signal 0 only tests whether the group has a process.
        let alive = |group: &&libc::pid_t| unsafe { libc::kill(-**group, 0) } == 0;
        return groups.iter().filter(alive).map(|group| -group).collect();
    };
    let marks: Vec<Vec<u8>> = tmpdirs
        .iter()
        .map(|dir| [b"TMPDIR=", dir.as_os_str().as_bytes()].concat())
        .collect();
    let marked = |pid: libc::pid_t| {
        std::fs::read(format!("/proc/{pid}/environ")).is_ok_and(|environ| {
            environ
                .split(|&byte| byte == 0)
                .any(|variable| marks.iter().any(|mark| variable == mark.as_slice()))
        })
    };
    entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse().ok())
        .filter(|&pid: &libc::pid_t| {
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
                return false;
            };
            // `pid (command) state ppid pgrp ...`; the command may hold
            // spaces and parentheses, so the fields start after the last `)`.
            let mut fields = stat
                .rsplit_once(')')
                .map_or("", |(_, rest)| rest)
                .split_whitespace();
            let live = fields
                .next()
                .is_some_and(|state| !matches!(state, "Z" | "X"));
            let group = fields.nth(1).and_then(|group| group.parse().ok());
            live && (group.is_some_and(|group| groups.contains(&group)) || marked(pid))
        })
        .collect()
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

    /// A tool's TMPDIR is a directory of its own in its working directory,
    /// gone after the run with whatever the tool left in it; a TMPDIR the
    /// caller chose is kept.
    #[test]
    fn each_run_has_a_private_tmpdir_removed_after_it() {
        let work = tempfile::tempdir().unwrap();
        let script = "mkdir \"$TMPDIR/left-behind\" && printf %s \"$TMPDIR\"";
        let out = output(
            Command::new("sh")
                .args(["-c", script])
                .current_dir(work.path()),
        )
        .expect("sh");
        assert!(out.status.success(), "{out:?}");
        let tmpdir = PathBuf::from(String::from_utf8(out.stdout).unwrap());
        let work_dir = std::fs::canonicalize(work.path()).unwrap();
        assert_eq!(
            std::fs::canonicalize(tmpdir.parent().unwrap()).unwrap(),
            work_dir
        );
        assert!(!tmpdir.exists(), "{} is left", tmpdir.display());
        assert_eq!(std::fs::read_dir(work.path()).unwrap().count(), 0);
        let chosen = output(
            Command::new("sh")
                .args(["-c", "printf %s \"$TMPDIR\""])
                .env("TMPDIR", "/chosen"),
        )
        .expect("sh");
        assert_eq!(chosen.stdout, b"/chosen");
    }
}
