//! The worked examples of the seed specifications in /work/shared/seeds:
//! ISO/IEC 10646-1 Amd. 2 Annex R Tables 2 and 3 (parsed from the seed
//! file), RFC 2044 §3's three examples, and the utf-8(7) man page's two.
//! Each transcribed example is also looked up in its seed file, so a typo in
//! the transcription fails the test.

use std::path::PathBuf;

use utf8hdl_hdl::Profile::{self, Iso10646, Rfc3629};
use utf8hdl_sim::reference::{decode, encode, Unit};

/// The seed file `name`, found from this crate (../../shared/seeds).
fn seed(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/seeds")
        .join(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("seed file {} is missing: {e}", path.display()))
}

fn annex_r() -> String {
    seed("iso10646-1-amd2-annex-r.txt")
}

/// The lines of `text` from the one starting with `from` up to (not
/// including) the one starting with `to`.
fn section<'a>(text: &'a str, from: &str, to: &str) -> Vec<&'a str> {
    let start = text
        .lines()
        .position(|l| l.starts_with(from))
        .unwrap_or_else(|| panic!("no line starting with {from:?}"));
    text.lines()
        .skip(start + 1)
        .take_while(|l| !l.starts_with(to))
        .collect()
}

/// One example: a UCS-4 value and its UTF-8 octets.
type Example = (u32, Vec<u8>);

/// Annex R Table 3 ("Examples in hexadecimal notation"): rows like
/// `0000 0080; \t C2; 80;`.
fn table3() -> Vec<Example> {
    let text = annex_r();
    section(&text, "Table 3 -", "Table 2 -")
        .into_iter()
        .filter_map(|line| {
            let (ucs4, utf8) = line.split_once(';')?;
            let ucs4 = ucs4.trim().replace(' ', "");
            let value = u32::from_str_radix(&ucs4, 16).ok()?;
            let octets = utf8
                .split(';')
                .map(str::trim)
                .filter(|o| !o.is_empty())
                .map(|o| u8::from_str_radix(o, 16).unwrap())
                .collect();
            Some((value, octets))
        })
        .collect()
}

/// Annex R Table 2 ("Examples in binary notation"): rows like
/// `00000000 00000000 00000000 10000000; \t11000010; 10000000;`.
fn table2() -> Vec<Example> {
    let text = annex_r();
    section(&text, "Table 2 -", "R.3 Notation")
        .into_iter()
        .filter_map(|line| {
            let (ucs4, utf8) = line.split_once(';')?;
            let ucs4 = ucs4.replace(' ', "");
            if ucs4.len() != 32 {
                return None;
            }
            let value = u32::from_str_radix(&ucs4, 2).ok()?;
            let octets = utf8
                .split(';')
                .map(str::trim)
                .filter(|o| !o.is_empty())
                .map(|o| {
                    assert_eq!(o.len(), 8, "octet {o:?}");
                    u8::from_str_radix(o, 2).unwrap()
                })
                .collect();
            Some((value, octets))
        })
        .collect()
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
fn assert_row_both_ways(value: u32, octets: &[u8]) {
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
    let rows = table3();
    assert_eq!(rows.len(), 13, "Table 3 has 13 rows: {rows:X?}");
    assert_eq!(rows[0], (0x1, vec![0x01]));
    assert_eq!(
        rows[12],
        (0x7FFF_FFFF, vec![0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF])
    );
    for (value, octets) in &rows {
        assert_row_both_ways(*value, octets);
    }
}

/// Annex R Table 2 (binary examples), every row in both directions; it
/// shows the same code positions as Table 3 except U+10FFFF.
#[test]
fn annex_r_table_2_both_directions() {
    let rows = table2();
    assert_eq!(rows.len(), 12, "Table 2 has 12 rows: {rows:X?}");
    let mut table3 = table3();
    table3.retain(|(value, _)| *value != 0x10_FFFF);
    assert_eq!(rows, table3, "Tables 2 and 3 disagree");
    for (value, octets) in &rows {
        assert_row_both_ways(*value, octets);
    }
}

/// RFC 2044 §3 (the Japanese translation in the seeds): "A≢Α." is
/// 41 E2 89 A2 CE 91 2E; "Hi Mom ☺!" is 48 69 20 4D 6F 6D 20 E2 98 BA 21;
/// "日本語" is E6 97 A5 E6 9C AC E8 AA 9E. Checked in both profiles and both
/// directions.
#[test]
fn rfc2044_section_3_examples() {
    let text = seed("rfc2044-ja.txt");
    let examples: [(&str, &str, &[u32], &str); 3] = [
        (
            "(0041, 2262, 0391,",
            "41 E2 89 A2 CE 91 2E",
            &[0x0041, 0x2262, 0x0391, 0x002E],
            "A≢Α.",
        ),
        (
            "(0048, 0069, 0020,",
            "48 69 20 4D 6F 6D 20 E2 98 BA 21",
            &[
                0x0048, 0x0069, 0x0020, 0x004D, 0x006F, 0x006D, 0x0020, 0x263A, 0x0021,
            ],
            "Hi Mom ☺!",
        ),
        (
            "(65E5, 672C, 8A9E)",
            "E6 97 A5 E6 9C AC E8 AA 9E",
            &[0x65E5, 0x672C, 0x8A9E],
            "日本語",
        ),
    ];
    for (values_text, hex, values, string) in examples {
        assert!(text.contains(values_text), "seed lacks {values_text:?}");
        assert!(text.contains(hex), "seed lacks {hex:?}");
        let bytes: Vec<u8> = hex
            .split(' ')
            .map(|o| u8::from_str_radix(o, 16).unwrap())
            .collect();
        assert_eq!(bytes, string.as_bytes(), "Rust's UTF-8 for {string:?}");
        let std_values: Vec<u32> = string.chars().map(u32::from).collect();
        assert_eq!(std_values, values);
        for profile in Profile::ALL {
            assert_characters(&bytes, profile, values);
            let encoded: Vec<u8> = values
                .iter()
                .flat_map(|&v| encode(v, profile).unwrap())
                .collect();
            assert_eq!(encoded, bytes, "encoding {values:X?} in {profile}");
        }
    }
}

/// Kuhn's utf-8(7) man page: U+00A9 is C2 A9 and U+2260 is E2 89 A0.
#[test]
fn utf8_manpage_examples() {
    let text = seed("utf-8-manpage-kuhn.txt");
    for (value, octets, seed_text) in [
        (0xA9, &[0xC2, 0xA9][..], "0xc2 0xa9"),
        (0x2260, &[0xE2, 0x89, 0xA0][..], "0xe2 0x89 0xa0"),
    ] {
        assert!(text.contains(seed_text), "seed lacks {seed_text:?}");
        for profile in Profile::ALL {
            assert_eq!(encode(value, profile).as_deref(), Some(octets));
            assert_characters(octets, profile, &[value]);
        }
    }
}
