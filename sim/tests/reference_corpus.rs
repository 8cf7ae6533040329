//! The reference decoder on Markus Kuhn's corpus in /work/shared/corpus:
//! the "UTF-8 decoder capability and stress test" and the UTF-8 demo text.

use std::path::PathBuf;

use utf8hdl_hdl::{ErrorKind, Profile, REPLACEMENT};
use utf8hdl_sim::reference::{decode, Unit};

use ErrorKind::*;

/// The corpus file `name`, found from this crate (../../shared/corpus).
fn corpus(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "corpus file {} is missing ({e}); it ships with the shared corpus",
            path.display()
        )
    })
}

/// Spans are contiguous and cover the input exactly.
#[track_caller]
fn assert_spans_tile(input: &[u8], units: &[Unit]) {
    let mut offset = 0;
    for unit in units {
        assert_eq!(unit.span.start, offset, "{unit:?}");
        assert!(unit.span.end > offset, "{unit:?}");
        offset = unit.span.end;
    }
    assert_eq!(offset, input.len());
}

/// Unicode §3.9 / RFC 3629 §3: on the whole stress test, rfc3629 gives
/// exactly from_utf8_lossy's code points, with 378 error units: lossy's
/// U+FFFD count less the one literal U+FFFD the file holds (line 2.3.3,
/// EF BF BD), as the corpus README says.
#[test]
fn kuhn_stress_test_rfc3629_matches_from_utf8_lossy() {
    let input = corpus("UTF-8-test.txt");
    let units = decode(&input, Profile::Rfc3629);
    let lossy = String::from_utf8_lossy(&input);
    assert!(
        units
            .iter()
            .map(|u| u.value)
            .eq(lossy.chars().map(u32::from)),
        "rfc3629 differs from from_utf8_lossy"
    );
    assert_spans_tile(&input, &units);

    // Independently of the decoder: every U+FFFD of lossy is either a
    // replacement or a literal U+FFFD in a valid run.
    let literal = input
        .utf8_chunks()
        .map(|c| c.valid().chars().filter(|&c| c == '\u{FFFD}').count())
        .sum::<usize>();
    let lossy_replacements = lossy.chars().filter(|&c| c == '\u{FFFD}').count() - literal;
    assert_eq!(literal, 1, "the file's one literal U+FFFD (2.3.3)");
    assert_eq!(lossy_replacements, 378);

    let errors = units.iter().filter(|u| u.error.is_some()).count();
    assert_eq!(errors, 378);
    assert!(units
        .iter()
        .filter(|u| u.error.is_some())
        .all(|u| u.value == REPLACEMENT));
}

/// The bytes between the first pair of '"' on the line of the stress test
/// that starts with `id` (e.g. "3.3.6"), and their offset in the line.
fn quoted(input: &[u8], id: &str) -> (Vec<u8>, usize, Vec<u8>) {
    let prefix = format!("{id} ");
    let line = input
        .split(|&b| b == b'\n')
        .find(|l| l.starts_with(prefix.as_bytes()))
        .unwrap_or_else(|| panic!("no line {id} in UTF-8-test.txt"));
    let open = line.iter().position(|&b| b == b'"').unwrap() + 1;
    let close = open + line[open..].iter().position(|&b| b == b'"').unwrap();
    (line[open..close].to_vec(), open, line.to_vec())
}

fn err(kind: ErrorKind, start: usize, end: usize) -> Unit {
    Unit {
        value: REPLACEMENT,
        span: start..end,
        error: Some(kind),
    }
}

/// The error table's units for a lead that is overlong on its own or with
/// its second byte, followed by `continuations` bytes 80–BF.
fn overlong_then_continuations(continuations: usize) -> Vec<Unit> {
    let mut units = vec![err(Overlong, 0, 1)];
    units.extend((1..=continuations).map(|i| err(UnexpectedContinuation, i, i + 1)));
    units
}

/// Annex R with maximal subparts, in iso10646: sections 3.3.1–3.3.5 (last
/// byte missing from the U+0000 forms, all overlong) give one U+FFFD per
/// maximal subpart; 3.3.6–3.3.10 (last byte missing from the largest value
/// of each length) give exactly one truncated U+FFFD each.
#[test]
fn kuhn_stress_test_section_3_3_iso10646() {
    let input = corpus("UTF-8-test.txt");
    let cases: [(&str, &[u8], Vec<Unit>); 10] = [
        // C0: overlong as a lead (row 4).
        ("3.3.1", &[0xC0], overlong_then_continuations(0)),
        // E0 then 80–9F: overlong, then the 80 stands alone (rows 4, 2).
        ("3.3.2", &[0xE0, 0x80], overlong_then_continuations(1)),
        // F0 then 80–8F.
        ("3.3.3", &[0xF0, 0x80, 0x80], overlong_then_continuations(2)),
        // F8 then 80–87 (iso10646).
        (
            "3.3.4",
            &[0xF8, 0x80, 0x80, 0x80],
            overlong_then_continuations(3),
        ),
        // FC then 80–83 (iso10646).
        (
            "3.3.5",
            &[0xFC, 0x80, 0x80, 0x80, 0x80],
            overlong_then_continuations(4),
        ),
        // Good prefixes ended by the closing '"' (row 3).
        ("3.3.6", &[0xDF], vec![err(Truncated, 0, 1)]),
        ("3.3.7", &[0xEF, 0xBF], vec![err(Truncated, 0, 2)]),
        ("3.3.8", &[0xF7, 0xBF, 0xBF], vec![err(Truncated, 0, 3)]),
        (
            "3.3.9",
            &[0xFB, 0xBF, 0xBF, 0xBF],
            vec![err(Truncated, 0, 4)],
        ),
        (
            "3.3.10",
            &[0xFD, 0xBF, 0xBF, 0xBF, 0xBF],
            vec![err(Truncated, 0, 5)],
        ),
    ];
    for (id, bytes, expected) in cases {
        let (found, open, line) = quoted(&input, id);
        assert_eq!(found, bytes, "the quoted bytes of {id}");
        assert_eq!(decode(&found, Profile::Iso10646), expected, "{id} alone");

        // In its line, the quoted bytes give the same units and every other
        // byte is an ASCII character.
        let units = decode(&line, Profile::Iso10646);
        assert_spans_tile(&line, &units);
        let errors: Vec<Unit> = units
            .iter()
            .filter(|u| u.error.is_some())
            .map(|u| Unit {
                span: u.span.start - open..u.span.end - open,
                ..u.clone()
            })
            .collect();
        assert_eq!(errors, expected, "{id} in its line");
        for unit in units.iter().filter(|u| u.error.is_none()) {
            assert_eq!(unit.span.len(), 1, "{id}: {unit:?}");
            assert_eq!(unit.value, u32::from(line[unit.span.start]), "{id}");
        }
    }
}

/// The demo text is well-formed UTF-8 (Rust's `str::from_utf8` accepts
/// it): both profiles give exactly its characters and no error.
#[test]
fn kuhn_demo_text_decodes_without_errors() {
    let input = corpus("UTF-8-demo.txt");
    let text = std::str::from_utf8(&input).expect("UTF-8-demo.txt is well-formed");
    for profile in Profile::ALL {
        let units = decode(&input, profile);
        assert_spans_tile(&input, &units);
        assert!(units.iter().all(|u| u.error.is_none()), "{profile}");
        assert!(
            units
                .iter()
                .map(|u| u.value)
                .eq(text.chars().map(u32::from)),
            "{profile}"
        );
        let mut offsets = text.char_indices().map(|(i, _)| i);
        assert!(units.iter().all(|u| Some(u.span.start) == offsets.next()));
    }
}
