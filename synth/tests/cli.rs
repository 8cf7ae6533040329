//! The `utf8hdl` command line, run as a built binary.
//!
//! The oracle for the ucs4 formats is CPython's UTF-8 decoder with
//! `errors='replace'` (one U+FFFD per maximal subpart, as Unicode §3.9
//! recommends), re-encoded as UTF-32. When `python3` is not installed those
//! checks are skipped with a message on stderr, unless
//! `UTF8HDL_REQUIRE_TOOLS=1`, in which case they fail.

use crate::common::*;
use utf8hdl_sim::sample::sample;

/// `utf8hdl reference --format ucs4be --output - FILE` on random bytes is
/// CPython's `decode('utf-8', 'replace').encode('utf-32-be')`.
#[test]
fn ucs4be_of_random_files_equals_python() {
    let dir = temp_dir();
    for (i, message) in random_messages().iter().enumerate() {
        let Some(expected) = python_decode(message, "utf-32-be") else {
            return;
        };
        let path = dir.path().join(format!("random-{i}.bin"));
        std::fs::write(&path, message).unwrap();
        let args = ["reference", "--format", "ucs4be", "--output", "-"];
        let got = success(utf8hdl(&[&args[..], &[path_str(&path)]].concat(), b""));
        assert!(got == expected, "message {i} ({} bytes)", message.len());
    }
}

/// INPUT `-` reads standard input: ucs4be of random bytes on stdin is
/// CPython's.
#[test]
fn ucs4be_of_random_stdin_equals_python() {
    for (i, message) in random_messages().iter().enumerate() {
        let Some(expected) = python_decode(message, "utf-32-be") else {
            return;
        };
        let got = success(utf8hdl(
            &["reference", "--format", "ucs4be", "--output", "-", "-"],
            message,
        ));
        assert!(got == expected, "message {i} ({} bytes)", message.len());
    }
}

/// ucs4be of both corpus files (Kuhn's stress test and demo) is CPython's.
#[test]
fn ucs4be_of_the_corpus_equals_python() {
    for name in ["UTF-8-test.txt", "UTF-8-demo.txt"] {
        let path = data_path(name);
        let Some(expected) = python_decode(&std::fs::read(&path).unwrap(), "utf-32-be") else {
            return;
        };
        let got = success(utf8hdl(
            &[
                "reference",
                "--format",
                "ucs4be",
                "--output",
                "-",
                path_str(&path),
            ],
            b"",
        ));
        assert!(got == expected, "{name}");
    }
}

/// With no INPUT the embedded sample is decoded: ucs4be is CPython's
/// decoding of the sample's bytes.
#[test]
fn ucs4be_of_the_embedded_sample_equals_python() {
    let Some(expected) = python_decode(&sample(), "utf-32-be") else {
        return;
    };
    let got = success(utf8hdl(
        &["reference", "--format", "ucs4be", "--output", "-"],
        b"",
    ));
    assert!(got == expected);
}

/// ucs4le is CPython's `encode('utf-32-le')`, on random bytes and the
/// stress test.
#[test]
fn ucs4le_equals_python() {
    let mut messages = random_messages();
    messages.push(data("UTF-8-test.txt"));
    for (i, message) in messages.iter().enumerate() {
        let Some(expected) = python_decode(message, "utf-32-le") else {
            return;
        };
        let got = success(utf8hdl(&["reference", "--format", "ucs4le", "-"], message));
        assert!(got == expected, "message {i} ({} bytes)", message.len());
    }
}

/// The `lines` format: `START..END U+XXXX`, or `START..END U+FFFD KIND` for
/// an error, one unit a line; C2 A9 41 E2 82 is ©, A, then a sequence cut
/// by the end of the message (error row 3).
#[test]
fn lines_format_is_exact() {
    let expected = "0..2 U+00A9\n2..3 U+0041\n3..5 U+FFFD truncated\n";
    let input = [0xC2, 0xA9, 0x41, 0xE2, 0x82];
    let got = success(utf8hdl(&["reference", "--format", "lines", "-"], &input));
    assert_eq!(String::from_utf8(got).unwrap(), expected);
    // lines is the default format.
    let got = success(utf8hdl(&["reference", "-"], &input));
    assert_eq!(String::from_utf8(got).unwrap(), expected);
}

/// The `lines` format names every error kind of the table of error kinds.
#[test]
fn lines_format_names_every_error_kind() {
    let input = [0xFE, 0x80, 0xE2, 0x41, 0xC0, 0xED, 0xA0, 0xF5];
    let expected = "0..1 U+FFFD invalid_byte\n\
                    1..2 U+FFFD unexpected_continuation\n\
                    2..3 U+FFFD truncated\n\
                    3..4 U+0041\n\
                    4..5 U+FFFD overlong\n\
                    5..6 U+FFFD surrogate\n\
                    6..7 U+FFFD unexpected_continuation\n\
                    7..8 U+FFFD out_of_range\n";
    let got = success(utf8hdl(&["reference", "-"], &input));
    assert_eq!(String::from_utf8(got).unwrap(), expected);
}

/// `utf8hdl reference` with no INPUT decodes the embedded sample in the
/// default lines format: the spans tile the sample and the values are
/// CPython's decoding of it.
#[test]
fn reference_without_input_prints_the_sample_as_lines() {
    let got = String::from_utf8(success(utf8hdl(&["reference"], b""))).unwrap();
    let mut offset = 0;
    let mut values = Vec::new();
    for line in got.lines() {
        let (span, rest) = line.split_once(' ').unwrap();
        let (start, end) = span.split_once("..").unwrap();
        assert_eq!(start.parse::<usize>().unwrap(), offset, "{line}");
        offset = end.parse().unwrap();
        let hex = rest.split(' ').next().unwrap().strip_prefix("U+").unwrap();
        values.extend(u32::from_str_radix(hex, 16).unwrap().to_be_bytes());
    }
    assert_eq!(offset, sample().len());
    if let Some(expected) = python_decode(&sample(), "utf-32-be") {
        assert!(values == expected);
    }
}

/// `--profile iso10646`: Annex R Table 3's five- and six-byte rows are
/// characters (rfc3629 calls them out_of_range); on input without F5–FD
/// and F4 90–BF the profile agrees with CPython.
#[test]
fn iso10646_profile() {
    let input = [
        0xF8, 0x88, 0x80, 0x80, 0x80, 0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF,
    ];
    let got = success(utf8hdl(
        &["reference", "--profile", "iso10646", "-"],
        &input,
    ));
    assert_eq!(
        String::from_utf8(got).unwrap(),
        "0..5 U+200000\n5..11 U+7FFFFFFF\n"
    );
    let iso10646_ucs4be = |input: &[u8]| {
        let args = [
            "reference",
            "--profile",
            "iso10646",
            "--format",
            "ucs4be",
            "-",
        ];
        success(utf8hdl(&args, input))
    };
    assert_eq!(
        iso10646_ucs4be(&input),
        [0x00, 0x20, 0x00, 0x00, 0x7F, 0xFF, 0xFF, 0xFF]
    );
    let got = success(utf8hdl(&["reference", "--profile", "rfc3629", "-"], &input));
    let got = String::from_utf8(got).unwrap();
    assert!(got.starts_with("0..1 U+FFFD out_of_range\n1..2 U+FFFD unexpected_continuation\n"));

    let demo = data("UTF-8-demo.txt");
    let mut rng = Rng(42);
    let mut random = rng.biased_bytes(5000);
    random.retain(|b| !(0xF4..=0xFD).contains(b));
    for message in [demo, random] {
        let Some(expected) = python_decode(&message, "utf-32-be") else {
            return;
        };
        assert!(iso10646_ucs4be(&message) == expected);
    }
}

/// A missing input file: exit 2, one line on stderr naming it, nothing on
/// stdout.
#[test]
fn missing_input_exits_2_with_one_line() {
    let dir = temp_dir();
    let missing = dir.path().join("no-such-file.bin");
    let line = usage_failure(utf8hdl(&["reference", path_str(&missing)], b""));
    assert!(line.contains("no-such-file.bin"), "{line}");
}

/// A directory as input: exit 2 with one line.
#[test]
fn directory_input_exits_2_with_one_line() {
    let dir = temp_dir();
    usage_failure(utf8hdl(&["reference", path_str(dir.path())], b""));
}

/// An unknown flag: exit 2 with one line, for the subcommand and the
/// program.
#[test]
fn unknown_flag_exits_2_with_one_line() {
    usage_failure(utf8hdl(&["reference", "--bogus"], b""));
    usage_failure(utf8hdl(&["--bogus"], b""));
}

/// An unknown profile or format value: exit 2 with one line.
#[test]
fn bad_profile_or_format_exits_2_with_one_line() {
    usage_failure(utf8hdl(&["reference", "--profile", "utf16", "-"], b"A"));
    usage_failure(utf8hdl(&["reference", "--profile", "", "-"], b"A"));
    usage_failure(utf8hdl(&["reference", "--format", "utf16", "-"], b"A"));
}

/// `--lanes` takes the lane counts of the family (1, 2, 4, 8, 16, 32) on
/// every command that builds a core; anything else is a usage error, and
/// so are null lanes for a core without `s_axis_tkeep`. `--lanes 1` is the
/// default.
#[test]
fn lanes_are_a_lane_count_of_the_family() {
    for command in ["sim", "verilog", "synth", "bench", "wave", "formal"] {
        for lanes in ["3", "64", "0", "x"] {
            let line = usage_failure(utf8hdl(&[command, "--lanes", lanes], b""));
            assert!(
                line.contains("--lanes"),
                "{command} --lanes {lanes}: {line}"
            );
        }
    }
    let line = usage_failure(utf8hdl(&["sim", "-", "--null-lanes", "0.5"], b"A"));
    assert!(line.contains("s_axis_tkeep"), "{line}");
    let default = utf8hdl(&["verilog", "-o", "-"], b"");
    let one_lane = utf8hdl(&["verilog", "--lanes", "1", "-o", "-"], b"");
    assert!(default.status.success() && one_lane.status.success());
    assert_eq!(default.stdout, one_lane.stdout);
}

/// `verilog --lanes N` writes the N-lane core as `utf8_decoder_xN.v` (or
/// `utf8_decoder_iso10646_xN.v`), its one module named so, with the wide
/// ports in its header.
#[test]
fn verilog_names_the_wide_cores_by_their_lanes() {
    let dir = temp_dir();
    for (lanes, profile, top) in [
        ("2", "rfc3629", "utf8_decoder_x2"),
        ("16", "iso10646", "utf8_decoder_iso10646_x16"),
    ] {
        let out = run(
            std::process::Command::new(env!("CARGO_BIN_EXE_utf8hdl"))
                .current_dir(dir.path())
                .args(["verilog", "--lanes", lanes, "--profile", profile]),
            b"",
        )
        .unwrap();
        exited_0(&out);
        let text = std::fs::read_to_string(dir.path().join(format!("{top}.v"))).unwrap();
        assert_eq!(text.matches("\nmodule ").count(), 1);
        assert!(text.contains(&format!("\nmodule {top}(")), "{top}");
        let n: usize = lanes.parse().unwrap();
        assert!(
            text.contains(&format!("input  [{}:0] s_axis_tdata", 8 * n - 1)),
            "{top}"
        );
        assert!(
            text.contains(&format!("output [{}:0] m_axis_tdata", 32 * n - 1)),
            "{top}"
        );
    }
}

/// `verilog --all --dir D` writes every core into D, as `--profile P
/// --lanes N` would one by one, each with its FuseSoC core file; `--all` needs `--dir` and takes no core
/// or output of its own.
#[test]
fn verilog_all_writes_every_core_into_its_dir() {
    for args in [
        &["verilog", "--all"][..],
        &["verilog", "--dir", "x"],
        &["verilog", "--all", "--dir", "x", "--lanes", "2"],
        &["verilog", "--all", "--dir", "x", "--profile", "iso10646"],
        &["verilog", "--all", "--dir", "x", "-o", "y.v"],
    ] {
        let line = usage_failure(utf8hdl(args, b""));
        assert!(line.contains("--"), "{args:?}: {line}");
    }
    let dir = temp_dir();
    let out_dir = dir.path().join("rtl");
    let all = utf8hdl(
        &["verilog", "--all", "--dir", out_dir.to_str().unwrap()],
        b"",
    );
    exited_0(&all);
    let mut names: Vec<String> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let cores = utf8hdl_synth::verilog::all_cores().count();
    assert_eq!(names.len(), 2 * cores, "a .v and a .core a core: {names:?}");
    assert!(
        names.contains(&"utf16_decoder.core".to_string()),
        "{names:?}"
    );
    let one = utf8hdl(
        &[
            "verilog",
            "--profile",
            "iso10646",
            "--lanes",
            "2",
            "-o",
            "-",
        ],
        b"",
    );
    assert_eq!(
        std::fs::read(out_dir.join("utf8_decoder_iso10646_x2.v")).unwrap(),
        one.stdout
    );
    let encoder = utf8hdl(&["verilog", "--core", "encoder", "-o", "-"], b"");
    assert_eq!(
        std::fs::read(out_dir.join("utf8_encoder.v")).unwrap(),
        encoder.stdout
    );
}

/// `--core` names a core of the family; the encoder has one lane, the
/// UTF-16 and properties cores one lane and one profile, and any other
/// count or profile is one line and exit status 2, with no file written.
#[test]
fn core_names_the_family_member_and_its_lanes() {
    let dir = temp_dir();
    let out = dir.path().join("encoder.v");
    for args in [
        &["verilog", "--core", "nope"][..],
        &[
            "verilog",
            "--core",
            "encoder",
            "--lanes",
            "2",
            "-o",
            path_str(&out),
        ],
        &["synth", "--core", "encoder", "--lanes", "4"],
        &[
            "verilog",
            "--core",
            "utf16-decoder",
            "--profile",
            "iso10646",
            "-o",
            path_str(&out),
        ],
        &["formal", "--core", "properties", "--profile", "iso10646"],
        &["formal", "--core", "utf16-encoder", "--lanes", "2"],
    ] {
        let line = usage_failure(utf8hdl(args, b""));
        assert!(
            line.contains("core") || line.contains("encoder"),
            "{args:?}: {line}"
        );
    }
    assert!(entries(dir.path()).is_empty(), "{:?}", entries(dir.path()));
    let written = utf8hdl(&["verilog", "--core", "encoder", "-o", path_str(&out)], b"");
    assert!(written.status.success());
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("module utf8_encoder("), "{text}");
    let latency = format!(
        "// utf8hdl-latency: {}\n",
        <utf8hdl_sim::cores::utf8_encoder::Encoder as utf8hdl_sim::core::Core>::LATENCY
    );
    assert!(
        text.contains(&latency),
        "the header carries the description's latency"
    );
}

/// `--output PATH` is written only by a successful run: a failing run (a
/// missing or unreadable input) leaves nothing at PATH and nothing else in
/// its directory.
#[test]
fn failed_run_leaves_no_output_file() {
    let dir = temp_dir();
    let out = dir.path().join("out.txt");
    let missing = dir.path().join("missing.bin");
    usage_failure(utf8hdl(
        &["reference", "--output", path_str(&out), path_str(&missing)],
        b"",
    ));
    assert!(!out.exists(), "{} was created", out.display());
    let inputs = temp_dir();
    usage_failure(utf8hdl(
        &[
            "reference",
            "--output",
            path_str(&out),
            path_str(inputs.path()),
        ],
        b"",
    ));
    assert!(!out.exists(), "{} was created", out.display());
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// `--output PATH` on success writes the whole output to PATH (replacing
/// what was there) and nothing to stdout.
#[test]
fn successful_run_writes_output_file() {
    let dir = temp_dir();
    let out = dir.path().join("out.txt");
    std::fs::write(&out, "old contents\n").unwrap();
    let input = [0xC2, 0xA9, 0x41, 0xE2, 0x82];
    let stdout = success(utf8hdl(&["reference", "-o", path_str(&out), "-"], &input));
    assert!(stdout.is_empty());
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "0..2 U+00A9\n2..3 U+0041\n3..5 U+FFFD truncated\n"
    );

    let test = data("UTF-8-test.txt");
    let out = dir.path().join("test.ucs4be");
    let stdout = success(utf8hdl(
        &[
            "reference",
            "--format",
            "ucs4be",
            "--output",
            path_str(&out),
            "-",
        ],
        &test,
    ));
    assert!(stdout.is_empty());
    if let Some(expected) = python_decode(&test, "utf-32-be") {
        assert!(std::fs::read(&out).unwrap() == expected);
    }
}

// The CLI under hostile use. Each test asserts the exit status,
// the line on stderr, and what is (not) left on disk.

/// A reader that goes away (`utf8hdl reference big | head -1`) stops the
/// program quietly: nothing on stderr, exit status 141 (128 + SIGPIPE, what
/// a shell reports for `cat` in the same place), and no file left.
#[test]
fn a_closed_pipe_stops_quietly() {
    use std::io::BufRead;
    let dir = temp_dir();
    let input = dir.path().join("big");
    std::fs::write(&input, Rng(6).biased_bytes(2_000_000)).unwrap();
    // sim on rust-hdl's engine: `--engine auto` would say it chose
    // Verilator for so large an input.
    for command in [&["reference"][..], &["sim", "--engine", "rust-hdl"]] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_utf8hdl"))
            .args(command)
            .arg(path_str(&input))
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert!(first.starts_with("0.."), "{first:?}");
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(141), "{command:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{command:?}");
        assert_eq!(entries(dir.path()), ["big"]);
    }
}

/// Runs `utf8hdl` with `args` under `umask`.
fn utf8hdl_with_umask(umask: &str, args: &[&str]) -> std::process::Output {
    run(
        std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("umask {umask}; exec \"$0\" \"$@\""))
            .arg(env!("CARGO_BIN_EXE_utf8hdl"))
            .args(args),
        b"A",
    )
    .unwrap()
}

/// A new output file gets 0666 less the umask; an existing file keeps its
/// mode; an output path that is a symbolic link (to an existing file or to
/// none yet, in another directory) writes the link's target and leaves the
/// link, with nothing else in either directory.
#[test]
fn outputs_keep_the_umask_the_mode_and_symbolic_links() {
    use std::os::unix::fs::{symlink, PermissionsExt};
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let dir = temp_dir();
    let d = dir.path();
    for (umask, expected) in [("027", 0o640), ("077", 0o600), ("002", 0o664)] {
        let out = d.join(format!("new-{umask}"));
        success(utf8hdl_with_umask(
            umask,
            &["reference", "-", "-o", path_str(&out)],
        ));
        assert_eq!(mode(&out), expected, "umask {umask}");
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "0..1 U+0041\n");
    }
    for existing in [0o600, 0o640, 0o604] {
        let out = d.join(format!("old-{existing:o}"));
        std::fs::write(&out, "old").unwrap();
        std::fs::set_permissions(&out, std::fs::Permissions::from_mode(existing)).unwrap();
        success(utf8hdl_with_umask(
            "022",
            &["reference", "-", "-o", path_str(&out)],
        ));
        assert_eq!(mode(&out), existing);
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "0..1 U+0041\n");
    }

    let links = temp_dir();
    let targets = temp_dir();
    std::fs::write(targets.path().join("existing"), "old").unwrap();
    std::fs::set_permissions(
        targets.path().join("existing"),
        std::fs::Permissions::from_mode(0o600),
    )
    .unwrap();
    for name in ["existing", "new"] {
        let link = links.path().join(format!("to-{name}"));
        symlink(targets.path().join(name), &link).unwrap();
        success(utf8hdl_with_umask(
            "022",
            &["reference", "-", "-o", path_str(&link)],
        ));
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(
            std::fs::read_link(&link).unwrap(),
            targets.path().join(name)
        );
        let target = targets.path().join(name);
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "0..1 U+0041\n");
        assert_eq!(mode(&target), if name == "new" { 0o644 } else { 0o600 });
    }
    assert_eq!(entries(links.path()), ["to-existing", "to-new"]);
    assert_eq!(entries(targets.path()), ["existing", "new"]);
}

/// `--format table` never prints a character a terminal would act on: C0
/// and C1 controls (CSI U+009B, NEL U+0085), DEL, format characters (bidi
/// overrides such as U+202E), line and paragraph separators. Every such
/// character of the BMP and the tag block comes out escaped: none of the
/// table's characters is in CPython's categories Cc, Cf, Zl or Zp, and
/// each row's character column is filled (nothing vanishes).
#[test]
fn table_shows_controls_and_format_characters_as_escapes() {
    let code_points: Vec<char> = (0..=0xFFFF)
        .chain(0xE0000..=0xE007F)
        .filter_map(char::from_u32)
        .collect();
    let input: String = code_points.iter().collect();
    let out = utf8hdl(&["reference", "--format", "table", "-"], input.as_bytes());
    let table = String::from_utf8(success(out)).unwrap();
    for raw in [
        '\u{9B}', '\u{85}', '\u{202E}', '\u{1B}', '\u{2028}', '\u{FEFF}',
    ] {
        assert!(!table.contains(raw), "U+{:04X} printed raw", raw as u32);
    }
    for (escape, code_point) in [
        ("\\u{9b}", "U+009B"),
        ("\\u{85}", "U+0085"),
        ("\\u{202e}", "U+202E"),
    ] {
        let row = table.lines().find(|l| l.contains(code_point)).unwrap();
        assert!(row.ends_with(escape), "{row}");
    }
    let rows: Vec<&str> = table.lines().skip(1).collect();
    assert_eq!(rows.len(), code_points.len());
    for (row, c) in rows.iter().zip(&code_points) {
        // offset, bytes, U+XXXX, then the character column.
        let after = row.split_once(&format!("U+{:04X}", *c as u32)).unwrap().1;
        assert!(
            !after.trim_matches(' ').is_empty() || *c == ' ',
            "U+{:04X} vanished: {row:?}",
            *c as u32
        );
    }
    if let Some(raw) = python_controls(&table) {
        assert!(raw.is_empty(), "printed raw: {raw:?}");
    }
}

/// I/O errors are one line that names the path the user gave, once, and
/// never a temporary file; usage errors keep clap's possible values.
#[test]
fn io_errors_name_the_path_once_and_never_a_temporary_file() {
    let dir = temp_dir();
    let d = dir.path();
    std::fs::create_dir(d.join("a-directory")).unwrap();
    let said_once = |line: &str| {
        let parts: Vec<&str> = line.trim_end().split(": ").collect();
        parts.windows(2).all(|w| w[0] != w[1]) && line.matches("os error").count() <= 1
    };
    let a_directory = d.join("a-directory");
    let no_directory = d.join("no-dir/out");
    let mut cases = vec![
        ("reference", path_str(&a_directory)),
        ("reference", path_str(&no_directory)),
        // /proc refuses new files: the temporary file cannot be made.
        ("reference", "/proc/utf8hdl-out"),
    ];
    if std::path::Path::new("/dev/full").exists() {
        cases.extend([("verilog", "/dev/full"), ("reference", "/dev/full")]);
    } else {
        skip_without("/dev/full", "the check of a full device");
    }
    for (command, path) in cases {
        let line = usage_failure(utf8hdl(&[command, "-o", path], b""));
        assert!(line.contains(&format!("'{path}'")), "{line}");
        // (The test's own directory is a .tmpXXXXXX too.)
        assert!(!line.replace(path, "").contains(".tmp"), "{line}");
        assert!(said_once(&line), "{line}");
    }
    assert_eq!(entries(d), ["a-directory"]);
    assert!(entries(&d.join("a-directory")).is_empty());

    if std::path::Path::new("/dev/full").exists() {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_utf8hdl"))
            .arg("reference")
            .stdout(
                std::fs::OpenOptions::new()
                    .write(true)
                    .open("/dev/full")
                    .unwrap(),
            )
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let line = String::from_utf8(out.stderr).unwrap();
        assert!(
            line.contains("standard output") && said_once(&line),
            "{line}"
        );
    }

    let line = usage_failure(utf8hdl(&["reference", "--format", "utf16"], b""));
    assert!(
        line.contains("[possible values: ucs4be, ucs4le, utf16be, utf16le, lines, table]"),
        "{line}"
    );
    let line = usage_failure(utf8hdl(&["sim", "--stats", "yaml"], b""));
    assert!(line.contains("[possible values: json]"), "{line}");
}

/// `wave --lanes 2` draws the wide core's figures, the same as the
/// committed ones of the guide; a lane count with no figure is one line,
/// exit 2, and nothing written.
#[test]
fn wave_draws_the_figures_of_the_lanes_asked_for() {
    let dir = temp_dir();
    let out = String::from_utf8(success(utf8hdl(
        &["wave", "--lanes", "2", "--dir", path_str(dir.path())],
        b"",
    )))
    .unwrap();
    let committed = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/figures");
    let mut drawn = entries(dir.path());
    drawn.sort();
    assert_eq!(
        drawn,
        ["wide_broken.svg", "wide_packing.svg", "wide_sparse.svg"],
        "{out}"
    );
    for name in drawn {
        let fresh = std::fs::read(dir.path().join(&name)).unwrap();
        assert!(
            fresh == std::fs::read(committed.join(&name)).unwrap(),
            "{name}"
        );
    }
    let empty = temp_dir();
    let line = usage_failure(utf8hdl(
        &["wave", "--lanes", "4", "--dir", path_str(empty.path())],
        b"",
    ));
    assert!(line.contains("4-lane"), "{line}");
    assert!(entries(empty.path()).is_empty());
}

/// The boards `synth --board` builds, each in its lines and echo modes.
const BOARD_NAMES: [&str; 6] = [
    "icebreaker",
    "icebreaker-echo",
    "tangnano9k",
    "tangnano9k-echo",
    "ulx3s",
    "ulx3s-echo",
];

/// `synth --board` builds a board's demo of the 1-lane decoder, in either
/// profile: a `--core` or `--lanes` naming another core is one line that
/// names the flag, exit 2, before any tool runs and with nothing written.
#[test]
fn board_builds_only_the_one_lane_decoder() {
    let dir = temp_dir();
    let build = dir.path().join("build");
    for board in BOARD_NAMES {
        for (flag, value) in [
            ("--core", "encoder"),
            ("--core", "utf16-decoder"),
            ("--core", "properties"),
            ("--lanes", "2"),
            ("--lanes", "32"),
        ] {
            let args = [
                "synth",
                "--board",
                board,
                "--dir",
                path_str(&build),
                "--profile",
                "rfc3629",
                flag,
                value,
            ];
            let line = usage_failure(utf8hdl(&args, b""));
            assert!(
                line.contains(&format!("{flag} {value}")) && line.contains("1-lane decoder"),
                "{args:?}: {line}"
            );
        }
    }
    assert!(entries(dir.path()).is_empty(), "{:?}", entries(dir.path()));
}

/// An unknown board, or a board's name misspelt, is one line that lists
/// every board, exit 2, with nothing written; so is `--board` with
/// `--record` (a board build is not a measured record).
#[test]
fn unknown_board_exits_2_and_lists_the_boards() {
    let dir = temp_dir();
    let build = dir.path().join("build");
    for board in ["tangnano", "ulx3s_echo", "ICEBREAKER", ""] {
        let line = usage_failure(utf8hdl(
            &["synth", "--board", board, "--dir", path_str(&build)],
            b"",
        ));
        assert!(
            BOARD_NAMES.iter().all(|name| line.contains(name)),
            "{board:?}: {line}"
        );
    }
    let line = usage_failure(utf8hdl(
        &[
            "synth",
            "--board",
            "ulx3s",
            "--record",
            "--dir",
            path_str(&build),
        ],
        b"",
    ));
    assert!(line.contains("--record"), "{line}");
    assert!(entries(dir.path()).is_empty(), "{:?}", entries(dir.path()));
}
