//! The command line never destroys what the user has: an output that is
//! the input, a closed or read-only standard output, and a file or
//! directory the user may not write are each refused with exit 2 and one
//! line, before anything is written; and the messages of a bad window or
//! lane count say what is wrong.

use std::fs;
use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::common::*;

/// A small input with every kind of unit: ASCII, multi-byte, and an error.
const SMALL: &[u8] = b"A\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\xC0\xAFz\n";

fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_utf8hdl"))
}

/// `utf8hdl ARGS` run by `sh -c`, so that a test can give it the shell's
/// redirections (`>&-`, `>>FILE`, `<FILE`) exactly as a user types them.
fn through_shell(redirections: &str, args: &[&str], dir: &Path) -> Output {
    let script = format!("exec \"$0\" \"$@\" {redirections}");
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_utf8hdl"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("cannot run sh")
}

/// Exit 2 and exactly one line on stderr (stdout may be a file here).
#[track_caller]
fn refused(output: &Output) -> String {
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        stderr.ends_with('\n') && stderr.matches('\n').count() == 1,
        "not exactly one line on stderr: {stderr:?}"
    );
    stderr
}

/// Every way an output can name the input file is refused, and the input
/// and its directory are left exactly as they were: `-o`, `--vcd`, `--svg`
/// of `sim`, `reference -o`, `encode -o` and `--vcd`, a symbolic link to the
/// input, a hard link to it, a path through `..`, standard input redirected
/// from the file the output names, and standard output appended to the
/// input.
#[test]
fn an_output_that_is_the_input_is_refused() {
    let dir = temp_dir();
    let d = dir.path();
    fs::create_dir(d.join("sub")).unwrap();
    fs::write(d.join("x"), SMALL).unwrap();
    fs::write(d.join("words"), [0, 0, 0, 0x41, 0, 0, 0x20, 0xAC]).unwrap();
    symlink("x", d.join("link")).unwrap();
    fs::hard_link(d.join("x"), d.join("hard")).unwrap();
    let before = entries(d);
    let cases: &[&[&str]] = &[
        &["sim", "x", "-o", "x", "--format", "ucs4be"],
        &["sim", "x", "--vcd", "x"],
        &["sim", "x", "--svg", "x"],
        &["sim", "x", "-o", "link"],
        &["sim", "x", "-o", "hard"],
        &["sim", "x", "-o", "sub/../x"],
        &["sim", "link", "-o", "x"],
        &["reference", "x", "-o", "x"],
        &["reference", "x", "--format", "table", "-o", "x"],
        &["encode", "--from", "ucs4be", "words", "-o", "words"],
        &["encode", "--from", "ucs4be", "words", "--vcd", "words"],
    ];
    for args in cases {
        let out = through_shell("", args, d);
        let line = refused(&out);
        assert!(line.contains("is the input"), "{args:?}: {line}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert_eq!(fs::read(d.join("x")).unwrap(), SMALL, "{args:?}");
        assert_eq!(entries(d), before, "{args:?} left something behind");
    }
    // Standard input redirected from the file the output names, and
    // standard output appended to the input.
    for (redirections, args) in [
        ("<x", &["sim", "-", "-o", "x"][..]),
        ("<x", &["reference", "-", "-o", "link"][..]),
        (">>x", &["reference", "x"][..]),
        (">>x", &["sim", "x"][..]),
    ] {
        let line = refused(&through_shell(redirections, args, d));
        assert!(line.contains("is the input"), "{args:?}: {line}");
        assert_eq!(fs::read(d.join("x")).unwrap(), SMALL, "{args:?}");
        assert_eq!(entries(d), before, "{args:?} left something behind");
    }
    // A copy is not the input: it is written.
    fs::copy(d.join("x"), d.join("copy")).unwrap();
    let out = through_shell("", &["sim", "x", "-o", "copy"], d);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_ne!(fs::read(d.join("copy")).unwrap(), SMALL);
}

/// A standard output that is closed (`>&-`) or open only for reading
/// (`1<FILE`) fails before the run, for every command that writes to it;
/// one that is not used does not matter, and `/dev/null` is a working
/// output.
#[test]
fn a_closed_standard_output_is_an_error_not_a_silent_loss() {
    let dir = temp_dir();
    let d = dir.path();
    fs::write(d.join("small.bin"), SMALL).unwrap();
    fs::write(d.join("readonly"), "").unwrap();
    for args in [
        &["reference", "small.bin"][..],
        &["sim", "small.bin"][..],
        &["sim", "small.bin", "-o", "-"][..],
        &["verilog", "-o", "-"][..],
        &["lab", "list"][..],
        &["wave", "--list"][..],
    ] {
        for redirection in [">&-", "1<readonly"] {
            let line = refused(&through_shell(redirection, args, d));
            assert!(
                line.contains("cannot write standard output"),
                "{args:?} {redirection}: {line}"
            );
        }
    }
    assert_eq!(fs::read(d.join("readonly")).unwrap(), b"");
    // Standard output unused: closing it changes nothing.
    let out = through_shell(">&-", &["sim", "small.bin", "-o", "units"], d);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(fs::read_to_string(d.join("units"))
        .unwrap()
        .starts_with("0..1 U+0041"));
    // The null device takes everything, as asked.
    let out = through_shell(">/dev/null", &["reference", "small.bin"], d);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}

/// `utf8hdl ARGS` in `dir` as an ordinary user: root may write any file,
/// so as root the run drops to `nobody` (65534), as `su nobody` would.
fn as_user(args: &[&str], dir: &Path) -> Output {
    use std::os::unix::process::CommandExt;
    let mut command = binary();
    // SAFETY: geteuid has no preconditions and only reads.
    let copy = (unsafe { libc::geteuid() } == 0).then(BinaryCopy::new);
    if let Some(copy) = &copy {
        command = Command::new(copy.path());
        command.uid(65534).gid(65534);
    }
    command.args(args).current_dir(dir).stdin(Stdio::null());
    command
        .output()
        .unwrap_or_else(|e| panic!("cannot run utf8hdl as uid 65534: {e}"))
}

/// A write-protected file is refused as a shell's `>` refuses it, not
/// replaced by the rename that commits an output; a directory the user may
/// not write is named in the message. Writable files are still written.
#[test]
fn write_protected_files_and_directories_are_respected() {
    let dir = temp_dir();
    let d = dir.path();
    fs::set_permissions(d, fs::Permissions::from_mode(0o777)).unwrap();
    fs::write(d.join("small.bin"), SMALL).unwrap();
    fs::write(d.join("p"), "P\n").unwrap();
    fs::set_permissions(d.join("p"), fs::Permissions::from_mode(0o444)).unwrap();
    fs::create_dir(d.join("locked")).unwrap();
    fs::set_permissions(d.join("locked"), fs::Permissions::from_mode(0o555)).unwrap();
    fs::set_permissions(d.join("small.bin"), fs::Permissions::from_mode(0o644)).unwrap();
    let before = entries(d);
    for args in [
        &["sim", "small.bin", "-o", "p"][..],
        &["sim", "small.bin", "--vcd", "p"][..],
        &["reference", "small.bin", "-o", "p"][..],
        &["verilog", "-o", "p"][..],
    ] {
        let line = refused(&as_user(args, d));
        assert!(
            line.contains("'p'") && line.contains("not writable"),
            "{args:?}: {line}"
        );
        assert_eq!(fs::read_to_string(d.join("p")).unwrap(), "P\n", "{args:?}");
        assert_eq!(entries(d), before, "{args:?}");
    }
    let line = refused(&as_user(&["sim", "small.bin", "-o", "locked/out"], d));
    assert!(
        line.contains("the directory") && line.contains("locked'"),
        "{line}"
    );
    assert!(entries(&d.join("locked")).is_empty());
    // A file the user may write is replaced.
    fs::write(d.join("w"), "old").unwrap();
    fs::set_permissions(d.join("w"), fs::Permissions::from_mode(0o666)).unwrap();
    let out = as_user(&["sim", "small.bin", "-o", "w"], d);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(fs::read_to_string(d.join("w"))
        .unwrap()
        .starts_with("0..1 U+0041"));
}

/// `--vcd-cycles` says which part of FROM..TO is wrong.
#[test]
fn a_bad_window_names_its_problem() {
    for (window, expected) in [
        ("5..10x", "TO '10x' in '5..10x' is not a cycle number"),
        ("-1..5", "FROM '-1' in '-1..5' is not a cycle number"),
        ("1..18446744073709551616", "is beyond the last cycle"),
        ("10..5", "FROM must be less than TO"),
        ("7..7", "FROM must be less than TO"),
        ("5", "is not FROM..TO"),
        ("..5", "has no FROM"),
    ] {
        let line = usage_failure(utf8hdl(
            &["sim", "--vcd", "/dev/null", "--vcd-cycles", window],
            &[],
        ));
        assert!(line.contains(expected), "{window}: {line}");
    }
}

/// A lane count with no figure names the lane counts that have figures,
/// each once, in order.
#[test]
fn wave_names_the_lane_counts_it_has_figures_of() {
    let line = usage_failure(utf8hdl(
        &["wave", "--lanes", "4", "--dir", "/dev/null"],
        &[],
    ));
    assert!(
        line.contains("no figure of the 4-lane core; its figures are of --lanes 1 and 2"),
        "{line}"
    );
}
