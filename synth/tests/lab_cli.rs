//! `utf8hdl lab check N` runs the labs' own program with cargo, in the
//! workspace that holds the lab files, so that the verdict is about the
//! file as it is; where that cannot be, it says why in one line and gives
//! no verdict. The lab root is the current directory (it holds
//! `docs/labs/student/src/`), here a temporary copy; `UTF8HDL_CARGO` stands
//! in for cargo, so that no test builds the workspace.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Output};

use crate::common::{path_str, run, temp_dir, usage_failure};

const FILE: &str = "docs/labs/student/src/lab1_ascii.rs";
const COMMAND: &str = "`cargo run --release -p utf8hdl-labs -- check 1`";

/// A lab root holding lab 1's file (none when not `file`), and a
/// `Cargo.toml` when `workspace`.
fn lab_root(file: bool, workspace: bool) -> tempfile::TempDir {
    let root = temp_dir();
    let path = root.path().join(FILE);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    if file {
        std::fs::write(&path, "// the student's block\n").unwrap();
    }
    if workspace {
        std::fs::write(root.path().join("Cargo.toml"), "[workspace]\n").unwrap();
    }
    root
}

/// `utf8hdl lab check 1 ARGS` in `root`, with `cargo` as the cargo it may
/// run.
fn lab_check(root: &Path, cargo: &str, args: &[&str]) -> Output {
    run(
        Command::new(env!("CARGO_BIN_EXE_utf8hdl"))
            .args(["lab", "check", "1"])
            .args(args)
            .current_dir(root)
            .env("UTF8HDL_CARGO", cargo),
        b"",
    )
    .unwrap()
}

/// A cargo that logs its directory and arguments to `calls` in `root`,
/// then exits with `status`.
fn fake_cargo(root: &Path, status: u8) -> String {
    let cargo = root.join("fake-cargo");
    std::fs::write(
        &cargo,
        format!(
            "#!/bin/sh\necho \"$PWD|$*\" >> '{}'\nexit {status}\n",
            root.join("calls").display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&cargo, std::fs::Permissions::from_mode(0o755)).unwrap();
    path_str(&cargo).to_string()
}

/// The check is the labs' program's, run by cargo in the lab root, which
/// builds the labs' crate alone; its exit status is the check's, and
/// `--vcd` reaches it as an absolute path.
#[test]
fn a_lab_check_runs_the_labs_program_with_cargo() {
    let root = lab_root(true, true);
    let cargo = fake_cargo(root.path(), 1);
    let out = lab_check(root.path(), &cargo, &["--vcd", "wave.vcd"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(out.stderr.is_empty(), "{out:?}");
    let root_dir = std::fs::canonicalize(root.path()).unwrap();
    let calls = std::fs::read_to_string(root.path().join("calls")).unwrap();
    assert_eq!(
        calls.trim_end(),
        format!(
            "{0}|run --release --quiet -p utf8hdl-labs --bin labs -- check 1 --vcd {0}/wave.vcd",
            root_dir.display()
        )
    );
    assert!(!root.path().join("wave.vcd").exists());
}

/// No cargo, or no workspace to build in: one line that names the file and
/// the command to run; exit status 2, no verdict.
#[test]
fn without_cargo_or_a_workspace_there_is_no_verdict() {
    let root = lab_root(true, true);
    let line = usage_failure(lab_check(root.path(), "/no/such/cargo", &[]));
    assert!(
        line.contains(&format!("cargo is not on PATH to build {FILE}")) && line.contains(COMMAND),
        "{line}"
    );
    let root = lab_root(true, false);
    let line = usage_failure(lab_check(root.path(), "cargo", &[]));
    assert!(
        line.contains("no Cargo.toml") && line.contains(COMMAND),
        "{line}"
    );
}

/// A deleted file is no verdict either.
#[test]
fn a_missing_lab_file_is_no_verdict() {
    let root = lab_root(false, true);
    let line = usage_failure(lab_check(root.path(), "/no/such/cargo", &[]));
    assert!(
        line.contains(&format!("cannot read {FILE}"))
            && line.contains(&format!("restore it, then run {COMMAND}")),
        "{line}"
    );
}

/// A crate that does not compile (cargo exits 101): one line says so,
/// after cargo's own errors; status 2.
#[test]
fn a_lab_file_that_does_not_compile_says_so() {
    let root = lab_root(true, true);
    let cargo = fake_cargo(root.path(), 101);
    let line = usage_failure(lab_check(root.path(), &cargo, &[]));
    assert!(
        line.starts_with("utf8hdl: the labs' crate docs/labs/student does not compile")
            && line.contains(COMMAND),
        "{line}"
    );
}

/// Without the solutions' folder (labs handed out without them), `--solution`
/// says so; an unknown lab is named.
#[test]
fn the_solutions_may_be_absent_and_a_lab_unknown() {
    let root = lab_root(true, true);
    let line = usage_failure(lab_check(root.path(), "/no/such/cargo", &["--solution"]));
    assert!(
        line.contains("the solutions are not in the current directory"),
        "{line}"
    );
    let out = run(
        Command::new(env!("CARGO_BIN_EXE_utf8hdl"))
            .args(["lab", "check", "99"])
            .current_dir(root.path()),
        b"",
    )
    .unwrap();
    let line = usage_failure(out);
    assert!(line.contains("no lab '99' (labs: 1, 2,"), "{line}");
}
