//! `utf8hdl validate`: the verdict and every error's offset, kind and
//! length, with the exit statuses of `iconv` and `grep` (0 valid, 1 not, 2
//! a usage or I/O error). The offsets' oracle is CPython's UTF-8 decoder:
//! an error handler records where each U+FFFD of `errors='replace'` starts
//! and how many bytes it stands for.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::process::Command;

use crate::common::*;

/// The validator through the rust-hdl engine: no Verilator model to build,
/// and the inputs here are small.
fn validate(args: &[&OsStr], stdin: &[u8]) -> std::process::Output {
    run(
        Command::new(env!("CARGO_BIN_EXE_utf8hdl"))
            .arg("validate")
            .args(["--engine", "rust-hdl"])
            .args(args),
        stdin,
    )
    .expect("cannot run the utf8hdl binary")
}

/// CPython's replacements of `data` as (start, length), or `None` when
/// python3 is missing and not required.
fn python_errors(data: &[u8]) -> Option<Vec<(usize, usize)>> {
    let script = "import sys, codecs\n\
        found = []\n\
        def note(e):\n\
        \x20   found.append((e.start, e.end - e.start))\n\
        \x20   return ('\\ufffd', e.end)\n\
        codecs.register_error('note', note)\n\
        sys.stdin.buffer.read().decode('utf-8', 'note')\n\
        sys.stdout.write(''.join(f'{s} {n}\\n' for s, n in found))\n";
    let out = utf8hdl_synth::tools::python3(script, data).unwrap()?;
    let text = String::from_utf8(out).unwrap();
    Some(
        text.lines()
            .map(|line| {
                let (start, len) = line.split_once(' ').unwrap();
                (start.parse().unwrap(), len.parse().unwrap())
            })
            .collect(),
    )
}

/// The error lines of a run's output, as (offset, kind, length).
fn error_lines(stdout: &[u8]) -> Vec<(usize, String, usize)> {
    let text = String::from_utf8(stdout.to_vec()).unwrap();
    text.lines()
        .filter(|line| line.contains('\t'))
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 3, "{line:?}");
            (
                fields[0].parse().unwrap(),
                fields[1].to_string(),
                fields[2].parse().unwrap(),
            )
        })
        .collect()
}

/// On random bytes and a handful of chosen ones, at 1 and 8 lanes, each
/// error line is where CPython replaces, with its length; the exit status
/// is 0 exactly when there is none.
#[test]
fn the_errors_are_where_cpython_replaces() {
    let mut inputs = vec![
        b"".to_vec(),
        "plain \u{20AC} text".as_bytes().to_vec(),
        b"\xC0\x80\xED\xA0\x80abc\xF4\x90".to_vec(),
        b"\xE2\x82".to_vec(),
    ];
    let mut rng = Rng(0x5EED_0F7E_5700);
    inputs.push(rng.bytes(300));
    inputs.push(rng.biased_bytes(300));
    for input in &inputs {
        let Some(expected) = python_errors(input) else {
            return;
        };
        for lanes in ["1", "8"] {
            let out = validate(&["--lanes".as_ref(), lanes.as_ref()], input);
            let want_status = if expected.is_empty() { 0 } else { 1 };
            assert_eq!(out.status.code(), Some(want_status), "{out:?}");
            let got: Vec<(usize, usize)> = error_lines(&out.stdout)
                .into_iter()
                .map(|(offset, _, len)| (offset, len))
                .collect();
            assert_eq!(got, expected, "{lanes} lanes, input {input:02X?}");
        }
    }
}

/// The kinds are the reference's names, and the verdict line follows the
/// error lines.
#[test]
fn the_lines_name_each_kind_then_the_verdict() {
    let out = validate(&[], b"\xC0\x80\xED\xA0\x80abc\xF4\x90");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let kinds: Vec<String> = error_lines(&out.stdout).into_iter().map(|e| e.1).collect();
    assert_eq!(kinds[0], "overlong");
    assert_eq!(kinds[2], "surrogate");
    assert_eq!(kinds[5], "out_of_range");
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text.lines().last().unwrap(),
        "standard input: not valid rfc3629: 7 errors in 10 bytes"
    );
}

/// `--stats json`: the file's path as given (null for standard input),
/// and each error as the lines give it.
#[test]
fn json_names_the_path_as_given() {
    let dir = temp_dir();
    let path = dir.path().join("bad one.bin");
    std::fs::write(&path, b"a\xFFb").unwrap();
    let out = validate(
        &["--stats".as_ref(), "json".as_ref(), path.as_os_str()],
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["input"], path_str(&path));
    assert_eq!(json["valid"], false);
    assert_eq!(json["bytes"], 3);
    assert_eq!(json["errors"][0]["offset"], 1);
    assert_eq!(json["errors"][0]["length"], 1);
    assert_eq!(json["errors"][0]["kind"], "invalid_byte");
    let out = validate(&["--stats".as_ref(), "json".as_ref()], b"ok");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(json["input"].is_null(), "{json}");
    assert_eq!(json["valid"], true);
}

/// A file whose name is not UTF-8 is read like any other, and its name in
/// the verdict line, like one holding a control character, stays one line
/// of visible characters.
#[test]
fn any_file_name_is_an_input_and_the_verdict_stays_one_line() {
    let dir = temp_dir();
    for name in [&b"caf\xE9.bin"[..], b"two\nlines\x1B[31m.bin"] {
        let path = dir.path().join(OsStr::from_bytes(name));
        std::fs::write(&path, "valid \u{20AC}").unwrap();
        let out = validate(&[path.as_os_str()], b"");
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(text.matches('\n').count(), 1, "{text:?}");
        assert!(!text.contains('\x1B'), "{text:?}");
        assert!(text.ends_with(": valid rfc3629 (9 bytes)\n"), "{text:?}");
    }
}

/// A usage error is one line, exit 2, and points at the subcommand's help;
/// so is a missing file. A closed standard output fails before the run.
#[test]
fn usage_errors_exit_2_with_one_line() {
    let line = usage_failure(validate(&["--lanes".as_ref(), "3".as_ref()], b""));
    assert!(line.contains("see utf8hdl validate --help"), "{line}");
    let line = usage_failure(validate(&["no-such-file".as_ref()], b""));
    assert!(line.contains("no-such-file"), "{line}");
    let dir = temp_dir();
    let out = Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" validate --engine rust-hdl - >&-")
        .arg(env!("CARGO_BIN_EXE_utf8hdl"))
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("cannot write standard output"), "{stderr}");
}
