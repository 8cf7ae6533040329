//! `utf8hdl sim` and the main job, run as a built binary: the RTL's output
//! against CPython, the stats contract, and the waveform contract (the
//! VCD's m_axis values at each handshake are the decoded words).

use std::fs;

use crate::common::*;
use utf8hdl_hdl::{ErrorKind, Profile};
use utf8hdl_sim::core::Core;
use utf8hdl_sim::cores::utf8_decoder::Decoder;
use utf8hdl_sim::reference::decode;
use utf8hdl_sim::sample::sample;

/// The last line of stderr, parsed as the `--stats json` object.
fn stats(stderr: &[u8]) -> serde_json::Value {
    let text = String::from_utf8_lossy(stderr);
    let last = text.lines().last().expect("stderr has lines");
    serde_json::from_str(last).unwrap_or_else(|e| panic!("not JSON ({e}): {last}"))
}

/// `--properties` follows each line with the character's properties: by
/// the Unicode Standard, U+0001 and U+000A are controls (Cc), U+E000 is
/// private use, U+FDD0 and U+10FFFF are noncharacters, U+1F600 and
/// U+10FFFF are outside the BMP. `reference` says so, and `sim` (the
/// properties core in the RTL, after the decoder) says the same on random
/// inputs under stalls. With another format it is one line and exit 2.
#[test]
fn properties_follow_each_line_in_the_reference_and_the_rtl() {
    let input = "A\u{1}\u{E000}\u{FDD0}\u{1F600}\u{10FFFF}\n".as_bytes();
    let sim = [
        "sim",
        "-",
        "--properties",
        "--stall-in",
        "0.3",
        "--stall-out",
        "0.5",
    ];
    for args in [&["reference", "-", "--properties"][..], &sim[..]] {
        let out = utf8hdl(args, input);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            "0..1 U+0041\n\
         1..2 U+0001 control\n\
         2..5 U+E000 private_use\n\
         5..8 U+FDD0 noncharacter\n\
         8..12 U+1F600 non_bmp\n\
         12..16 U+10FFFF noncharacter,non_bmp\n\
         16..17 U+000A control\n",
            "{args:?}"
        );
    }
    for (i, message) in random_messages().into_iter().take(8).enumerate() {
        let reference = success(utf8hdl(&["reference", "-", "--properties"], &message));
        let seed = i.to_string();
        let args = [
            "sim",
            "-",
            "--properties",
            "--stall-in",
            "0.3",
            "--stall-out",
            "0.5",
            "--seed",
            &seed,
        ];
        let out = utf8hdl(&args, &message);
        exited_0(&out);
        assert_eq!(out.stdout, reference, "message {i}");
    }
    usage_failure(utf8hdl(
        &["sim", "-", "--properties", "--format", "table"],
        b"A",
    ));
    usage_failure(utf8hdl(
        &["reference", "-", "--properties", "--format", "ucs4be"],
        b"A",
    ));
}

/// `sim --format utf16be` and `utf16le` (the decoder, then the UTF-16
/// encoder, both in the RTL) equal CPython's `decode('utf-8', 'replace')
/// .encode('utf-16-be' / 'utf-16-le')`, with and without stalls; and
/// `reference` in the same formats writes the same bytes.
#[test]
fn utf16_out_of_the_rtl_equals_python() {
    let messages: Vec<Vec<u8>> = random_messages()
        .into_iter()
        .filter(|m| m.len() <= 1000)
        .take(12)
        .collect();
    for (i, message) in messages.iter().enumerate() {
        for (format, codec) in [("utf16be", "utf-16-be"), ("utf16le", "utf-16-le")] {
            let Some(expected) = python_decode(message, codec) else {
                return;
            };
            for stalls in [["0", "0"], ["0.3", "0.7"]] {
                let args = [
                    "sim",
                    "-",
                    "--format",
                    format,
                    "--stall-in",
                    stalls[0],
                    "--stall-out",
                    stalls[1],
                ];
                let out = utf8hdl(&args, message);
                exited_0(&out);
                assert_eq!(
                    out.stdout, expected,
                    "message {i}, {format}, stalls {stalls:?}"
                );
            }
            let reference = success(utf8hdl(&["reference", "-", "--format", format], message));
            assert_eq!(reference, expected, "message {i}, reference {format}");
        }
    }
}

/// `sim --format ucs4be` equals CPython on random inputs, with and without
/// stalls on either side.
#[test]
fn ucs4be_equals_python_with_and_without_stalls() {
    let dir = temp_dir();
    for (i, message) in random_messages()
        .into_iter()
        .filter(|m| m.len() <= 1000)
        .enumerate()
    {
        let input = dir.path().join(format!("in{i}"));
        fs::write(&input, &message).unwrap();
        let Some(expected) = python_decode(&message, "utf-32-be") else {
            return;
        };
        for stalls in [["0", "0"], ["0.5", "0"], ["0", "0.5"], ["0.3", "0.7"]] {
            let out = utf8hdl(
                &[
                    "sim",
                    path_str(&input),
                    "--format",
                    "ucs4be",
                    "--output",
                    "-",
                    "--stall-in",
                    stalls[0],
                    "--stall-out",
                    stalls[1],
                    "--seed",
                    &i.to_string(),
                ],
                &[],
            );
            exited_0(&out);
            assert_eq!(out.stdout, expected, "message {i}, stalls {stalls:?}");
        }
    }
}

/// `Core::LATENCY` of the `lanes`-lane core, through the one lane dispatch.
fn latency(lanes: u64) -> u64 {
    fn of<C: Core>(_: &C) -> u64 {
        C::LATENCY
    }
    let latency = || -> anyhow::Result<u64> {
        Ok(utf8hdl_sim::with_core!(lanes, Profile::Rfc3629, |core| of(
            &core
        )))
    };
    latency().unwrap()
}

/// `sim --lanes N` (the wide cores) equals CPython too, with null lanes
/// and stalls, and its stats count the same bytes and words at N bytes a
/// cycle without them.
#[test]
fn wide_cores_equal_python_with_null_lanes_and_stalls() {
    let mut rng = Rng(0x1a9e);
    let message = rng.biased_bytes(1500);
    let Some(expected) = python_decode(&message, "utf-32-be") else {
        return;
    };
    let units = decode(&message, Profile::Rfc3629);
    for lanes in ["2", "4", "8"] {
        for flags in [
            &["--stats", "json"][..],
            &[
                "--null-lanes",
                "0.4",
                "--stall-in",
                "0.3",
                "--stall-out",
                "0.5",
            ],
        ] {
            let mut args = vec!["sim", "-", "--lanes", lanes, "--format", "ucs4be"];
            // The design's own simulation (auto would build Verilator
            // models of the wide cores).
            args.extend(["--engine", "rust-hdl"]);
            args.extend(flags);
            let out = utf8hdl(&args, &message);
            let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
            assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
            assert_eq!(out.stdout, expected, "{args:?}");
            if flags[0] == "--stats" {
                let s = stats(&out.stderr);
                assert_eq!(
                    (s["bytes"].as_u64(), s["words"].as_u64()),
                    (Some(1500), Some(units.len() as u64))
                );
                // Full rate: one beat a clock, then the datasheet's latency.
                let n: u64 = lanes.parse().unwrap();
                assert_eq!(
                    s["cycles"].as_u64(),
                    Some(1500u64.div_ceil(n) + latency(n)),
                    "{s}"
                );
            }
        }
    }
}

/// Same bytes, same output: `sim --format lines` is `reference --format lines`.
#[test]
fn sim_lines_equal_reference_lines() {
    let mut rng = Rng(7);
    for profile in ["rfc3629", "iso10646"] {
        let message = rng.biased_bytes(5000);
        let sim = utf8hdl(
            &["sim", "-", "--profile", profile, "--stall-out", "0.25"],
            &message,
        );
        let reference = utf8hdl(&["reference", "-", "--profile", profile], &message);
        assert_eq!(sim.status.code(), Some(0));
        assert!(!sim.stdout.is_empty());
        assert_eq!(sim.stdout, success(reference));
    }
}

/// `--stats json` counts what the reference counts, and an all-error
/// stream runs at one byte per clock: cycles = bytes + the latency.
#[test]
fn stats_json_counts_and_full_rate_on_errors() {
    let message = b"\xC2A".repeat(20_000);
    let out = utf8hdl(
        &["sim", "-", "--format", "ucs4le", "--stats", "json"],
        &message,
    );
    assert_eq!(out.status.code(), Some(0));
    let units = decode(&message, Profile::Rfc3629);
    let s = stats(&out.stderr);
    assert_eq!(s["bytes"], message.len() as u64);
    assert_eq!(s["words"], units.len() as u64);
    assert_eq!(
        s["errors"],
        units.iter().filter(|u| u.error.is_some()).count() as u64
    );
    assert_eq!(s["cycles"], message.len() as u64 + Decoder::LATENCY);
    assert_eq!(s["agree"], true);
    assert!(s["bytes_per_cycle"].as_f64().unwrap() > 0.9998);
    assert!(s["cycles_per_second"].as_f64().unwrap() > 0.0);
}

/// The VCD's m_axis values at each handshake spell out exactly the decoded
/// words, error kinds and tlast, under random stalls.
#[test]
fn vcd_handshakes_spell_the_decoded_words() {
    let dir = temp_dir();
    let mut rng = Rng(99);
    let message = rng.biased_bytes(3000);
    let input = dir.path().join("in");
    let vcd_path = dir.path().join("wave.vcd");
    fs::write(&input, &message).unwrap();
    let out = utf8hdl(
        &[
            "sim",
            path_str(&input),
            "--format",
            "ucs4be",
            "--output",
            "-",
            "--vcd",
            path_str(&vcd_path),
            "--stall-in",
            "0.3",
            "--stall-out",
            "0.4",
        ],
        &[],
    );
    exited_0(&out);
    let words = handshakes(&vcd_path, "utf8_decoder");
    let units = decode(&message, Profile::Rfc3629);
    assert_eq!(words.len(), units.len());
    for (i, ((tdata, tuser, tlast), unit)) in words.iter().zip(&units).enumerate() {
        let tuser_expected = unit.error.map_or(0, |k: ErrorKind| k.code() << 1 | 1);
        assert_eq!(
            (*tdata, *tuser, *tlast),
            (unit.value, tuser_expected, i + 1 == units.len()),
            "word {i}"
        );
    }
    if let Some(python) = python_decode(&message, "utf-32-be") {
        let from_vcd: Vec<u8> = words.iter().flat_map(|w| w.0.to_be_bytes()).collect();
        assert_eq!(from_vcd, python);
    }
}

/// `--vcd-cycles FROM..TO` records only that window.
#[test]
fn vcd_window_limits_the_recorded_cycles() {
    let dir = temp_dir();
    let vcd_path = dir.path().join("w.vcd");
    let out = utf8hdl(
        &[
            "sim",
            "--vcd",
            path_str(&vcd_path),
            "--vcd-cycles",
            "10..20",
            "--vcd-period",
            "8",
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(0));
    let text = fs::read_to_string(&vcd_path).unwrap();
    let times: Vec<u64> = text
        .lines()
        .filter_map(|l| l.strip_prefix('#'))
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(times.first(), Some(&80));
    assert_eq!(
        times.last(),
        Some(&160),
        "the window closes at cycle 20's edge"
    );
    assert!(
        times.windows(2).all(|w| w[0] < w[1]),
        "time only moves forward"
    );
}

/// Bad flags and paths: exit 2, one line, no partial files.
#[test]
fn sim_usage_errors() {
    let dir = temp_dir();
    let out_path = dir.path().join("out");
    let vcd_path = dir.path().join("missing-dir/w.vcd");
    usage_failure(utf8hdl(&["sim", "--stall-in", "1"], &[]));
    usage_failure(utf8hdl(&["sim", "--stall-out", "-0.1"], &[]));
    usage_failure(utf8hdl(&["sim", "--vcd-cycles", "5..2"], &[]));
    usage_failure(utf8hdl(
        &["sim", "/no/such/file", "-o", path_str(&out_path)],
        &[],
    ));
    usage_failure(utf8hdl(
        &[
            "sim",
            "--vcd",
            path_str(&vcd_path),
            "-o",
            path_str(&out_path),
        ],
        &[],
    ));
    assert_eq!(
        fs::read_dir(dir.path()).unwrap().count(),
        0,
        "nothing is left behind"
    );
}

/// The main job prints the table (every error kind appears) and the
/// summary, and writes utf8hdl.vcd where it says.
#[test]
fn main_job_prints_the_table_and_writes_a_vcd() {
    let dir = temp_dir();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_utf8hdl"))
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let table = String::from_utf8(out.stdout).unwrap();
    let units = decode(&sample(), Profile::Rfc3629);
    for unit in &units {
        let row = format!("{}..{} ", unit.span.start, unit.span.end);
        assert!(table.contains(&row), "no row for {row}");
    }
    for kind in ErrorKind::ALL {
        assert!(
            table.contains(kind.name()),
            "the sample shows no {}",
            kind.name()
        );
    }
    for text in ["≢", "☺", "日本語", "U+2262", "U+10348"] {
        let shown = text.chars().all(|c| table.contains(c)) || table.contains(text);
        assert!(shown, "{text} is not in the table");
    }
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("RTL and reference agree"), "{stderr}");
    assert!(stderr.contains("utf8hdl.vcd"), "{stderr}");
    let vcd = fs::read_to_string(dir.path().join("utf8hdl.vcd")).unwrap();
    assert!(vcd.contains("$scope module utf8_decoder $end") && vcd.contains("$timescale"));
}

/// `--format table` needs the input twice; from standard input it is read
/// once, and the run ends (it once deadlocked on the stdin lock).
#[test]
fn table_from_stdin_finishes() {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_utf8hdl"))
        .args(["sim", "-", "--format", "table"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), b"A\xE2\x82").unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            panic!("utf8hdl sim - --format table did not finish");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(
        table.contains("1..3  E2 82") && table.contains("truncated"),
        "{table}"
    );
}

/// An output path that is a pipe or a device is written in place, never
/// replaced by a renamed file (`-o /dev/null` must leave /dev/null alone).
#[test]
fn output_to_a_fifo_writes_through_it() {
    use std::os::unix::fs::FileTypeExt;
    let dir = temp_dir();
    let fifo = dir.path().join("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        let _ = std::io::Write::write_all(
            &mut std::io::stderr(),
            b"SKIPPED: mkfifo is not available\n",
        );
        return;
    }
    let reader_path = fifo.clone();
    let reader = std::thread::spawn(move || fs::read(reader_path).unwrap());
    let out = utf8hdl(
        &["reference", "--format", "lines", "-o", path_str(&fifo)],
        &[],
    );
    exited_0(&out);
    let through_fifo = reader.join().unwrap();
    assert!(
        fs::metadata(&fifo).unwrap().file_type().is_fifo(),
        "the FIFO was replaced"
    );
    assert_eq!(
        through_fifo,
        success(utf8hdl(&["reference", "--format", "lines"], &[]))
    );
}

// The CLI under hostile use. Each test asserts the exit status,
// the line on stderr, and what is (not) left on disk.

/// Two outputs naming one destination are refused with exit 2 before
/// anything is written: both `-`, one path twice, a symbolic link and its
/// (not yet existing) target, a path through `..`, two hard links, and a
/// file that standard output is redirected to. Distinct outputs still work.
#[test]
fn two_outputs_to_one_destination_are_refused() {
    use std::os::unix::fs::symlink;
    let dir = temp_dir();
    let d = dir.path();
    fs::create_dir(d.join("sub")).unwrap();
    symlink("target.vcd", d.join("link")).unwrap();
    fs::write(d.join("a"), "old").unwrap();
    fs::hard_link(d.join("a"), d.join("b")).unwrap();
    let before = entries(d);
    let at = |name: &str| path_str(&d.join(name)).to_string();
    let cases: [&[String]; 5] = [
        &["--vcd".into(), "-".into()],
        &["-o".into(), at("same.vcd"), "--vcd".into(), at("same.vcd")],
        &["-o".into(), at("link"), "--vcd".into(), at("target.vcd")],
        &["-o".into(), at("sub/../x"), "--vcd".into(), at("x")],
        &["-o".into(), at("a"), "--vcd".into(), at("b")],
    ];
    for case in cases {
        let args: Vec<&str> = std::iter::once("sim")
            .chain(case.iter().map(String::as_str))
            .collect();
        let line = usage_failure(utf8hdl(&args, &[]));
        assert!(line.contains("same destination"), "{args:?}: {line}");
        assert_eq!(entries(d), before, "{args:?} wrote something");
        assert_eq!(fs::read_to_string(d.join("a")).unwrap(), "old");
    }

    // Standard output redirected to the file that --vcd names.
    let stdout = fs::File::create(d.join("redirected")).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_utf8hdl"))
        .args(["sim", "--vcd", &at("redirected")])
        .stdout(stdout)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("same destination") && stderr.matches('\n').count() == 1,
        "{stderr}"
    );
    assert_eq!(fs::read(d.join("redirected")).unwrap(), b"");

    // Distinct outputs: both written.
    let out = utf8hdl(&["sim", "-o", &at("units"), "--vcd", &at("wave.vcd")], &[]);
    assert_eq!(out.status.code(), Some(0));
    assert!(fs::read_to_string(d.join("units"))
        .unwrap()
        .starts_with("0..1 U+"));
    assert!(fs::read_to_string(d.join("wave.vcd"))
        .unwrap()
        .contains("$enddefinitions"));
}

/// SIGTERM, SIGINT or SIGHUP during `sim -o d/o --vcd d/w.vcd` leaves `d`
/// as it was (no temporary file, no partial output; an older `d/o` is
/// untouched), says so in one line, and exits with 128 + the signal.
#[test]
fn a_signal_leaves_the_directory_as_it_was() {
    let inputs = temp_dir();
    let input = inputs.path().join("big");
    fs::write(&input, Rng(10).biased_bytes(4_000_000)).unwrap();
    for (signal, status) in [("TERM", 143), ("INT", 130), ("HUP", 129)] {
        let dir = temp_dir();
        let d = dir.path();
        fs::write(d.join("o"), "older output").unwrap();
        let child = std::process::Command::new(env!("CARGO_BIN_EXE_utf8hdl"))
            .args([
                "sim",
                path_str(&input),
                "--engine",
                "rust-hdl",
                "-o",
                path_str(&d.join("o")),
                "--vcd",
                path_str(&d.join("w.vcd")),
            ])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Both outputs are being written once their temporary files exist.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while entries(d).len() < 3 {
            assert!(std::time::Instant::now() < deadline, "no temporary files");
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        std::thread::sleep(std::time::Duration::from_millis(300));
        send_signal(child.id(), signal);
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(status), "SIG{signal}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(
            stderr.starts_with(&format!("utf8hdl: stopped by SIG{signal}"))
                && stderr.matches('\n').count() == 1,
            "{stderr:?}"
        );
        assert_eq!(entries(d), ["o"], "SIG{signal} left files behind");
        assert_eq!(fs::read_to_string(d.join("o")).unwrap(), "older output");
    }
}

/// Numeric arguments are bounded instead of wrapping: `--vcd-period` and
/// `bench --corpus-mb`/`--memory-mb` out of range are usage errors naming
/// the flag and its range; at the largest period, time still only moves
/// forward, at the period given.
#[test]
fn numeric_arguments_are_bounded() {
    let dir = temp_dir();
    let vcd = dir.path().join("w.vcd");
    for period in ["18446744073709551615", "1000001", "3"] {
        let line = usage_failure(utf8hdl(
            &["sim", "--vcd", path_str(&vcd), "--vcd-period", period],
            &[],
        ));
        assert!(
            line.contains("--vcd-period") && line.contains("4..=1000000"),
            "{line}"
        );
    }
    for args in [
        ["bench", "--corpus-mb", "18446744073710"],
        ["bench", "--memory-mb", "18446744073710"],
        ["bench", "--corpus-mb", "0"],
    ] {
        let line = usage_failure(utf8hdl(&args, &[]));
        assert!(
            line.contains(args[1]) && line.contains("1..=1000000"),
            "{line}"
        );
    }
    let line = usage_failure(utf8hdl(
        &[
            "sim",
            "--vcd",
            path_str(&vcd),
            "--vcd-cycles",
            "0..18446744073709551616",
        ],
        &[],
    ));
    assert!(line.contains("--vcd-cycles"), "{line}");
    assert!(entries(dir.path()).is_empty());

    let out = utf8hdl(
        &[
            "sim",
            "--vcd",
            path_str(&vcd),
            "--vcd-period",
            "1000000",
            "--stats",
            "json",
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(0));
    let times: Vec<u64> = fs::read_to_string(&vcd)
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix('#'))
        .map(|t| t.parse().unwrap())
        .collect();
    assert!(times.windows(2).all(|w| w[0] < w[1]), "time went backwards");
    let cycles = stats(&out.stderr)["cycles"].as_u64().unwrap();
    assert!(
        *times.last().unwrap() >= cycles * 1_000_000,
        "the last edge is at {}, before cycle {cycles} at 1 ms a cycle",
        times.last().unwrap()
    );
}

/// A stall probability above 0.99 is a usage error (at 0.9999999999999999
/// a run would never end); at 0.99 on both sides a run ends and decodes
/// what the reference decodes; a long stalled run shows its progress and
/// the time left on a terminal.
#[test]
fn stall_probability_is_bounded_and_long_stalled_runs_show_progress() {
    for flag in ["--stall-in", "--stall-out"] {
        for p in ["0.9999999999999999", "0.991", "1", "NaN"] {
            let line = usage_failure(utf8hdl(&["sim", flag, p], &[]));
            assert!(line.contains(flag) && line.contains("0.99"), "{line}");
        }
    }
    let message = Rng(4).biased_bytes(300);
    let out = utf8hdl(
        &[
            "sim",
            "-",
            "--stall-in",
            "0.99",
            "--stall-out",
            "0.99",
            "--stats",
            "json",
        ],
        &message,
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, success(utf8hdl(&["reference", "-"], &message)));
    // 1% of the cycles offer a byte: far more cycles than bytes.
    assert!(stats(&out.stderr)["cycles"].as_u64().unwrap() > 300 * 20);

    let dir = temp_dir();
    let input = dir.path().join("in");
    fs::write(&input, Rng(5).biased_bytes(1_000_000)).unwrap();
    let Some(shown) = on_terminal_until(
        &[
            "sim",
            path_str(&input),
            "--engine",
            "rust-hdl",
            "--stall-in",
            "0.99",
            "-o",
            "/dev/null",
        ],
        " eta ",
        std::time::Duration::from_secs(60),
    ) else {
        return;
    };
    assert!(
        shown.contains("/1.00 MB ") && shown.contains(" eta "),
        "{shown:?}"
    );
    assert_eq!(entries(dir.path()), ["in"]);
}

/// `--vcd-period` or `--vcd-cycles` without `--vcd` is a usage error; a
/// `--vcd-cycles` window after the end of the run is a warning, and the
/// (empty) waveform is still written; a window inside the run is not.
#[test]
fn vcd_flags_that_would_do_nothing() {
    let dir = temp_dir();
    for args in [
        ["sim", "--vcd-period", "8"],
        ["sim", "--vcd-cycles", "1..3"],
    ] {
        let line = usage_failure(utf8hdl(&args, &[]));
        assert!(line.contains("--vcd"), "{line}");
    }
    assert!(entries(dir.path()).is_empty());

    let vcd = dir.path().join("w.vcd");
    let out = utf8hdl(
        &[
            "sim",
            "--vcd",
            path_str(&vcd),
            "--vcd-cycles",
            "100000..100010",
            "--stats",
            "json",
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8(out.stderr.clone()).unwrap();
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("utf8hdl: warning: --vcd-cycles 100000..100010"))
        .collect();
    assert_eq!(warnings.len(), 1, "{stderr}");
    // The run is far shorter than 100000 cycles.
    assert!(stats(&out.stderr)["cycles"].as_u64().unwrap() < 100_000);
    assert_eq!(entries(dir.path()), ["w.vcd"]);
    assert!(fs::read_to_string(&vcd)
        .unwrap()
        .contains("$enddefinitions"));

    let out = utf8hdl(
        &["sim", "--vcd", path_str(&vcd), "--vcd-cycles", "10..100000"],
        &[],
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(!String::from_utf8(out.stderr).unwrap().contains("warning"));
}

/// Long runs show progress on a terminal: `bench` (which said nothing for
/// minutes) draws a bar with the bytes done and the time left; a run that
/// ends within a second (the reference on 200 kB, some thousand units)
/// draws none. (A mismatch's summary, which needs a wrong design, is
/// checked in `checker`'s unit tests.)
#[test]
fn long_runs_show_progress_on_a_terminal() {
    let Some(shown) = on_terminal_until(
        &["bench", "--corpus-mb", "5", "--memory-mb", "5"],
        " eta ",
        std::time::Duration::from_secs(60),
    ) else {
        return;
    };
    assert!(
        shown.contains("/15.00 MB ") && shown.contains(" eta "),
        "{shown:?}"
    );
    let dir = temp_dir();
    let input = dir.path().join("in");
    fs::write(&input, Rng(8).biased_bytes(200_000)).unwrap();
    let units = dir.path().join("units");
    let Some(shown) = on_terminal_until(
        &["reference", path_str(&input), "-o", path_str(&units)],
        " eta ",
        std::time::Duration::from_secs(60),
    ) else {
        return;
    };
    assert!(!shown.contains(" eta "), "{shown:?}");
    assert_eq!(entries(dir.path()), ["in", "units"]);
    assert_eq!(
        fs::read(&units).unwrap(),
        success(utf8hdl(&["reference", path_str(&input)], &[]))
    );
}

/// The cores after the decoder show their progress too, in items: on a
/// terminal, `sim --format utf16le` draws the UTF-16 encoder's bar once the
/// decoder's run is done.
#[test]
fn a_chain_shows_each_cores_progress_on_a_terminal() {
    let dir = temp_dir();
    let input = dir.path().join("in");
    fs::write(&input, b"Progress. ".repeat(40_000)).unwrap();
    let Some(shown) = on_terminal_until(
        &[
            "sim",
            path_str(&input),
            "--engine",
            "rust-hdl",
            "--format",
            "utf16le",
            "-o",
            "/dev/null",
        ],
        "/400,000 ",
        std::time::Duration::from_secs(120),
    ) else {
        return;
    };
    assert!(
        shown.contains("utf16_encoder ") && shown.contains("/400,000 "),
        "{shown:?}"
    );
}

/// `sim --svg` draws the run it checked: a dot for every transfer on
/// `s_axis_tdata` (one per byte) and on `m_axis_tdata` and `m_axis_tuser`
/// (one per unit of the reference), equal bytes in a row as boxes of
/// their own, for one lane and for four. Too long a window is a usage
/// error that writes nothing.
#[test]
fn svg_marks_every_transfer_of_the_run() {
    let dir = temp_dir();
    let message = b"AA\xC2A\xE2\x82\xACBB";
    let input = dir.path().join("in");
    fs::write(&input, message).unwrap();
    let units = decode(message, Profile::Rfc3629).len();
    for lanes in ["1", "4"] {
        let svg = dir.path().join(format!("x{lanes}.svg"));
        let out = utf8hdl(
            &[
                "sim",
                path_str(&input),
                "--lanes",
                lanes,
                "--engine",
                "rust-hdl",
                "--stall-out",
                "0.3",
                "--output",
                "/dev/null",
                "--svg",
                path_str(&svg),
                "--vcd-cycles",
                "0..200",
            ],
            &[],
        );
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let text = fs::read_to_string(&svg).unwrap();
        // One dot per transfer, and one in the legend.
        let dots = text.matches("<circle").count();
        if lanes == "1" {
            assert_eq!(dots, 1 + message.len() + 2 * units, "{text}");
            // A box per byte and per word, equal neighbours included.
            let bytes: Vec<String> = message.iter().map(|b| format!("{b:02X}")).collect();
            assert_eq!(box_labels(&text, "s_axis_tdata"), bytes);
            let words: Vec<String> = decode(message, Profile::Rfc3629)
                .iter()
                .map(|u| format!("{:02X}", u.value))
                .collect();
            assert_eq!(box_labels(&text, "m_axis_tdata"), words);
        } else {
            // 9 bytes are 3 full beats in; each beat out is marked on
            // tdata and tuser, and carries 1 to 4 of the units.
            let beats_out = (dots - 1 - 3) / 2;
            assert_eq!(1 + 3 + 2 * beats_out, dots, "{text}");
            assert!((units.div_ceil(4)..=units).contains(&beats_out), "{text}");
        }
    }
    let refused = dir.path().join("long.svg");
    let line = usage_failure(utf8hdl(
        &[
            "sim",
            path_str(&input),
            "--svg",
            path_str(&refused),
            "--vcd-cycles",
            "0..1000",
        ],
        &[],
    ));
    assert!(line.contains("--svg draws at most"), "{line}");
    assert!(!refused.exists());
}

/// The labels of the boxes in the row `label` of a `sim --svg` diagram, in
/// order: the texts between its label and the next row's.
fn box_labels(svg: &str, label: &str) -> Vec<String> {
    let row = svg
        .split_once(&format!(">{label}</text>"))
        .map_or("", |(_, rest)| rest);
    let row = row.split("<text x=\"8\"").next().unwrap_or("");
    row.split("</text>")
        .filter_map(|part| part.rsplit_once('>'))
        .map(|(_, text)| text.trim().to_string())
        .filter(|text| !text.is_empty())
        .collect()
}
