//! The testbench's tests, one binary: each file beside this one is a module.
//!
//! One binary instead of one per file: the generic rust-hdl designs are
//! compiled and linked once, not once a file (the crate's tests built in
//! about 300 s of a 2-core CI run as separate binaries), and libtest runs
//! all the tests on one pool, so a long proof in `formal` overlaps the
//! simulations instead of running alone at the end of its own binary.
//! Run one file's tests with its module name as the filter:
//! `cargo test --release -p utf8hdl-testbench formal::`.

mod block_proofs;
mod board;
mod checker_catches_violations;
mod cosim;
mod encoder;
mod engines;
mod exercises;
mod formal;
mod properties;
mod rtl_fresh;
mod rtl_vs_reference;
mod self_contained;
mod throughput_and_reset;
mod utf16;
mod validator;
mod verilog_lint;
mod wide_checked;
mod wide_decoder;
mod wide_ports;
mod without_rust;

/// With `autotests = false` (this crate and synth), cargo ignores a file
/// or folder of `tests/` that no `mod` of `tests/main.rs` names, and its
/// tests would silently never run: this fails instead, for every crate of
/// the workspace that sets it.
#[test]
fn every_file_of_tests_is_a_module() {
    let workspace = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap();
    let mut crates = Vec::new();
    for member in std::fs::read_dir(workspace).unwrap() {
        let member = member.unwrap().path();
        let manifest = std::fs::read_to_string(member.join("Cargo.toml")).unwrap_or_default();
        let sets_autotests_false = manifest
            .lines()
            .any(|line| line.replace(char::is_whitespace, "") == "autotests=false");
        if !sets_autotests_false {
            continue;
        }
        let crate_name = member.file_name().unwrap().to_string_lossy().into_owned();
        let tests = member.join("tests");
        let main = std::fs::read_to_string(tests.join("main.rs")).unwrap();
        for entry in std::fs::read_dir(&tests).unwrap() {
            let path = entry.unwrap().path();
            if !is_test_module(&path) {
                continue;
            }
            let name = path.file_stem().unwrap().to_string_lossy();
            let declaration = format!("mod {name};");
            assert!(
                main.lines().any(|line| line.trim() == declaration),
                "{crate_name}/tests/{name} is not a module of its tests/main.rs: add `{declaration}`"
            );
        }
        crates.push(crate_name);
    }
    for expected in ["synth", "testbench"] {
        assert!(
            crates.iter().any(|c| c == expected),
            "{expected} sets autotests = false, but was not found: {crates:?}"
        );
    }
}

/// A file or folder of `tests/` that `tests/main.rs` must declare: a `.rs`
/// file other than `main.rs`, or a folder with a `mod.rs`.
fn is_test_module(path: &std::path::Path) -> bool {
    if path.is_dir() {
        path.join("mod.rs").is_file()
    } else {
        path.extension().is_some_and(|e| e == "rs") && path.file_stem().is_some_and(|n| n != "main")
    }
}
