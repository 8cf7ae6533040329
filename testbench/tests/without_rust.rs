//! The cores as a user without Rust meets them (README, "Using the cores
//! without Rust"): FuseSoC's `lint` and `sim` targets of `utf8hdl.core` and
//! the cocotb bench (`python3 -m pytest testbench/cocotb`), all on the
//! committed Verilog in `synth/rtl/`, run exactly as the README says.
//!
//! Each needs its tools (fusesoc, verilator, iverilog; python3 with cocotb,
//! cocotbext-axi and pytest) and is skipped, with a message, without them,
//! unless `UTF8HDL_REQUIRE_TOOLS=1`.

use std::path::{Path, PathBuf};
use std::process::Command;

use utf8hdl_synth::tools;

const CORE: &str = "utf8hdl:utf8hdl:utf8_decoder";

/// The repository's root, where `utf8hdl.core` is.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .expect("the repository's root")
}

/// Runs `program` in the root; panics with its output when it fails.
fn run(program: &str, args: &[&str]) -> String {
    let out = Command::new(program)
        .current_dir(root())
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    assert!(
        out.status.success(),
        "{program} {} failed ({}):\n{}",
        args.join(" "),
        out.status,
        text.lines()
            .rev()
            .take(40)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect::<Vec<_>>()
            .join("\n")
    );
    text
}

/// Whether python3 can import every one of `modules`.
fn python_has(modules: &str) -> bool {
    tools::find("python3").is_some()
        && Command::new("python3")
            .args(["-c", &format!("import {modules}")])
            .output()
            .is_ok_and(|out| out.status.success())
}

/// `fusesoc run` of `target` with `flags`, in a build root of its own.
fn fusesoc(target: &str, flags: &[&str]) -> String {
    let build = tempfile::Builder::new()
        .prefix("utf8hdl-fusesoc-")
        .tempdir()
        .unwrap();
    let build_root = build.path().to_str().unwrap();
    let mut args = vec!["--cores-root", ".", "run", "--build-root", build_root];
    args.extend(["--target", target]);
    for flag in flags {
        args.extend(["--flag", flag]);
    }
    args.push(CORE);
    run("fusesoc", &args)
}

/// The cores CI checks: the 1-lane core and x4 in both profiles, x8 in
/// rfc3629 (the others are the same description at other widths).
const CHECKED: &[&[&str]] = &[&[], &["iso10646"], &["x4"], &["x4", "iso10646"], &["x8"]];

#[test]
fn fusesoc_lint_passes_on_the_committed_cores() {
    if !(tools::require("fusesoc") & tools::require("verilator")) {
        return;
    }
    for flags in CHECKED {
        fusesoc("lint", flags);
    }
}

#[test]
fn fusesoc_sim_passes_on_the_committed_cores() {
    if !(tools::require("fusesoc") & tools::require("iverilog")) {
        return;
    }
    for flags in CHECKED {
        let log = fusesoc("sim", flags);
        let pass = log
            .lines()
            .find(|line| line.starts_with("utf8hdl_tb: PASS"));
        let pass = pass.unwrap_or_else(|| panic!("no PASS line for {flags:?}:\n{log}"));
        eprintln!("{pass}");
    }
}

#[test]
fn cocotb_bench_passes_on_the_committed_cores() {
    let modules = "cocotb, cocotb_tools.runner, cocotbext.axi, pytest";
    if !(tools::require("iverilog")
        & tools::require_that(&format!("python3 with {modules}"), python_has(modules)))
    {
        return;
    }
    let log = run(
        "python3",
        &["-m", "pytest", "testbench/cocotb", "-p", "no:cacheprovider"],
    );
    let summary = log.lines().rev().find(|line| line.contains(" passed"));
    eprintln!("{}", summary.unwrap_or("(no pytest summary)"));
}
