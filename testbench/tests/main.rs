//! The testbench's tests, one binary: each file beside this one is a module.
//!
//! One binary instead of one per file: the generic rust-hdl designs are
//! compiled and linked once, not eighteen times (the crate's tests built in
//! about 300 s of a 2-core CI run as separate binaries), and libtest runs
//! all the tests on one pool, so a long proof in `formal` overlaps the
//! simulations instead of running alone at the end of its own binary.
//! Run one file's tests with its module name as the filter:
//! `cargo test --release -p utf8hdl-testbench formal::`.

mod board;
mod checker_catches_violations;
mod cosim;
mod encoder;
mod engines;
mod formal;
mod labs;
mod properties;
mod rtl_fresh;
mod rtl_vs_reference;
mod self_contained;
mod throughput_and_reset;
mod utf16;
mod verilog_lint;
mod wide_checked;
mod wide_decoder;
mod wide_ports;
mod without_rust;

/// With `autotests = false`, cargo ignores a file of `tests/` that no `mod`
/// above names, and its tests would silently never run: this fails instead.
#[test]
fn every_file_of_tests_is_a_module() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let main = std::fs::read_to_string(dir.join("main.rs")).unwrap();
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.extension().is_some_and(|e| e == "rs") && name != "main" {
            files += 1;
            let declaration = format!("mod {name};");
            assert!(
                main.lines().any(|line| line.trim() == declaration),
                "testbench/tests/{name}.rs is not a module of tests/main.rs: add `{declaration}`"
            );
        }
    }
    assert!(files > 0, "no test file found in {}", dir.display());
}
