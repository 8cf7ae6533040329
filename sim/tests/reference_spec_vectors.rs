//! The worked examples of the specifications, from
//! `testbench/data/spec-vectors.txt`: ISO/IEC 10646-1:1993 Amd. 2 Annex R
//! Tables 2 and 3, RFC 2044 §3 and the utf-8(7) man page. Each example is
//! checked in both directions against the reference decoder and encoder.
//! The transcription itself is checked independently: Table 2 (binary)
//! and Table 3 (hexadecimal) must agree, and every example up to U+10FFFF
//! must be what Rust's own `char::encode_utf8` gives.

#[path = "../../testbench/data/paths.rs"]
mod paths;

use utf8hdl_hdl::Profile::{self, Iso10646, Rfc3629};
use utf8hdl_sim::reference::{decode, encode, Unit};

/// One example: the code points of some characters and their UTF-8 octets.
#[derive(Clone, Debug, PartialEq)]
struct Example {
    values: Vec<u32>,
    octets: Vec<u8>,
}

/// The examples of the section whose header contains `section`, with each
/// number read in `radix` (2 for Annex R Table 2, 16 elsewhere).
fn examples(section: &str, radix: u32) -> Vec<Example> {
    let text = String::from_utf8(paths::data("spec-vectors.txt")).unwrap();
    let mut in_section = false;
    let mut rows = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            in_section = line.contains(section);
        } else if in_section && !line.is_empty() && !line.starts_with('#') {
            let (values, octets) = line.split_once(';').expect("CODE POINTS ; OCTETS");
            let number = |digits: &str| u64::from_str_radix(&digits.replace(' ', ""), radix);
            rows.push(Example {
                values: values
                    .split(',')
                    .map(|v| number(v.trim()).unwrap().try_into().unwrap())
                    .collect(),
                octets: octets
                    .split_whitespace()
                    .map(|o| number(o).unwrap().try_into().unwrap())
                    .collect(),
            });
        }
    }
    assert!(!rows.is_empty(), "no section {section:?}");
    rows
}

/// Rust's UTF-8 for `values`, when they are all Unicode scalar values.
fn std_utf8(values: &[u32]) -> Option<Vec<u8>> {
    let text: Option<String> = values.iter().map(|&v| char::from_u32(v)).collect();
    text.map(String::into_bytes)
}

/// Asserts that `bytes` decode to exactly the characters `values` in
/// `profile`, one unit per character with spans following the bytes.
#[track_caller]
fn assert_characters(bytes: &[u8], profile: Profile, values: &[u32]) {
    let units = decode(bytes, profile);
    let got: Vec<u32> = units.iter().map(|u| u.value).collect();
    assert_eq!(got, values, "{bytes:02X?} in {profile}");
    assert!(
        units.iter().all(|u| u.error.is_none()),
        "{bytes:02X?}: {units:?}"
    );
    let mut offset = 0;
    for unit in &units {
        assert_eq!(unit.span.start, offset);
        offset = unit.span.end;
    }
    assert_eq!(offset, bytes.len());
}

/// Both directions for one table row: encode gives the row's octets and
/// decoding the octets gives one character of the row's value, in
/// iso10646; in rfc3629 too for rows up to U+10FFFF, else encode refuses
/// and decoding gives no character.
#[track_caller]
fn assert_row_both_ways(row: &Example) {
    let (value, octets) = (row.values[0], &row.octets[..]);
    assert_eq!(
        encode(value, Iso10646).as_deref(),
        Some(octets),
        "{value:X}"
    );
    assert_eq!(
        decode(octets, Iso10646),
        [Unit {
            value,
            span: 0..octets.len(),
            error: None
        }],
        "{octets:02X?}"
    );
    if value <= 0x10_FFFF {
        assert_eq!(
            std_utf8(&row.values).as_deref(),
            Some(octets),
            "Rust's UTF-8"
        );
        assert_eq!(encode(value, Rfc3629).as_deref(), Some(octets), "{value:X}");
        assert_characters(octets, Rfc3629, &[value]);
    } else {
        assert_eq!(encode(value, Rfc3629), None, "{value:X}");
        assert!(decode(octets, Rfc3629).iter().all(|u| u.error.is_some()));
    }
}

/// Annex R Table 3 (hexadecimal examples), every row in both directions.
#[test]
fn annex_r_table_3_both_directions() {
    let rows = examples("Table 3", 16);
    assert_eq!(rows.len(), 13, "Table 3 has 13 rows: {rows:X?}");
    assert_eq!(rows[12].values, [0x7FFF_FFFF]);
    for row in &rows {
        assert_eq!(row.values.len(), 1, "one character a row");
        assert_row_both_ways(row);
    }
}

/// Annex R Table 2 (binary examples), every row in both directions; it
/// shows the same code positions as Table 3 except U+10FFFF.
#[test]
fn annex_r_table_2_both_directions() {
    let rows = examples("Table 2", 2);
    assert_eq!(rows.len(), 12, "Table 2 has 12 rows: {rows:X?}");
    let mut table3 = examples("Table 3", 16);
    table3.retain(|row| row.values != [0x10_FFFF]);
    assert_eq!(rows, table3, "Tables 2 and 3 disagree");
    for row in &rows {
        assert_row_both_ways(row);
    }
}

/// Strings of characters (RFC 2044 §3, the utf-8(7) examples): Rust's
/// UTF-8 for the code points is the transcribed octets, and both profiles
/// decode and encode them exactly.
#[track_caller]
fn assert_strings(section: &str, count: usize) {
    let rows = examples(section, 16);
    assert_eq!(rows.len(), count, "{section}: {rows:X?}");
    for Example { values, octets } in rows {
        assert_eq!(std_utf8(&values).as_ref(), Some(&octets), "Rust's UTF-8");
        for profile in Profile::ALL {
            assert_characters(&octets, profile, &values);
            let encoded: Vec<u8> = values
                .iter()
                .flat_map(|&v| encode(v, profile).unwrap())
                .collect();
            assert_eq!(encoded, octets, "encoding {values:X?} in {profile}");
        }
    }
}

/// RFC 2044 §3: "A≢Α.", "Hi Mom ☺!" and "日本語".
#[test]
fn rfc2044_section_3_examples() {
    assert_strings("RFC 2044", 3);
}

/// Kuhn's utf-8(7) man page: U+00A9 is C2 A9 and U+2260 is E2 89 A0.
#[test]
fn utf8_manpage_examples() {
    assert_strings("utf-8(7)", 2);
}
