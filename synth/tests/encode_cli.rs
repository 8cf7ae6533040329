//! `utf8hdl encode`: UCS-4 or UTF-16 through the RTL encoders, against
//! independent sources: Rust's own UTF-8 (`char::encode_utf8`, U+FFFD for
//! a word with no character) and CPython's `decode('utf-16-be' or
//! 'utf-16-le', 'replace').encode('utf-8')`, skipped (with a message)
//! without python3 unless `UTF8HDL_REQUIRE_TOOLS=1`; and its refusals.

use std::process::Output;

use crate::common::*;

/// A successful `encode`: its stdout.
#[track_caller]
fn encoded(output: Output) -> Vec<u8> {
    exited_0(&output);
    output.stdout
}

/// `data.decode(codec, 'replace').encode('utf-8')` in python3, or `None`
/// (after saying so) when python3 is missing and not required.
fn python_to_utf8(data: &[u8], codec: &str) -> Option<Vec<u8>> {
    let script = format!(
        "import sys; sys.stdout.buffer.write(sys.stdin.buffer.read()\
         .decode('{codec}', 'replace').encode('utf-8'))"
    );
    utf8hdl_synth::tools::python3(&script, data).unwrap()
}

/// Random words of every length, surrogates and values past U+10FFFF, as
/// UCS-4 in both byte orders: Rust's UTF-8 of each, U+FFFD where a word
/// is no character.
#[test]
fn ucs4_in_both_byte_orders_is_rusts_utf8() {
    let mut rng = Rng(0x0C54);
    let words: Vec<u32> = (0..3000)
        .map(|_| match rng.next() % 4 {
            0 => 0xD800 + (rng.next() % 0x800) as u32,
            1 => (rng.next() as u32) >> (rng.next() % 32),
            _ => (rng.next() % 0x11_0000) as u32,
        })
        .collect();
    let expected: Vec<u8> = words
        .iter()
        .flat_map(|&w| {
            char::from_u32(w)
                .unwrap_or('\u{FFFD}')
                .to_string()
                .into_bytes()
        })
        .collect();
    let be: Vec<u8> = words.iter().flat_map(|w| w.to_be_bytes()).collect();
    let le: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    assert_eq!(
        encoded(utf8hdl(&["encode", "-", "--from", "ucs4be"], &be)),
        expected
    );
    assert_eq!(
        encoded(utf8hdl(&["encode", "-", "--from", "ucs4le"], &le)),
        expected
    );
}

/// Random code units, a third of them surrogates, in both byte orders:
/// CPython's UTF-8 of what its UTF-16 codec makes of them.
#[test]
fn utf16_in_both_byte_orders_is_cpythons_utf8() {
    let mut rng = Rng(0x16);
    let units: Vec<u16> = (0..4000)
        .map(|_| match rng.next() % 3 {
            0 => 0xD800 + (rng.next() % 0x800) as u16,
            _ => rng.next() as u16,
        })
        .collect();
    for (from, codec, bytes) in [
        (
            "utf16be",
            "utf-16-be",
            units
                .iter()
                .flat_map(|u| u.to_be_bytes())
                .collect::<Vec<u8>>(),
        ),
        (
            "utf16le",
            "utf-16-le",
            units.iter().flat_map(|u| u.to_le_bytes()).collect(),
        ),
    ] {
        let Some(cpython) = python_to_utf8(&bytes, codec) else {
            return;
        };
        assert_eq!(
            encoded(utf8hdl(&["encode", "-", "--from", from], &bytes)),
            cpython,
            "{from}"
        );
    }
}

/// iso10646 encodes what rfc3629 replaces: U+110000 is F4 90 80 80 there,
/// and EF BF BD in rfc3629, flagged as out of range in the JSON summary.
#[test]
fn the_profile_decides_what_is_encodable() {
    let word = 0x11_0000u32.to_be_bytes();
    let args = ["encode", "-", "--from", "ucs4be", "--profile", "iso10646"];
    assert_eq!(encoded(utf8hdl(&args, &word)), [0xF4, 0x90, 0x80, 0x80]);
    let output = utf8hdl(
        &["encode", "-", "--from", "ucs4be", "--stats", "json"],
        &word,
    );
    let stderr = String::from_utf8(output.stderr.clone()).unwrap();
    assert_eq!(encoded(output), [0xEF, 0xBF, 0xBD]);
    let json: serde_json::Value = serde_json::from_str(stderr.lines().last().unwrap()).unwrap();
    assert_eq!(json["errors"], 1, "{json}");
    assert_eq!(json["agree"], true, "{json}");
    // The counts are named for what the encoder reads and writes, and the
    // kinds are the two an encoder can report.
    assert_eq!(
        (&json["words"], &json["sequences"]),
        (&1.into(), &1.into()),
        "{json}"
    );
    assert_eq!(
        json["words_per_cycle"].as_f64().map(|r| r > 0.0),
        Some(true),
        "{json}"
    );
    assert_eq!(json.get("bytes"), None, "{json}");
    let kinds = json["errors_by_kind"].as_object().unwrap();
    assert_eq!(
        kinds.keys().collect::<Vec<_>>(),
        ["out_of_range", "surrogate"],
        "{json}"
    );
    assert_eq!(kinds["out_of_range"], 1, "{json}");
    let text = stderr.lines().find(|l| l.contains("errors")).unwrap();
    assert_eq!(
        text,
        "utf8_encoder: words 1, sequences 1, errors 1 (out_of_range 1)"
    );
}

/// A trailing partial word or code unit is one line on stderr and exit
/// status 2, and no output file is left; so is a missing input.
#[test]
fn a_partial_unit_or_a_missing_input_writes_nothing() {
    let dir = temp_dir();
    let out = dir.path().join("out.txt");
    for (from, bytes) in [("ucs4be", &b"\0\0\0A\0"[..]), ("utf16le", &b"A\0B"[..])] {
        let line = usage_failure(utf8hdl(
            &["encode", "-", "--from", from, "-o", path_str(&out)],
            bytes,
        ));
        assert!(line.contains("partial"), "{line}");
    }
    let missing = dir.path().join("missing");
    let line = usage_failure(utf8hdl(
        &[
            "encode",
            path_str(&missing),
            "--from",
            "utf16be",
            "-o",
            path_str(&out),
        ],
        b"",
    ));
    assert!(line.contains("missing"), "{line}");
    usage_failure(utf8hdl(&["encode", "-", "--from", "utf8"], b""));
    assert!(entries(dir.path()).is_empty(), "{:?}", entries(dir.path()));
}

/// Without INPUT, `encode` reads standard input; `--vcd` records the UTF-8
/// encoder's run, and its m_axis handshakes, read back as a waveform
/// viewer would, spell the octets written, each with its flag (set on the
/// EF BF BD of a word with no character) and tlast on the last. `--vcd`
/// and `-o` on one path are refused before anything is written.
#[test]
fn vcd_handshakes_spell_the_encoded_octets() {
    let dir = temp_dir();
    let (out, vcd) = (dir.path().join("out"), dir.path().join("enc.vcd"));
    let words = [0x41u32, 0xE9, 0xD800, 0x20AC, 0x1F600, 0x11_0000, 0x7A];
    let input: Vec<u8> = words.iter().flat_map(|w| w.to_be_bytes()).collect();
    let args = [
        "encode",
        "--from",
        "ucs4be",
        "-o",
        path_str(&out),
        "--vcd",
        path_str(&vcd),
    ];
    encoded(utf8hdl(&args, &input));
    let mut expected = Vec::new();
    for &word in &words {
        let (c, flag) = char::from_u32(word).map_or(('\u{FFFD}', 1), |c| (c, 0));
        expected.extend(
            c.to_string()
                .bytes()
                .map(|octet| (u32::from(octet), flag, false)),
        );
    }
    expected.last_mut().unwrap().2 = true;
    assert_eq!(handshakes(&vcd, "utf8_encoder"), expected);
    let octets: Vec<u8> = expected.iter().map(|&(octet, _, _)| octet as u8).collect();
    assert_eq!(std::fs::read(&out).unwrap(), octets);
    let same = dir.path().join("same");
    let args = [
        "encode",
        "--from",
        "ucs4be",
        "-o",
        path_str(&same),
        "--vcd",
        path_str(&same),
    ];
    let line = usage_failure(utf8hdl(&args, &input));
    assert!(line.contains("same destination"), "{line}");
    assert!(!same.exists());
}

/// `--engine verilator` runs the chain on Verilator models of the exported
/// Verilog: UTF-16 in, CPython's UTF-8 out, as on rust-hdl's engine.
#[test]
#[ignore = "slow: Verilator models of the encoder"]
fn verilator_engine_encodes_as_cpython() {
    if !utf8hdl_synth::tools::require_all(&utf8hdl_synth::verilator::TOOLS) {
        return;
    }
    let mut rng = Rng(21);
    let units: Vec<u8> = (0..3000)
        .flat_map(|_| {
            let r = rng.next();
            let unit = match r % 4 {
                0 => 0xD800 + (r >> 8) as u16 % 0x800,
                _ => (r >> 8) as u16,
            };
            unit.to_be_bytes()
        })
        .collect();
    let Some(expected) = python_to_utf8(&units, "utf-16-be") else {
        return;
    };
    let args = ["encode", "-", "--from", "utf16be", "--engine", "verilator"];
    assert_eq!(encoded(utf8hdl(&args, &units)), expected);
}
