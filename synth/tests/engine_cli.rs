//! `utf8hdl sim --engine verilator`: the Verilator model of the exported
//! Verilog, through the same harness and checker as rust-hdl's engine.

use std::fs;
use std::process::Command;

use crate::common::*;
use utf8hdl_synth::{tools, verilator};

/// Whether the Verilator engine's tools are here (a visible skip if not,
/// a failure under UTF8HDL_REQUIRE_TOOLS=1).
fn have_tools() -> bool {
    tools::require_all(&verilator::TOOLS)
}

/// The JSON stats line a run printed last on stderr.
fn stats(stderr: &[u8]) -> serde_json::Value {
    let text = String::from_utf8_lossy(stderr);
    serde_json::from_str(text.lines().last().expect("a stats line")).expect("JSON stats")
}

/// On random bytes and the stress test, with and without stalls, the
/// Verilator engine's ucs4be is CPython's.
#[test]
#[ignore = "slow: a Verilator model of the decoder"]
fn verilator_engine_equals_python_with_and_without_stalls() {
    if !have_tools() {
        return;
    }
    let dir = temp_dir();
    let mut messages: Vec<Vec<u8>> = random_messages()
        .into_iter()
        .filter(|m| m.len() <= 1000)
        .collect();
    messages.push(data("UTF-8-test.txt"));
    for (i, message) in messages.iter().enumerate() {
        let input = dir.path().join(format!("in{i}"));
        fs::write(&input, message).unwrap();
        let Some(expected) = python_decode(message, "utf-32-be") else {
            return;
        };
        for stalls in [["0", "0"], ["0.5", "0.3"]] {
            let seed = i.to_string();
            let args = [
                "sim",
                path_str(&input),
                "--engine",
                "verilator",
                "--format",
                "ucs4be",
                "--stall-in",
                stalls[0],
                "--stall-out",
                stalls[1],
                "--seed",
                &seed,
            ];
            let out = utf8hdl(&args, &[]);
            exited_0(&out);
            assert!(out.stdout == expected, "message {i}, stalls {stalls:?}");
        }
    }
}

/// With the same seed the two engines take the same cycles, give the same
/// words, and write the same waveform, byte for byte: in a window inside
/// the run, and over the whole run (its last cycles, after the last beat,
/// included: the data lines still hold the last beat).
#[test]
#[ignore = "slow: a Verilator model of the decoder"]
fn engines_agree_through_the_cli() {
    if !have_tools() {
        return;
    }
    let dir = temp_dir();
    let input = dir.path().join("in");
    fs::write(&input, data("UTF-8-test.txt")).unwrap();
    let run = |engine: &str, window: &[&str]| {
        let vcd = dir.path().join(format!("{engine}.vcd"));
        let mut args = vec![
            "sim",
            path_str(&input),
            "--engine",
            engine,
            "--stall-in",
            "0.2",
            "--stall-out",
            "0.4",
            "--seed",
            "9",
            "--vcd",
            path_str(&vcd),
            "--stats",
            "json",
        ];
        args.extend(window);
        let out = utf8hdl(&args, &[]);
        exited_0(&out);
        let mut stats = stats(&out.stderr);
        stats["cycles_per_second"] = 0.into();
        (out.stdout, stats, fs::read(&vcd).unwrap())
    };
    for window in [&["--vcd-cycles", "1000..3000"][..], &[]] {
        let (rust_hdl, verilated) = (run("rust-hdl", window), run("verilator", window));
        assert_eq!(rust_hdl.1, verilated.1, "the stats differ");
        assert!(rust_hdl.0 == verilated.0, "the units differ");
        assert!(
            rust_hdl.2 == verilated.2,
            "the waveforms differ ({window:?})"
        );
        assert!(rust_hdl.2.len() > 10_000, "a real waveform");
    }
}

/// Without Verilator on PATH, `--engine verilator` is one clear line and
/// exit status 2, not a crash.
#[test]
fn verilator_engine_without_verilator_is_a_usage_error() {
    let empty = temp_dir();
    let out = run(
        Command::new(env!("CARGO_BIN_EXE_utf8hdl"))
            .args(["sim", "--engine", "verilator", "-o", "-"])
            .env("PATH", empty.path()),
        b"",
    )
    .unwrap();
    let line = usage_failure(out);
    assert!(
        line.contains("verilator") && line.contains("PATH"),
        "{line}"
    );
}

/// With `--engine verilator`, the chain's second core (the UTF-16 encoder)
/// runs on Verilator too, and its UTF-16 is CPython's, under stalls.
#[test]
#[ignore = "slow: Verilator models of the UTF-16 chain"]
fn verilator_engine_runs_the_utf16_chain_as_cpython() {
    if !have_tools() {
        return;
    }
    let message = Rng(17).biased_bytes(4000);
    let Some(expected) = python_decode(&message, "utf-16-le") else {
        return;
    };
    let args = [
        "sim",
        "-",
        "--engine",
        "verilator",
        "--format",
        "utf16le",
        "--stall-in",
        "0.3",
        "--stall-out",
        "0.4",
        "--stats",
        "json",
    ];
    let out = utf8hdl(&args, &message);
    exited_0(&out);
    assert_eq!(out.stdout, expected);
    assert_eq!(stats(&out.stderr)["utf16_encoder"]["agree"], true);
}

/// The lines `--engine auto` says on stderr.
fn auto_lines(stderr: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(stderr);
    (text.lines())
        .filter(|line| line.contains("--engine auto"))
        .map(String::from)
        .collect()
}

/// Without Verilator on PATH, `--engine auto` (the default) runs a wide
/// core on rust-hdl, in one line saying what it would have used and what
/// it needs; a small input on the one-lane core says nothing. The output
/// is CPython's either way.
#[test]
fn auto_without_verilator_falls_back_in_one_line() {
    let empty = temp_dir();
    let message = Rng(23).biased_bytes(600);
    let Some(expected) = python_decode(&message, "utf-32-be") else {
        return;
    };
    for (lanes, said) in [("2", 1), ("1", 0)] {
        let out = run(
            Command::new(env!("CARGO_BIN_EXE_utf8hdl"))
                .args(["sim", "-", "--lanes", lanes, "--format", "ucs4be"])
                .env("PATH", empty.path()),
            &message,
        )
        .unwrap();
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        assert!(out.stdout == expected, "--lanes {lanes}");
        let lines = auto_lines(&out.stderr);
        assert_eq!(lines.len(), said, "{lines:?}");
        if let Some(line) = lines.first() {
            assert!(
                line.contains("rust-hdl")
                    && line.contains("2 lanes wide")
                    && line.contains("verilator, g++, make"),
                "{line}"
            );
        }
    }
}

/// With Verilator installed, `--engine auto` runs a wide core, or a large
/// input on the one-lane core, on Verilator, in one line saying why, with
/// CPython's output; a chain after the decoder follows the same choice
/// without a second line.
#[test]
#[ignore = "slow: Verilator models of the decoders"]
fn auto_runs_wide_cores_and_large_inputs_on_verilator() {
    if !have_tools() {
        return;
    }
    let wide = Rng(29).biased_bytes(3000);
    let large: Vec<u8> = b"Large input, one lane: \xC3\xA9t\xC3\xA9. "
        .iter()
        .copied()
        .cycle()
        .take(1_000_000)
        .collect();
    let dir = temp_dir();
    for (message, lanes, why, codec, format) in [
        (
            &wide,
            "2",
            "the core is 2 lanes wide",
            "utf-32-be",
            "ucs4be",
        ),
        (&large, "1", "the input is large", "utf-16-le", "utf16le"),
    ] {
        let Some(expected) = python_decode(message, codec) else {
            return;
        };
        // A file: the size of standard input is not known in advance.
        let input = dir.path().join(format!("x{lanes}"));
        fs::write(&input, message).unwrap();
        let args = [
            "sim",
            path_str(&input),
            "--lanes",
            lanes,
            "--format",
            format,
        ];
        let out = utf8hdl(&args, &[]);
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        assert!(out.stdout == expected, "{args:?}");
        let lines = auto_lines(&out.stderr);
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].contains("verilator") && lines[0].contains(why),
            "{lines:?}"
        );
    }
}
