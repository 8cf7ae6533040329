//! Helpers shared by the CLI tests: the test data, running the binary, the
//! CPython oracle, random inputs, and the exit-status contract.

#[path = "../../../testbench/data/paths.rs"]
mod paths;
pub use paths::{data, data_path};

use std::io::{BufReader, ErrorKind as IoErrorKind, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::thread;

/// Runs `utf8hdl` with `args`, feeding `stdin` (or nothing) to it.
pub fn utf8hdl(args: &[&str], stdin: &[u8]) -> Output {
    run(
        Command::new(env!("CARGO_BIN_EXE_utf8hdl")).args(args),
        stdin,
    )
    .expect("cannot run the utf8hdl binary")
}

/// Runs a command with `stdin` written from another thread, so that large
/// inputs and outputs cannot deadlock on full pipes.
pub fn run(command: &mut Command, stdin: &[u8]) -> std::io::Result<Output> {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let mut pipe = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let writer = thread::spawn(move || {
        // A child that exits early closes the pipe; that is not our error.
        let _ = pipe.write_all(&data);
    });
    let output = child.wait_with_output()?;
    writer.join().unwrap();
    Ok(output)
}

/// `data.decode('utf-8', 'replace').encode(codec)` in python3, or `None`
/// (after saying so on stderr) when python3 is missing and not required.
pub fn python_decode(data: &[u8], codec: &str) -> Option<Vec<u8>> {
    let script = format!(
        "import sys; data = sys.stdin.buffer.read(); \
         sys.stdout.buffer.write(data.decode('utf-8', 'replace').encode('{codec}'))"
    );
    utf8hdl_synth::tools::python3(&script, data).unwrap()
}

/// A deterministic pseudo-random generator (xorshift64*), so that failures
/// reproduce.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// `len` uniformly random bytes.
    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next() as u8).collect()
    }

    /// `len` bytes, mostly lead and continuation bytes.
    pub fn biased_bytes(&mut self, len: usize) -> Vec<u8> {
        const POOLS: [(u8, u8); 6] = [
            (0x00, 0x7F),
            (0x80, 0xBF),
            (0x80, 0xBF),
            (0xC0, 0xDF),
            (0xE0, 0xEF),
            (0xF0, 0xFF),
        ];
        (0..len)
            .map(|_| {
                let r = self.next();
                let (low, high) = POOLS[(r % 6) as usize];
                low + ((r >> 8) % (u64::from(high - low) + 1)) as u8
            })
            .collect()
    }
}

/// Messages of many shapes: empty, single bytes, random and biased.
pub fn random_messages() -> Vec<Vec<u8>> {
    let mut rng = Rng(0x0123_4567_89AB_CDEF);
    let mut messages = vec![vec![], vec![0x41], vec![0xE2, 0x82]];
    for len in [1, 7, 64, 1000, 70_000] {
        messages.push(rng.bytes(len));
        messages.push(rng.biased_bytes(len));
    }
    messages
}

pub fn temp_dir() -> tempfile::TempDir {
    tempfile::tempdir().expect("cannot make a temporary directory")
}

/// A temporary directory, open to every user, that lasts until the test
/// process exits and is removed then: for what the tests of a file share
/// (an input, a built model). A static's destructor never runs, so the
/// removal is registered with `atexit`, which the test harness's exit runs.
pub fn temp_dir_until_exit() -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    use std::sync::{Mutex, Once};
    static DIRS: Mutex<Vec<std::path::PathBuf>> = Mutex::new(Vec::new());
    static REMOVE_AT_EXIT: Once = Once::new();
    extern "C" fn remove_all() {
        if let Ok(dirs) = DIRS.lock() {
            for dir in dirs.iter() {
                let _ = std::fs::remove_dir_all(dir);
            }
        }
    }
    // SAFETY: `remove_all` is a plain function that never unwinds.
    REMOVE_AT_EXIT.call_once(|| unsafe {
        libc::atexit(remove_all);
    });
    let dir = temp_dir().keep();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755))
        .expect("cannot open a temporary directory to other users");
    DIRS.lock()
        .expect("a test panicked while registering a directory")
        .push(dir.clone());
    dir
}

/// A copy of the `utf8hdl` binary in a folder every user may search: a
/// test that runs it as another user (`nobody`, when the tests run as
/// root) cannot reach the one under the checkout when a folder above it is
/// private (a home, or `mktemp -d`'s 0700 folder). The copy and its folder
/// are removed when it is dropped.
pub struct BinaryCopy {
    _dir: tempfile::TempDir,
    path: std::path::PathBuf,
}

impl BinaryCopy {
    pub fn new() -> Self {
        use std::os::unix::fs::PermissionsExt;
        let dir = temp_dir();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755))
            .expect("cannot open the binary's folder to other users");
        let path = dir.path().join("utf8hdl");
        std::fs::copy(env!("CARGO_BIN_EXE_utf8hdl"), &path)
            .expect("cannot copy the utf8hdl binary");
        BinaryCopy { _dir: dir, path }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

pub fn path_str(path: &Path) -> &str {
    path.to_str().expect("temporary paths are UTF-8")
}

/// Asserts a run that exited 0, whatever it said on stderr (shown if not).
#[track_caller]
pub fn exited_0(output: &Output) {
    assert!(
        output.status.success(),
        "exit {:?}: {}",
        output.status.code(),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Asserts a successful run with nothing on stderr, and returns stdout.
#[track_caller]
pub fn success(output: Output) -> Vec<u8> {
    exited_0(&output);
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

/// Asserts a usage or I/O failure: exit status 2, exactly one line on
/// stderr, nothing on stdout. Returns the line.
#[track_caller]
pub fn usage_failure(output: Output) -> String {
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(output.stdout.is_empty(), "stdout: {:?}", output.stdout);
    let stderr = String::from_utf8(output.stderr).expect("stderr is UTF-8");
    assert!(
        stderr.ends_with('\n') && stderr.matches('\n').count() == 1,
        "not exactly one line on stderr: {stderr:?}"
    );
    stderr
}

/// The names in `dir`, sorted.
pub fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Sends the signal `name` (TERM, INT, ...) to process `pid`, with the
/// shell's `kill`.
pub fn send_signal(pid: u32, name: &str) {
    let status = Command::new("sh")
        .arg("-c")
        .arg(format!("kill -{name} {pid}"))
        .status()
        .expect("cannot run sh");
    assert!(status.success(), "kill -{name} {pid} failed");
}

/// Says on stderr that a check did not run because `tool` is missing, or
/// fails when tools are required (`UTF8HDL_REQUIRE_TOOLS=1`).
pub fn skip_without(tool: &str, check: &str) {
    if std::env::var("UTF8HDL_REQUIRE_TOOLS").as_deref() == Ok("1") {
        panic!("{tool} is required (UTF8HDL_REQUIRE_TOOLS=1) but not found");
    }
    // Written to the stderr handle rather than with eprintln!, which the
    // test harness captures: the skip must be visible.
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED: {tool} not found; {check} did not run \
         (set UTF8HDL_REQUIRE_TOOLS=1 to make this fail)"
    );
}

/// Runs `utf8hdl` with `args` on a terminal (a pseudo-terminal from
/// util-linux `script`) until the terminal shows `wanted`, the program
/// exits, or `limit` passes, then ends it. Returns what the terminal
/// showed, or `None` when `script` is missing (see [`skip_without`]).
pub fn on_terminal_until(
    args: &[&str],
    wanted: &str,
    limit: std::time::Duration,
) -> Option<String> {
    let quoted: Vec<String> = std::iter::once(env!("CARGO_BIN_EXE_utf8hdl"))
        .chain(args.iter().copied())
        .map(|a| format!("'{}'", a.replace('\'', r"'\''")))
        .collect();
    let spawned = Command::new("script")
        .args(["-qec", &quoted.join(" "), "/dev/null"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let mut child = match spawned {
        Ok(child) => child,
        Err(e) if e.kind() == IoErrorKind::NotFound => {
            skip_without("script (util-linux)", "the check on a terminal");
            return None;
        }
        Err(e) => panic!("cannot run script: {e}"),
    };
    let mut stdout = child.stdout.take().unwrap();
    let (send, receive) = std::sync::mpsc::channel();
    let reader = thread::spawn(move || {
        let mut buffer = [0; 4096];
        while let Ok(n @ 1..) = std::io::Read::read(&mut stdout, &mut buffer) {
            if send.send(buffer[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let deadline = std::time::Instant::now() + limit;
    let mut shown = Vec::new();
    while !String::from_utf8_lossy(&shown).contains(wanted) {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match receive.recv_timeout(left) {
            Ok(chunk) => shown.extend(chunk),
            Err(_) => break,
        }
    }
    if child.try_wait().unwrap().is_none() {
        // script ends the program it runs when it is terminated.
        send_signal(child.id(), "TERM");
    }
    child.wait().unwrap();
    drop(receive);
    reader.join().unwrap();
    Some(String::from_utf8_lossy(&shown).into_owned())
}

/// The characters of `text` that CPython's `unicodedata` puts in general
/// category Cc, Cf, Zl or Zp (controls, format characters, line and
/// paragraph separators), other than newline, as `U+XXXX`; `None` when
/// python3 is missing and not required.
pub fn python_controls(text: &str) -> Option<Vec<String>> {
    let script = "import sys, unicodedata; \
         text = sys.stdin.buffer.read().decode('utf-8'); \
         print(' '.join('U+%04X' % ord(c) for c in sorted(set(text)) \
             if c != '\\n' and unicodedata.category(c) in ('Cc', 'Cf', 'Zl', 'Zp')))";
    let out = utf8hdl_synth::tools::python3(script, text.as_bytes()).unwrap()?;
    Some(
        String::from_utf8(out)
            .unwrap()
            .split_whitespace()
            .map(String::from)
            .collect(),
    )
}

/// Reads a VCD of the core whose scope is `scope` the way a waveform
/// viewer would: the value of each signal just before each rising clock
/// edge. Returns each unit handed over on m_axis (m_axis_tvalid and
/// m_axis_tready both high at an edge): its tdata, tuser and tlast.
pub fn handshakes(vcd_path: &Path, scope: &str) -> Vec<(u32, u8, bool)> {
    let mut parser = vcd::Parser::new(BufReader::new(std::fs::File::open(vcd_path).unwrap()));
    let header = parser.parse_header().unwrap();
    let names = [
        "clk",
        "m_axis_tdata",
        "m_axis_tuser",
        "m_axis_tvalid",
        "m_axis_tready",
        "m_axis_tlast",
    ];
    let codes: std::collections::HashMap<vcd::IdCode, &str> = names
        .iter()
        .map(|n| {
            (
                header
                    .find_var(&[scope, n])
                    .unwrap_or_else(|| panic!("no {n}"))
                    .code,
                *n,
            )
        })
        .collect();
    let mut now = std::collections::HashMap::<&str, u64>::new();
    let mut words = Vec::new();
    for command in parser {
        let (code, value) = match command.unwrap() {
            vcd::Command::ChangeScalar(c, v) => (c, (v == vcd::Value::V1) as u64),
            vcd::Command::ChangeVector(c, bits) => (
                c,
                bits.into_iter()
                    .fold(0, |a, b| a << 1 | (b == vcd::Value::V1) as u64),
            ),
            _ => continue,
        };
        let Some(&name) = codes.get(&code) else {
            continue;
        };
        if name == "clk"
            && value == 1
            && now.get("clk") == Some(&0)
            && now["m_axis_tvalid"] == 1
            && now["m_axis_tready"] == 1
        {
            words.push((
                now["m_axis_tdata"] as u32,
                now["m_axis_tuser"] as u8,
                now["m_axis_tlast"] == 1,
            ));
        }
        now.insert(name, value);
    }
    words
}
