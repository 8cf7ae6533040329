//! The reference decoder on Markus Kuhn's corpus (`testbench/data`): the
//! "UTF-8 decoder capability and stress test" and the UTF-8 demo text.

#[path = "../../testbench/data/paths.rs"]
mod paths;

use paths::data as corpus;
use utf8hdl_hdl::{ErrorKind, Profile, REPLACEMENT};
use utf8hdl_sim::reference::{decode, Unit};

use ErrorKind::*;

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

/// An oracle independent of the reference decoder, for any profile: the
/// definition of a maximal subpart (Unicode §3.9: the longest initial
/// subsequence of a well-formed sequence) evaluated with UTF-8's order
/// preservation (utf-8(7): "the sorting order of UCS-4 strings is
/// preserved"). The n-octet encodings that start with a prefix are the
/// values from the prefix padded with 80s to the prefix padded with BFs,
/// so a prefix can still become a character exactly when that interval
/// meets the n-octet values (Annex R Table 1) that the profile allows
/// (at most `max`, and no surrogate: RFC 3629 §3, Annex R Note 3).
/// Returns one entry per unit: the character, or `None` for a U+FFFD.
fn maximal_subpart_oracle(bytes: &[u8], max: u32) -> Vec<Option<u32>> {
    // The smallest value that needs n octets, n = 1..=6 (Annex R Table 1).
    const SMALLEST: [u64; 7] = [0, 0, 0x80, 0x800, 0x1_0000, 0x20_0000, 0x400_0000];
    let value_of = |octets: &[u8], n: usize, pad: u8| -> u64 {
        // A lead of n > 1 octets carries 7 - n bits; an ASCII byte, 7.
        let lead_bits = if n == 1 { 7 } else { 7 - n };
        let mut value = u64::from(octets[0] & ((1 << lead_bits) - 1));
        for i in 1..n {
            value = value << 6 | u64::from(octets.get(i).copied().unwrap_or(pad) & 0x3F);
        }
        value
    };
    let possible = |octets: &[u8], n: usize| {
        let low = value_of(octets, n, 0x80).max(SMALLEST[n]);
        let high = value_of(octets, n, 0xBF).min(u64::from(max));
        let only_surrogates = (0xD800..=0xDFFF).contains(&low) && high <= 0xDFFF;
        low <= high && !only_surrogates
    };
    let mut units = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let n = match bytes[at].leading_ones() as usize {
            0 => 1,
            1 | 7 | 8 => 0,
            n => n,
        };
        let mut len = 0;
        if n > 0 && possible(&bytes[at..at + 1], n) {
            len = 1;
            while len < n
                && at + len < bytes.len()
                && bytes[at + len] & 0xC0 == 0x80
                && possible(&bytes[at..=at + len], n)
            {
                len += 1;
            }
        }
        let complete = n > 0 && len == n;
        units.push(complete.then(|| value_of(&bytes[at..at + n], n, 0) as u32));
        at += len.max(1);
    }
    units
}

/// Asserts `a == b`, naming the first unit where they differ rather than
/// printing thousands of units.
#[track_caller]
fn assert_same_units<T: PartialEq + std::fmt::Debug>(a: &[T], b: &[T], what: &str) {
    if let Some(i) = (0..a.len().min(b.len())).find(|&i| a[i] != b[i]) {
        panic!("{what} differ at unit {i}: {:?} != {:?}", a[i], b[i]);
    }
    assert_eq!(a.len(), b.len(), "{what}: unit counts differ");
}

/// The oracle agrees with `from_utf8_lossy` on the stress test in
/// rfc3629, so it can vouch for the iso10646 profile, which no library
/// implements: there the reference gives the oracle's units, 330 of them
/// U+FFFD (chapter 4 of the guide explains the 48 fewer).
#[test]
fn kuhn_stress_test_iso10646_matches_the_oracle() {
    let input = corpus("UTF-8-test.txt");
    let as_lossy = |units: &[Option<u32>]| -> Vec<u32> {
        units.iter().map(|u| u.unwrap_or(REPLACEMENT)).collect()
    };
    let lossy: Vec<u32> = String::from_utf8_lossy(&input)
        .chars()
        .map(u32::from)
        .collect();
    assert_same_units(
        &as_lossy(&maximal_subpart_oracle(&input, 0x10_FFFF)),
        &lossy,
        "the oracle and from_utf8_lossy in rfc3629",
    );

    let expected = maximal_subpart_oracle(&input, 0x7FFF_FFFF);
    let units = decode(&input, Profile::Iso10646);
    assert_spans_tile(&input, &units);
    let got: Vec<Option<u32>> = units
        .iter()
        .map(|u| u.error.is_none().then_some(u.value))
        .collect();
    assert_same_units(&got, &expected, "the reference and the oracle in iso10646");
    assert_eq!(expected.iter().filter(|u| u.is_none()).count(), 330);
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
