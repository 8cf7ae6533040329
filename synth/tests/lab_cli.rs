//! `utf8hdl lab check N` checks the block compiled into the binary, so a
//! binary built from another version of the lab's file must say so, or be
//! rebuilt from the file, rather than give a verdict about a file it did
//! not run. The lab root is the current directory (it holds
//! `hdl/src/labs/`), here a temporary copy; `UTF8HDL_CARGO` stands in for
//! cargo, so that no test rebuilds the workspace.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Output};

use crate::common::{path_str, run, temp_dir, usage_failure};

const FILE: &str = "hdl/src/labs/lab1_ascii.rs";

/// The text of lab 1's file that the binary was built from: the
/// workspace's, which the test build has just compiled.
fn built_from() -> String {
    std::fs::read_to_string(format!("{}/../{FILE}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// A lab root holding `text` as lab 1's file (none for `None`), and a
/// `Cargo.toml` when `workspace`.
fn lab_root(text: Option<&str>, workspace: bool) -> tempfile::TempDir {
    let root = temp_dir();
    let file = root.path().join(FILE);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    if let Some(text) = text {
        std::fs::write(&file, text).unwrap();
    }
    if workspace {
        std::fs::write(root.path().join("Cargo.toml"), "[workspace]\n").unwrap();
    }
    root
}

/// `utf8hdl lab check 1` in `root`, with `cargo` as the cargo it may run.
fn lab_check(root: &Path, cargo: &str, envs: &[(&str, &str)]) -> Output {
    run(
        Command::new(env!("CARGO_BIN_EXE_utf8hdl"))
            .args(["lab", "check", "1"])
            .current_dir(root)
            .env_remove("UTF8HDL_LAB_REBUILT")
            .env("UTF8HDL_CARGO", cargo)
            .envs(envs.iter().copied()),
        b"",
    )
    .unwrap()
}

fn edited() -> String {
    built_from() + "// the student's edit\n"
}

/// The file as the binary was built from it: the check runs as always
/// (lab 1's starting file fails, a solved one passes), with no word of
/// staleness, and no cargo is run.
#[test]
fn an_unchanged_lab_file_is_checked_by_this_binary() {
    let root = lab_root(Some(&built_from()), true);
    let out = lab_check(root.path(), "/no/such/cargo", &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(matches!(out.status.code(), Some(0 | 1)), "{stderr}");
    assert!(
        stderr.contains(&format!("lab 1, ASCII passthrough: {FILE} ")),
        "{stderr}"
    );
    assert!(!stderr.contains("built from"), "{stderr}");
}

/// An edited file and no cargo to rebuild with: one line that names the
/// file, says the binary was built from another version, and how to
/// rebuild; exit status 2, no verdict.
#[test]
fn an_edited_lab_file_without_cargo_says_the_binary_is_stale() {
    let root = lab_root(Some(&edited()), true);
    let line = usage_failure(lab_check(root.path(), "/no/such/cargo", &[]));
    assert!(
        line.contains(&format!("built from a different version of {FILE}"))
            && line.contains("cargo is not on PATH")
            && line.contains("`cargo run --release -- lab check 1`"),
        "{line}"
    );
    // Without a workspace to rebuild in, the same, and why.
    let root = lab_root(Some(&edited()), false);
    let line = usage_failure(lab_check(root.path(), "cargo", &[]));
    assert!(
        line.contains(&format!("built from a different version of {FILE}"))
            && line.contains("no Cargo.toml")
            && line.contains("`cargo run --release -- lab check 1`"),
        "{line}"
    );
}

/// A deleted file is no verdict either.
#[test]
fn a_missing_lab_file_is_no_verdict() {
    let root = lab_root(None, true);
    let line = usage_failure(lab_check(root.path(), "/no/such/cargo", &[]));
    assert!(
        line.contains(&format!("cannot read {FILE}"))
            && line.contains("restore it, then run `cargo run --release -- lab check 1`"),
        "{line}"
    );
}

/// An edited file that does not compile (a cargo that fails): the rebuild
/// is announced, then one line says the file does not compile; status 2.
#[test]
fn an_edited_lab_file_that_does_not_compile_says_so() {
    let root = lab_root(Some(&edited()), true);
    let out = lab_check(root.path(), "false", &[]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    assert!(
        lines[0].contains(&format!("built from a different version of {FILE}"))
            && lines[0].contains("rebuilding"),
        "{stderr}"
    );
    assert!(
        lines[1].starts_with(&format!(
            "utf8hdl: {FILE} does not compile (cargo's errors above)"
        )),
        "{stderr}"
    );
}

/// An edited file is checked by a binary rebuilt from it: cargo builds,
/// then runs `lab check 1` in the workspace, marked as the rebuilt run,
/// and its exit status is the check's.
#[test]
fn an_edited_lab_file_is_checked_by_a_rebuilt_binary() {
    let root = lab_root(Some(&edited()), true);
    let calls = root.path().join("calls");
    let cargo = root.path().join("fake-cargo");
    std::fs::write(
        &cargo,
        format!(
            "#!/bin/sh\necho \"$PWD|$UTF8HDL_LAB_REBUILT|$*\" >> '{}'\n[ \"$1\" = build ] || exit 1\n",
            calls.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&cargo, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = lab_check(root.path(), path_str(&cargo), &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let root_dir = std::fs::canonicalize(root.path()).unwrap();
    let expected = [
        "build --release --quiet --bin utf8hdl",
        "run --release --quiet --bin utf8hdl -- lab check 1",
    ]
    .map(|args| format!("{}|1|{args}", root_dir.display()));
    assert_eq!(
        std::fs::read_to_string(&calls)
            .unwrap()
            .lines()
            .collect::<Vec<_>>(),
        expected
    );
}

/// The rebuilt run never rebuilds again: a file still stale there is an
/// error.
#[test]
fn a_rebuilt_binary_does_not_rebuild_again() {
    let root = lab_root(Some(&edited()), true);
    let line = usage_failure(lab_check(
        root.path(),
        "false",
        &[("UTF8HDL_LAB_REBUILT", "1")],
    ));
    assert!(
        line.contains(&format!("built from a different version of {FILE}"))
            && line.contains("even after rebuilding"),
        "{line}"
    );
}
