//! The cores as a user without Rust meets them (`docs/without-rust.md`):
//! FuseSoC's `lint` and `sim` targets of the core files in
//! `synth/rtl/` and the cocotb benches (`python3 -m pytest testbench/cocotb`), all on the
//! committed Verilog in `synth/rtl/`, run exactly as that page says.
//!
//! Each needs its tools (fusesoc, verilator, iverilog; python3 with cocotb,
//! cocotbext-axi and pytest) and is skipped, with a message, without them,
//! unless `UTF8HDL_REQUIRE_TOOLS=1`.

use std::path::{Path, PathBuf};
use std::process::Command;

use utf8hdl_hdl::Profile;
use utf8hdl_sim::cores::Kind;
use utf8hdl_synth::fusesoc::module_name;
use utf8hdl_synth::tools;
use utf8hdl_synth::verilog::all_cores;

/// The repository's root, the FuseSoC cores root.
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

/// `fusesoc run` of `target` of the core of `module`, in a build root of
/// its own.
fn fusesoc(target: &str, module: &str) -> String {
    let build = tempfile::Builder::new()
        .prefix("utf8hdl-fusesoc-")
        .tempdir()
        .unwrap();
    let build_root = build.path().to_str().unwrap();
    let core = format!("utf8hdl:utf8hdl:{module}");
    let args = ["--cores-root", ".", "run", "--build-root", build_root];
    run(
        "fusesoc",
        &[&args[..], &["--target", target, &core]].concat(),
    )
}

/// The cores CI checks: every 1-lane core, the decoder at 4 lanes in
/// both profiles and 8 in rfc3629, and the validator at 4 lanes in
/// rfc3629 and 2 in iso10646 (the other widths are the same description
/// at other widths).
fn checked() -> Vec<String> {
    let one_lane = all_cores().filter(|&(_, _, lanes)| lanes == 1);
    let wide = [
        (Kind::Decoder, Profile::Rfc3629, 4),
        (Kind::Decoder, Profile::Iso10646, 4),
        (Kind::Decoder, Profile::Rfc3629, 8),
        (Kind::Validator, Profile::Rfc3629, 4),
        (Kind::Validator, Profile::Iso10646, 2),
    ];
    (one_lane.chain(wide))
        .map(|(kind, profile, lanes)| module_name(kind, profile, lanes).unwrap())
        .collect()
}

#[test]
#[ignore = "slow: FuseSoC lint (Verilator) of the committed cores"]
fn fusesoc_lint_passes_on_the_committed_cores() {
    if !(tools::require("fusesoc") & tools::require("verilator")) {
        return;
    }
    for module in checked() {
        fusesoc("lint", &module);
    }
}

#[test]
#[ignore = "slow: FuseSoC simulation (Icarus) of the committed cores"]
fn fusesoc_sim_passes_on_the_committed_cores() {
    if !(tools::require("fusesoc") & tools::require("iverilog")) {
        return;
    }
    for module in checked() {
        let log = fusesoc("sim", &module);
        let pass = log
            .lines()
            .find(|line| line.starts_with("utf8hdl_tb: PASS"));
        let pass = pass.unwrap_or_else(|| panic!("no PASS line for {module}:\n{log}"));
        eprintln!("{pass}");
    }
}

#[test]
#[ignore = "slow: the cocotb bench (pytest, Icarus) on the committed cores"]
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
