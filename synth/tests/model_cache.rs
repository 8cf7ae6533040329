//! The Verilator engine's model cache: a damaged model is rebuilt rather
//! than loaded, a killed build leaves no process and, in time, no
//! directory behind, and a cache that cannot be written does not stop a
//! run. Every run here has `UTF8HDL_CACHE` set to a private temporary
//! directory: none touches the user's cache.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant, SystemTime};

use crate::common::*;
use utf8hdl_synth::{tools, verilator};

/// The input of every run, and the units the decoder makes of it.
const INPUT: &[u8] = "h\u{e9}llo \u{20ac}\n".as_bytes();
const UNITS: &str = "0..1 U+0068\n1..3 U+00E9\n3..4 U+006C\n4..5 U+006C\n\
                     5..6 U+006F\n6..7 U+0020\n7..10 U+20AC\n10..11 U+000A\n";

fn have_tools() -> bool {
    tools::require_all(&verilator::TOOLS)
}

/// A directory every user can enter, as the runs under another user need.
fn open_temp_dir() -> tempfile::TempDir {
    let dir = temp_dir();
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

/// The input file, in a directory of its own.
fn input() -> &'static Path {
    static INPUT_FILE: OnceLock<PathBuf> = OnceLock::new();
    INPUT_FILE.get_or_init(|| {
        let path = temp_dir_until_exit().join("input");
        fs::write(&path, INPUT).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
        path
    })
}

/// `utf8hdl sim INPUT --engine verilator` with `cache` as UTF8HDL_CACHE.
fn sim_command(cache: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_utf8hdl"));
    command
        .args(["sim", path_str(input()), "--engine", "verilator"])
        .args(["--format", "lines"])
        .env("UTF8HDL_CACHE", cache);
    command
}

/// Runs `command` with no input and checks that it decoded INPUT; returns
/// its stderr.
#[track_caller]
fn decodes(command: &mut Command) -> String {
    let out = run(command, &[]).expect("cannot run utf8hdl");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{}: {stderr}", out.status);
    assert_eq!(String::from_utf8_lossy(&out.stdout), UNITS, "{stderr}");
    assert!(stderr.contains("RTL and reference agree"), "{stderr}");
    stderr
}

/// The lines of `stderr` that say a model is being built.
fn build_lines(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.contains("building the Verilator model"))
        .collect()
}

/// The models folder of the cache root `cache`.
fn models(cache: &Path) -> PathBuf {
    cache.join("verilator")
}

/// The one model directory in the cache root `cache`.
fn model_dir(cache: &Path) -> PathBuf {
    let names: Vec<String> = entries(&models(cache))
        .into_iter()
        .filter(|name| name.starts_with("utf8_decoder-"))
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
    models(cache).join(&names[0])
}

/// A cache root holding the decoder's complete model, built once for all
/// the tests of this file and copied for each.
fn cache_with_model() -> tempfile::TempDir {
    static PRISTINE: OnceLock<PathBuf> = OnceLock::new();
    let pristine = PRISTINE.get_or_init(|| {
        let cache = temp_dir_until_exit();
        let stderr = decodes(&mut sim_command(&cache));
        assert_eq!(build_lines(&stderr).len(), 1, "{stderr}");
        cache
    });
    let copy = open_temp_dir();
    let status = Command::new("cp")
        .arg("-a")
        .arg(models(pristine))
        .arg(copy.path())
        .status()
        .expect("cannot run cp");
    assert!(status.success());
    copy
}

/// Damages the copy of a complete model with `damage` (given the model
/// directory), then checks that a run rebuilds it, saying why (`reason`),
/// and decodes; and that the next run uses the rebuilt model as it is.
fn rebuilt_after(damage: impl FnOnce(&Path), reason: &str) {
    let cache = cache_with_model();
    let dir = model_dir(cache.path());
    damage(&dir);
    let stderr = decodes(&mut sim_command(cache.path()));
    let lines = build_lines(&stderr);
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(lines[0].contains("rebuilding"), "{stderr}");
    assert!(lines[0].contains(path_str(&dir)), "{stderr}");
    assert!(lines[0].contains(reason), "{stderr}");
    // The damaged directory was swapped out, and nothing is left aside.
    assert_eq!(
        entries(&models(cache.path())),
        [dir.file_name().unwrap().to_str().unwrap()]
    );
    let stderr = decodes(&mut sim_command(cache.path()));
    assert_eq!(build_lines(&stderr), Vec::<&str>::new(), "{stderr}");
}

fn library(dir: &Path) -> PathBuf {
    dir.join("libmodel.so")
}

/// A truncated library (which the loader met with SIGBUS) is rebuilt.
#[test]
#[ignore = "slow: builds the decoder's Verilator model, damages it and rebuilds it"]
fn truncated_model_is_rebuilt() {
    if !have_tools() {
        return;
    }
    rebuilt_after(
        |dir| {
            let file = fs::OpenOptions::new()
                .write(true)
                .open(library(dir))
                .unwrap();
            let size = file.metadata().unwrap().len();
            file.set_len(size / 2).unwrap();
        },
        "bytes where its stamp says",
    );
}

/// An empty library (which failed every later run with "file too short")
/// is rebuilt.
#[test]
#[ignore = "slow: builds the decoder's Verilator model, damages it and rebuilds it"]
fn empty_model_is_rebuilt() {
    if !have_tools() {
        return;
    }
    rebuilt_after(|dir| fs::write(library(dir), b"").unwrap(), "of 0 bytes");
}

/// A library garbled in place, its size unchanged, is rebuilt: the stamp's
/// hash tells.
#[test]
#[ignore = "slow: builds the decoder's Verilator model, damages it and rebuilds it"]
fn garbled_model_is_rebuilt() {
    if !have_tools() {
        return;
    }
    rebuilt_after(
        |dir| {
            let mut bytes = fs::read(library(dir)).unwrap();
            let middle = bytes.len() / 2;
            for byte in &mut bytes[middle..middle + 64] {
                *byte = !*byte;
            }
            fs::write(library(dir), bytes).unwrap();
        },
        "bytes differ from its stamp",
    );
}

/// A model directory without its library (which made every run rebuild
/// and then fail with "Directory not empty") is rebuilt and swapped in.
#[test]
#[ignore = "slow: builds the decoder's Verilator model, damages it and rebuilds it"]
fn model_without_library_is_rebuilt() {
    if !have_tools() {
        return;
    }
    rebuilt_after(
        |dir| fs::remove_file(library(dir)).unwrap(),
        "has no libmodel.so",
    );
}

/// A model whose build never wrote its stamp is not trusted.
#[test]
#[ignore = "slow: builds the decoder's Verilator model, damages it and rebuilds it"]
fn unstamped_model_is_rebuilt() {
    if !have_tools() {
        return;
    }
    rebuilt_after(
        |dir| fs::remove_file(dir.join("stamp")).unwrap(),
        "has no stamp",
    );
}

/// The processes whose working directory is in `dir`: `pid command`, and
/// their command lines.
fn processes_in(dir: &Path) -> Vec<(String, String)> {
    let Ok(entries) = fs::read_dir("/proc") else {
        return vec![];
    };
    entries
        .filter_map(|entry| {
            let entry = entry.ok()?;
            let pid: u32 = entry.file_name().to_str()?.parse().ok()?;
            let cwd = fs::read_link(entry.path().join("cwd")).ok()?;
            let command = fs::read_to_string(entry.path().join("comm")).ok()?;
            let line = fs::read(entry.path().join("cmdline")).ok()?;
            let line = String::from_utf8_lossy(&line).replace('\0', " ");
            cwd.starts_with(dir)
                .then(|| (format!("{pid} {}", command.trim()), line))
        })
        .collect()
}

/// The `pid command` of the processes in `dir`.
fn names_in(dir: &Path) -> Vec<String> {
    processes_in(dir)
        .into_iter()
        .map(|(name, _)| name)
        .collect()
}

/// Waits at most `limit` for `done`; whether it came.
fn wait_for(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    done()
}

/// A run SIGKILLed while the compilers run leaves none of them running;
/// the next run builds the model, and removes the killed run's build
/// directory once it is old enough to be abandoned (not a recent one,
/// which may be another run's).
#[test]
#[ignore = "slow: kills a Verilator model build, then builds the model"]
fn killed_build_leaves_no_process_and_is_cleared() {
    if !have_tools() || !Path::new("/proc/self/cwd").exists() {
        return;
    }
    let cache = open_temp_dir();
    let mut child = sim_command(cache.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("cannot run utf8hdl");
    // make's compilers, the grandchildren that a parent-death signal on
    // make alone would leave running; killed as the longest compilation
    // (Verilator's runtime, seconds) begins, so that such a compiler would
    // still be running when the check below ends.
    let compiling = wait_for(Duration::from_secs(120), || {
        processes_in(cache.path())
            .iter()
            .any(|(name, line)| name.ends_with(" cc1plus") && line.contains("verilated.cpp"))
    });
    let seen = names_in(cache.path());
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        compiling,
        "Verilator's runtime was not compiled in the cache: {seen:?}"
    );
    let gone = wait_for(Duration::from_millis(1500), || {
        names_in(cache.path()).is_empty()
    });
    assert!(
        gone,
        "left running after utf8hdl was killed: {:?} (running before: {seen:?})",
        names_in(cache.path())
    );

    let names = entries(&models(cache.path()));
    assert!(
        names.len() == 1 && names[0].starts_with(".build-"),
        "{names:?}"
    );
    let killed = models(cache.path()).join(&names[0]);
    assert!(!killed.join("stamp").exists());
    let two_hours_ago = SystemTime::now() - Duration::from_secs(7200);
    fs::File::open(&killed)
        .unwrap()
        .set_modified(two_hours_ago)
        .unwrap();
    let recent = models(cache.path()).join(".build-recent");
    fs::create_dir(&recent).unwrap();

    let stderr = decodes(&mut sim_command(cache.path()));
    assert_eq!(build_lines(&stderr).len(), 1, "{stderr}");
    assert!(!killed.exists(), "the abandoned build is still there");
    assert!(recent.exists(), "a recent build directory was removed");
    model_dir(cache.path());
}

/// `command` (a run of utf8hdl) under another user (nobody) when the
/// tests run as root, whom no permission bit stops, from the copy of the
/// binary that user can reach (`copy`); `None` (after saying so) when that
/// is not possible here.
fn as_unprivileged(command: Command, copy: &BinaryCopy) -> Option<Command> {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return Some(command);
    }
    let probe = Command::new("setpriv")
        .args([
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            "test",
            "-x",
        ])
        .arg(copy.path())
        .status();
    if !probe.is_ok_and(|s| s.success()) {
        skip_without(
            "setpriv, or a utf8hdl binary that the user nobody can run,",
            "the read-only cache check as root",
        );
        return None;
    }
    let mut wrapped = Command::new("setpriv");
    wrapped
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(copy.path())
        .args(command.get_args());
    for (name, value) in command.get_envs() {
        match value {
            Some(value) => wrapped.env(name, value),
            None => wrapped.env_remove(name),
        };
    }
    Some(wrapped)
}

/// Runs `command` with a private TMPDIR, and checks that it decoded with
/// a one-line notice that it built in a private temporary directory
/// because `cache` cannot be written, and that it left nothing there.
fn falls_back(command: &mut Command, cache: &Path) {
    let tmp = open_temp_dir();
    fs::set_permissions(tmp.path(), fs::Permissions::from_mode(0o777)).unwrap();
    let stderr = decodes(command.env("TMPDIR", tmp.path()));
    let lines = build_lines(&stderr);
    assert_eq!(lines.len(), 1, "{stderr}");
    let notice = lines[0];
    for part in [
        "private temporary directory",
        path_str(&models(cache)),
        "cannot be written",
        "set UTF8HDL_CACHE to a writable directory",
    ] {
        assert!(notice.contains(part), "{part:?} not in {notice:?}");
    }
    assert_eq!(entries(tmp.path()), Vec::<String>::new(), "left in TMPDIR");
}

/// Two runs that need the same model at once, in an empty cache, build it
/// once: the other waits for the build and loads it.
#[test]
#[ignore = "slow: builds the decoder's Verilator model for two runs at once"]
fn two_runs_at_once_build_the_model_once() {
    if !have_tools() {
        return;
    }
    let cache = open_temp_dir();
    let runs: Vec<_> = (0..2)
        .map(|_| {
            sim_command(cache.path())
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("cannot run utf8hdl")
        })
        .collect();
    let mut stderr = String::new();
    for run in runs {
        let out = run.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{}: {text}", out.status);
        assert_eq!(String::from_utf8_lossy(&out.stdout), UNITS, "{text}");
        stderr.push_str(&text);
    }
    assert_eq!(build_lines(&stderr).len(), 1, "{stderr}");
    assert_eq!(entries(&models(cache.path())).len(), 1);
}

/// A cache that cannot be written falls back to a private temporary
/// directory: a file where the cache directory should be, a path below
/// /dev/null, and a read-only directory (which root can write, so that
/// case runs as nobody under root). A complete model in a read-only cache
/// is used as it is.
#[test]
#[ignore = "slow: Verilator models built in a private directory"]
fn unwritable_cache_falls_back_to_a_private_directory() {
    if !have_tools() {
        return;
    }
    let dir = open_temp_dir();
    let file = dir.path().join("file");
    fs::write(&file, b"in the way").unwrap();
    falls_back(&mut sim_command(&file), &file);
    assert_eq!(fs::read(&file).unwrap(), b"in the way");

    let below_null = Path::new("/dev/null/cache");
    falls_back(&mut sim_command(below_null), below_null);

    let copy = BinaryCopy::new();
    let read_only = dir.path().join("read-only");
    fs::create_dir(&read_only).unwrap();
    fs::set_permissions(&read_only, fs::Permissions::from_mode(0o555)).unwrap();
    if let Some(mut command) = as_unprivileged(sim_command(&read_only), &copy) {
        falls_back(&mut command, &read_only);
        assert_eq!(entries(&read_only), Vec::<String>::new());
    }

    let cache = cache_with_model();
    let chmod = Command::new("chmod")
        .args(["-R", "a+rX,a-w"])
        .arg(cache.path())
        .status()
        .unwrap();
    assert!(chmod.success());
    if let Some(mut command) = as_unprivileged(sim_command(cache.path()), &copy) {
        let stderr = decodes(&mut command);
        assert_eq!(build_lines(&stderr), Vec::<&str>::new(), "{stderr}");
    }
    // So that the temporary directory can be removed by a user who is not
    // root.
    let _ = Command::new("chmod")
        .args(["-R", "u+w"])
        .arg(cache.path())
        .status();
}

/// Each tool runs under a supervisor that reports how the tool ended, as
/// the tool itself would: its output, its exit status, its signal, and a
/// program that cannot be run.
#[test]
fn a_supervised_tool_ends_as_it_would_alone() {
    use std::os::unix::process::ExitStatusExt;
    let out: Output =
        tools::output(Command::new("sh").args(["-c", "echo out; echo err >&2; exit 3"])).unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(out.stdout, b"out\n");
    assert_eq!(out.stderr, b"err\n");
    let out = tools::output(Command::new("sh").args(["-c", "kill -TERM $$"])).unwrap();
    assert_eq!(out.status.signal(), Some(libc::SIGTERM));
    let err = tools::output(&mut Command::new("/nonexistent/tool")).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::NotFound);
    // A command run twice is supervised once each time.
    let mut twice = Command::new("sh");
    twice.args(["-c", "echo again"]);
    for _ in 0..2 {
        assert_eq!(tools::output(&mut twice).unwrap().stdout, b"again\n");
    }
    // A long output does not wait on the supervisor.
    let out = tools::output(Command::new("sh").args(["-c", "seq 1 200000"])).unwrap();
    assert!(out.status.success());
    assert_eq!(out.stdout.iter().filter(|&&b| b == b'\n').count(), 200_000);
}
