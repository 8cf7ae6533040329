//! The reference decoder against two tables, row by row: the
//! table of well-formed sequences (Annex R Table 1 narrowed by RFC 3629 §3
//! and shortest form) and the table of error kinds. Also the worked
//! examples of RFC 3629 §3, Unicode Table 3-8 and the README, and the value
//! boundaries of each sequence length.
//!
//! Expected values come from the tables themselves (values by Annex R
//! Table 5's formula), from `char::encode_utf8` and from
//! `String::from_utf8_lossy`, never from running the decoder.

use std::ops::{Range, RangeInclusive};

use utf8hdl_hdl::{ErrorKind, Profile, REPLACEMENT};
use utf8hdl_sim::reference::{decode, Unit};

use ErrorKind::*;
use Profile::{Iso10646, Rfc3629};

const BOTH: &[Profile] = &[Rfc3629, Iso10646];
const RFC: &[Profile] = &[Rfc3629];
const ISO: &[Profile] = &[Iso10646];
const CONTINUING: RangeInclusive<u8> = 0x80..=0xBF;

/// One row of the table of well-formed sequences.
struct WellFormed {
    leads: RangeInclusive<u8>,
    profiles: &'static [Profile],
    length: usize,
    /// The bytes allowed second (all later bytes are 80–BF).
    second: RangeInclusive<u8>,
}

const fn row(
    leads: RangeInclusive<u8>,
    profiles: &'static [Profile],
    length: usize,
    second: RangeInclusive<u8>,
) -> WellFormed {
    WellFormed {
        leads,
        profiles,
        length,
        second,
    }
}

/// The table of well-formed sequences, transcribed row by row.
const WELL_FORMED: [WellFormed; 15] = [
    row(0x00..=0x7F, BOTH, 1, CONTINUING), // no second byte
    row(0xC2..=0xDF, BOTH, 2, 0x80..=0xBF),
    row(0xE0..=0xE0, BOTH, 3, 0xA0..=0xBF),
    row(0xE1..=0xEC, BOTH, 3, 0x80..=0xBF),
    row(0xEE..=0xEF, BOTH, 3, 0x80..=0xBF),
    row(0xED..=0xED, BOTH, 3, 0x80..=0x9F),
    row(0xF0..=0xF0, BOTH, 4, 0x90..=0xBF),
    row(0xF1..=0xF3, RFC, 4, 0x80..=0xBF),
    row(0xF1..=0xF7, ISO, 4, 0x80..=0xBF),
    row(0xF4..=0xF4, RFC, 4, 0x80..=0x8F),
    row(0xF4..=0xF4, ISO, 4, 0x80..=0xBF),
    row(0xF8..=0xF8, ISO, 5, 0x88..=0xBF),
    row(0xF9..=0xFB, ISO, 5, 0x80..=0xBF),
    row(0xFC..=0xFC, ISO, 6, 0x84..=0xBF),
    row(0xFD..=0xFD, ISO, 6, 0x80..=0xBF),
];

/// The well-formed row that `lead` starts in `profile`, if any. Rows may
/// overlap (F4 is in "F1–F7" and "F4" for iso10646) only if they agree.
fn well_formed_row(lead: u8, profile: Profile) -> Option<&'static WellFormed> {
    let mut rows = WELL_FORMED
        .iter()
        .filter(|r| r.leads.contains(&lead) && r.profiles.contains(&profile));
    let found = rows.next();
    for other in rows {
        let first = found.unwrap();
        assert!(
            other.length == first.length && other.second == first.second,
            "rows disagree on {lead:02X} in {profile}"
        );
    }
    found
}

/// Error rows 1, 2, 4 and 6 for a byte that cannot start a sequence at all.
fn malformed_lead(lead: u8, profile: Profile) -> Option<ErrorKind> {
    match lead {
        0xFE | 0xFF => Some(InvalidByte),
        0x80..=0xBF => Some(UnexpectedContinuation),
        0xC0 | 0xC1 => Some(Overlong),
        0xF5..=0xFD if profile == Rfc3629 => Some(OutOfRange),
        _ => None,
    }
}

/// Error rows 4–6 for a lead followed by a continuation byte outside the
/// lead's second-byte range.
fn second_byte_error(lead: u8, second: u8, profile: Profile) -> Option<ErrorKind> {
    let iso = profile == Iso10646;
    match (lead, second) {
        (0xE0, 0x80..=0x9F) | (0xF0, 0x80..=0x8F) => Some(Overlong),
        (0xF8, 0x80..=0x87) | (0xFC, 0x80..=0x83) if iso => Some(Overlong),
        (0xED, 0xA0..=0xBF) => Some(Surrogate),
        (0xF4, 0x90..=0xBF) if !iso => Some(OutOfRange),
        _ => None,
    }
}

/// Annex R Table 5: the UCS-4 value of a well-formed sequence.
fn table5_value(sequence: &[u8]) -> u32 {
    let marker = [0x00, 0xC0, 0xE0, 0xF0, 0xF8, 0xFC][sequence.len() - 1];
    sequence[1..]
        .iter()
        .fold(u32::from(sequence[0] - marker), |value, &octet| {
            value * 64 + u32::from(octet - 0x80)
        })
}

fn ch(value: u32, span: Range<usize>) -> Unit {
    Unit {
        value,
        span,
        error: None,
    }
}

fn err(kind: ErrorKind, span: Range<usize>) -> Unit {
    Unit {
        value: REPLACEMENT,
        span,
        error: Some(kind),
    }
}

/// `count` unexpected_continuation units, one byte each, from `start`.
fn continuations(start: usize, count: usize) -> Vec<Unit> {
    (start..start + count)
        .map(|i| err(UnexpectedContinuation, i..i + 1))
        .collect()
}

/// Units with spans moved `by` bytes on.
fn shifted(units: Vec<Unit>, by: usize) -> Vec<Unit> {
    units
        .into_iter()
        .map(|u| Unit {
            span: u.span.start + by..u.span.end + by,
            ..u
        })
        .collect()
}

/// Asserts that `bytes` decode to `expected` in `profile`.
#[track_caller]
fn assert_decodes(bytes: &[u8], profile: Profile, expected: &[Unit]) {
    assert_eq!(
        decode(bytes, profile),
        expected,
        "{bytes:02X?} in {profile}"
    );
}

/// Asserts that rfc3629's code points for `bytes` are from_utf8_lossy's.
#[track_caller]
fn assert_lossy(bytes: &[u8]) {
    let values: Vec<u32> = decode(bytes, Rfc3629).iter().map(|u| u.value).collect();
    let lossy: Vec<u32> = String::from_utf8_lossy(bytes)
        .chars()
        .map(u32::from)
        .collect();
    assert_eq!(values, lossy, "{bytes:02X?}");
}

/// Asserts that a unit of `kind` covers bytes[..consumed], and that the byte
/// after it is examined again: the rest decodes as if it stood alone.
#[track_caller]
fn assert_error_then_rest(bytes: &[u8], profile: Profile, kind: ErrorKind, consumed: usize) {
    let mut expected = vec![err(kind, 0..consumed)];
    expected.extend(shifted(decode(&bytes[consumed..], profile), consumed));
    assert_decodes(bytes, profile, &expected);
}

/// Well-formed table: every lead byte of every row, with every possible
/// second byte (later bytes 80 or BF). A second byte in the row's range
/// gives one character of Table 5's value; one outside gives the error
/// table's kind (rows 4–6 for 80–BF, else truncated) for the lead alone.
#[test]
fn the_longest_sequence_is_the_tables() {
    for profile in [Rfc3629, Iso10646] {
        let longest = WELL_FORMED
            .iter()
            .filter(|row| row.profiles.contains(&profile))
            .map(|row| row.length)
            .max();
        assert_eq!(Some(profile.longest_sequence()), longest, "{profile}");
    }
}

#[test]
fn well_formed_table_every_lead_with_every_second_byte() {
    for row in &WELL_FORMED {
        for &profile in row.profiles {
            for lead in row.leads.clone() {
                if row.length == 1 {
                    assert_decodes(&[lead], profile, &[ch(u32::from(lead), 0..1)]);
                    continue;
                }
                for second in 0..=0xFF {
                    for fill in [0x80, 0xBF] {
                        let mut bytes = vec![lead, second];
                        bytes.resize(row.length, fill);
                        if row.second.contains(&second) {
                            let value = table5_value(&bytes);
                            assert_decodes(&bytes, profile, &[ch(value, 0..row.length)]);
                        } else if CONTINUING.contains(&second) {
                            let kind =
                                second_byte_error(lead, second, profile).unwrap_or_else(|| {
                                    panic!("no error row for {lead:02X} {second:02X} in {profile}")
                                });
                            assert_error_then_rest(&bytes, profile, kind, 1);
                        } else {
                            assert_error_then_rest(&bytes, profile, Truncated, 1);
                        }
                    }
                }
            }
        }
    }
}

/// Well-formed table, "all other continuation bytes 80–BF": from the third
/// byte on, any byte outside 80–BF ends the sequence as truncated (rows 4–6
/// only concern the second byte), and that byte starts the next unit.
#[test]
fn well_formed_table_third_and_later_bytes_are_80_to_bf() {
    for row in WELL_FORMED.iter().filter(|r| r.length >= 3) {
        for &profile in row.profiles {
            for lead in row.leads.clone() {
                for second in [*row.second.start(), *row.second.end()] {
                    for position in 2..row.length {
                        for byte in 0..=0xFF {
                            let mut bytes = vec![lead, second];
                            bytes.resize(position, 0xBF);
                            bytes.push(byte);
                            bytes.resize(row.length, 0x80);
                            if CONTINUING.contains(&byte) {
                                let value = table5_value(&bytes);
                                assert_decodes(&bytes, profile, &[ch(value, 0..row.length)]);
                            } else {
                                assert_error_then_rest(&bytes, profile, Truncated, position);
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The two tables together cover every byte: each is either a lead of
/// exactly one well-formed row or a malformed lead of rows 1, 2, 4 or 6.
/// Alone, a malformed lead is its error and a multi-byte lead is truncated.
#[test]
fn every_byte_alone_is_its_table_row() {
    for profile in Profile::ALL {
        for byte in 0..=0xFF {
            match (
                well_formed_row(byte, profile),
                malformed_lead(byte, profile),
            ) {
                (Some(row), None) if row.length == 1 => {
                    assert_decodes(&[byte], profile, &[ch(u32::from(byte), 0..1)])
                }
                (Some(_), None) => assert_decodes(&[byte], profile, &[err(Truncated, 0..1)]),
                (None, Some(kind)) => assert_decodes(&[byte], profile, &[err(kind, 0..1)]),
                (row, kind) => panic!(
                    "{byte:02X} in {profile}: well-formed row {:?}, malformed {kind:?}",
                    row.map(|r| &r.leads)
                ),
            }
        }
    }
}

/// Error row 1: FE and FF are invalid_byte in both profiles, wherever they
/// stand, and never start a sequence.
#[test]
fn error_row_1_invalid_byte_fe_ff() {
    for profile in Profile::ALL {
        for b in [0xFE, 0xFF] {
            assert_decodes(&[b], profile, &[err(InvalidByte, 0..1)]);
            assert_decodes(
                &[0x41, b, 0x42],
                profile,
                &[ch(0x41, 0..1), err(InvalidByte, 1..2), ch(0x42, 2..3)],
            );
            let mut expected = vec![err(InvalidByte, 0..1)];
            expected.extend(continuations(1, 6));
            assert_decodes(&[b, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80], profile, &expected);
            // Ending an open sequence: truncated, then the byte itself.
            assert_decodes(
                &[0xE2, 0x82, b],
                profile,
                &[err(Truncated, 0..2), err(InvalidByte, 2..3)],
            );
        }
    }
}

/// Error row 2: 80–BF where a sequence should start is
/// unexpected_continuation, one unit per byte.
#[test]
fn error_row_2_unexpected_continuation() {
    for profile in Profile::ALL {
        for b in CONTINUING {
            assert_decodes(&[b], profile, &[err(UnexpectedContinuation, 0..1)]);
            assert_decodes(&[b, b], profile, &continuations(0, 2));
            assert_decodes(
                &[0x41, b],
                profile,
                &[ch(0x41, 0..1), err(UnexpectedContinuation, 1..2)],
            );
            // After a complete two-byte character (U+00A9).
            assert_decodes(
                &[0xC2, 0xA9, b],
                profile,
                &[ch(0xA9, 0..2), err(UnexpectedContinuation, 2..3)],
            );
        }
    }
}

/// Error row 3: a message ending inside a sequence ends with exactly one
/// truncated unit covering the open sequence, for every lead and every
/// proper prefix length.
#[test]
fn error_row_3_truncated_by_end_of_message() {
    for row in WELL_FORMED.iter().filter(|r| r.length >= 2) {
        for &profile in row.profiles {
            for lead in row.leads.clone() {
                for (second, fill) in [(*row.second.start(), 0x80), (*row.second.end(), 0xBF)] {
                    let mut sequence = vec![lead, second];
                    sequence.resize(row.length, fill);
                    for cut in 1..row.length {
                        assert_decodes(&sequence[..cut], profile, &[err(Truncated, 0..cut)]);
                        // After a character too.
                        let mut bytes = vec![0x41];
                        bytes.extend_from_slice(&sequence[..cut]);
                        assert_decodes(
                            &bytes,
                            profile,
                            &[ch(0x41, 0..1), err(Truncated, 1..1 + cut)],
                        );
                    }
                }
            }
        }
    }
}

/// Error row 3: an open sequence ended by a byte that cannot continue it
/// (ASCII or a lead) is truncated, and that byte is not consumed: the
/// README's `E2 82 41` is truncated(0..2) then U+0041(2..3).
#[test]
fn error_row_3_truncated_by_a_byte_that_cannot_continue() {
    for profile in Profile::ALL {
        assert_decodes(
            &[0xE2, 0x82, 0x41],
            profile,
            &[err(Truncated, 0..2), ch(0x41, 2..3)],
        );
    }
    assert_lossy(&[0xE2, 0x82, 0x41]);
    for row in WELL_FORMED.iter().filter(|r| r.length >= 2) {
        for &profile in row.profiles {
            let lead = *row.leads.start();
            let mut sequence = vec![lead, *row.second.start()];
            sequence.resize(row.length, 0x80);
            for cut in 1..row.length {
                for stop in (0x00..=0x7F).chain(0xC0..=0xFF) {
                    let mut bytes = sequence[..cut].to_vec();
                    bytes.push(stop);
                    assert_error_then_rest(&bytes, profile, Truncated, cut);
                }
            }
        }
    }
}

/// Error row 4, overlong: C0 and C1 as a lead, E0 followed by 80–9F and F0
/// followed by 80–8F in both profiles; in iso10646, F8 followed by 80–87 and
/// FC followed by 80–83. Only the lead is the error; the rest are
/// unexpected continuations.
#[test]
fn error_row_4_overlong() {
    for profile in Profile::ALL {
        for lead in [0xC0, 0xC1] {
            for second in CONTINUING {
                assert_decodes(
                    &[lead, second],
                    profile,
                    &[err(Overlong, 0..1), err(UnexpectedContinuation, 1..2)],
                );
            }
            assert_decodes(&[lead], profile, &[err(Overlong, 0..1)]);
            assert_decodes(
                &[lead, 0x41],
                profile,
                &[err(Overlong, 0..1), ch(0x41, 1..2)],
            );
        }
        for (lead, seconds, length) in [(0xE0, 0x80..=0x9F, 3), (0xF0, 0x80..=0x8F, 4)] {
            for second in seconds {
                let mut bytes = vec![lead, second];
                bytes.resize(length, 0xBF);
                let mut expected = vec![err(Overlong, 0..1)];
                expected.extend(continuations(1, length - 1));
                assert_decodes(&bytes, profile, &expected);
            }
        }
    }
    for (lead, seconds, length) in [(0xF8, 0x80..=0x87, 5), (0xFC, 0x80..=0x83, 6)] {
        for second in seconds {
            let mut bytes = vec![lead, second];
            bytes.resize(length, 0xBF);
            for (profile, kind) in [(Iso10646, Overlong), (Rfc3629, OutOfRange)] {
                let mut expected = vec![err(kind, 0..1)];
                expected.extend(continuations(1, length - 1));
                assert_decodes(&bytes, profile, &expected);
            }
        }
    }
}

/// Error row 5, surrogate: ED followed by A0–BF (U+D800..U+DFFF) in both
/// profiles (RFC 3629 §3, Annex R Note 3); so `ED A0 80` is
/// surrogate, unexpected_continuation, unexpected_continuation.
#[test]
fn error_row_5_surrogate() {
    for profile in Profile::ALL {
        for second in 0xA0..=0xBF {
            for third in [0x80, 0xBF] {
                let mut expected = vec![err(Surrogate, 0..1)];
                expected.extend(continuations(1, 2));
                assert_decodes(&[0xED, second, third], profile, &expected);
            }
        }
        assert_decodes(
            &[0xED, 0xA0, 0x80],
            profile,
            &[
                err(Surrogate, 0..1),
                err(UnexpectedContinuation, 1..2),
                err(UnexpectedContinuation, 2..3),
            ],
        );
    }
    assert_lossy(&[0xED, 0xA0, 0x80]);
}

/// Error row 6, out_of_range (rfc3629 only): F5–FD as a lead, and F4
/// followed by 90–BF. In iso10646 the same bytes are characters above
/// U+10FFFF (Annex R Table 5).
#[test]
fn error_row_6_out_of_range() {
    for lead in 0xF5..=0xFD {
        assert_decodes(&[lead], Rfc3629, &[err(OutOfRange, 0..1)]);
        let mut expected = vec![err(OutOfRange, 0..1)];
        expected.extend(continuations(1, 5));
        assert_decodes(&[lead, 0x80, 0x80, 0x80, 0x80, 0x80], Rfc3629, &expected);
        assert_decodes(
            &[lead, 0x41],
            Rfc3629,
            &[err(OutOfRange, 0..1), ch(0x41, 1..2)],
        );
    }
    for second in 0x90..=0xBF {
        let bytes = [0xF4, second, 0x80, 0x80];
        let mut expected = vec![err(OutOfRange, 0..1)];
        expected.extend(continuations(1, 3));
        assert_decodes(&bytes, Rfc3629, &expected);
        assert_lossy(&bytes);
        assert_decodes(&bytes, Iso10646, &[ch(table5_value(&bytes), 0..4)]);
    }
    // Hand-computed from Table 5: (F4-F0)*2**18 + (90-80)*2**12 = 0x110000.
    assert_decodes(&[0xF4, 0x90, 0x80, 0x80], Iso10646, &[ch(0x11_0000, 0..4)]);
    assert_decodes(&[0xF5, 0x80, 0x80, 0x80], Iso10646, &[ch(0x14_0000, 0..4)]);
    // No unit is ever out_of_range in iso10646.
    for lead in 0xF5..=0xFD {
        assert!(decode(&[lead, 0x80], Iso10646)
            .iter()
            .all(|u| u.error != Some(OutOfRange)));
    }
}

/// RFC 3629 §3: "C0 80" must not become U+0000: overlong, then an
/// unexpected continuation.
#[test]
fn rfc3629_example_c0_80_is_not_u0000() {
    for profile in Profile::ALL {
        assert_decodes(
            &[0xC0, 0x80],
            profile,
            &[err(Overlong, 0..1), err(UnexpectedContinuation, 1..2)],
        );
    }
    assert_lossy(&[0xC0, 0x80]);
}

/// RFC 3629 §3: the surrogate pair "ED A1 8C ED BE B4" must not become
/// U+233B4: surrogate, continuation, continuation, twice.
#[test]
fn rfc3629_example_surrogate_pair_is_not_u233b4() {
    let bytes = [0xED, 0xA1, 0x8C, 0xED, 0xBE, 0xB4];
    for profile in Profile::ALL {
        assert_decodes(
            &bytes,
            profile,
            &[
                err(Surrogate, 0..1),
                err(UnexpectedContinuation, 1..2),
                err(UnexpectedContinuation, 2..3),
                err(Surrogate, 3..4),
                err(UnexpectedContinuation, 4..5),
                err(UnexpectedContinuation, 5..6),
            ],
        );
        assert!(decode(&bytes, profile).iter().all(|u| u.value != 0x233B4));
    }
    assert_lossy(&bytes);
}

/// Unicode Standard Table 3-8 (U+FFFD for maximal subparts):
/// 61 F1 80 80 E1 80 C2 62 80 63 80 BF 64 → U+0061, FFFD, FFFD, FFFD,
/// U+0062, FFFD, U+0063, FFFD, FFFD, U+0064.
#[test]
fn unicode_table_3_8_maximal_subparts() {
    let bytes = [
        0x61, 0xF1, 0x80, 0x80, 0xE1, 0x80, 0xC2, 0x62, 0x80, 0x63, 0x80, 0xBF, 0x64,
    ];
    let expected = [
        ch(0x61, 0..1),
        err(Truncated, 1..4),
        err(Truncated, 4..6),
        err(Truncated, 6..7),
        ch(0x62, 7..8),
        err(UnexpectedContinuation, 8..9),
        ch(0x63, 9..10),
        err(UnexpectedContinuation, 10..11),
        err(UnexpectedContinuation, 11..12),
        ch(0x64, 12..13),
    ];
    for profile in Profile::ALL {
        assert_decodes(&bytes, profile, &expected);
    }
    let table: Vec<u32> = vec![
        0x61, 0xFFFD, 0xFFFD, 0xFFFD, 0x62, 0xFFFD, 0x63, 0xFFFD, 0xFFFD, 0x64,
    ];
    let lossy: Vec<u32> = String::from_utf8_lossy(&bytes)
        .chars()
        .map(u32::from)
        .collect();
    assert_eq!(lossy, table, "from_utf8_lossy disagrees with Table 3-8");
    assert_lossy(&bytes);
}

/// The value boundaries of RFC 3629 §3's table: 7F/80, 7FF/800, D7FF/D800,
/// DFFF/E000, FFFF/10000, 10FFFF/110000. Scalar values are encoded with
/// `char::encode_utf8`; the rest are hand-encoded by Table 4.
#[test]
fn boundaries_rfc3629() {
    for value in [
        0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFF, 0x1_0000, 0x10_FFFF,
    ] {
        let c = char::from_u32(value).unwrap();
        let mut buffer = [0; 4];
        let bytes = c.encode_utf8(&mut buffer).as_bytes();
        for profile in Profile::ALL {
            assert_decodes(bytes, profile, &[ch(value, 0..bytes.len())]);
        }
        assert_lossy(bytes);
    }
    // U+D800 and U+DFFF: surrogates in both profiles.
    for bytes in [[0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF]] {
        let mut expected = vec![err(Surrogate, 0..1)];
        expected.extend(continuations(1, 2));
        for profile in Profile::ALL {
            assert_decodes(&bytes, profile, &expected);
        }
        assert_lossy(&bytes);
    }
    // U+110000: out of range for rfc3629, a character for iso10646.
    let bytes = [0xF4, 0x90, 0x80, 0x80];
    let mut expected = vec![err(OutOfRange, 0..1)];
    expected.extend(continuations(1, 3));
    assert_decodes(&bytes, Rfc3629, &expected);
    assert_decodes(&bytes, Iso10646, &[ch(0x11_0000, 0..4)]);
    assert_lossy(&bytes);
}

/// Overlong forms of the largest value of each shorter length (7F in two
/// bytes, 7FF in three, FFFF in four; in iso10646 also 1FFFFF in five and
/// 3FFFFFF in six) are overlong, just below each length's first value.
#[test]
fn boundaries_overlong_forms_just_below_each_length() {
    let both: [&[u8]; 3] = [
        &[0xC1, 0xBF],
        &[0xE0, 0x9F, 0xBF],
        &[0xF0, 0x8F, 0xBF, 0xBF],
    ];
    for bytes in both {
        let mut expected = vec![err(Overlong, 0..1)];
        expected.extend(continuations(1, bytes.len() - 1));
        for profile in Profile::ALL {
            assert_decodes(bytes, profile, &expected);
        }
        assert_lossy(bytes);
    }
    let iso: [&[u8]; 2] = [
        &[0xF8, 0x87, 0xBF, 0xBF, 0xBF],
        &[0xFC, 0x83, 0xBF, 0xBF, 0xBF, 0xBF],
    ];
    for bytes in iso {
        for (profile, kind) in [(Iso10646, Overlong), (Rfc3629, OutOfRange)] {
            let mut expected = vec![err(kind, 0..1)];
            expected.extend(continuations(1, bytes.len() - 1));
            assert_decodes(bytes, profile, &expected);
        }
        assert_lossy(bytes);
    }
}

/// The boundaries of Annex R Table 1 beyond U+10FFFF: 1FFFFF/200000,
/// 3FFFFFF/4000000 and 7FFFFFFF are characters in iso10646 (bytes from
/// Annex R Table 3) and out_of_range leads in rfc3629; nothing encodes
/// beyond 7FFFFFFF (FE, FF are invalid_byte).
#[test]
fn boundaries_iso10646() {
    let rows: [(u32, &[u8]); 5] = [
        (0x1F_FFFF, &[0xF7, 0xBF, 0xBF, 0xBF]),
        (0x20_0000, &[0xF8, 0x88, 0x80, 0x80, 0x80]),
        (0x3FF_FFFF, &[0xFB, 0xBF, 0xBF, 0xBF, 0xBF]),
        (0x400_0000, &[0xFC, 0x84, 0x80, 0x80, 0x80, 0x80]),
        (0x7FFF_FFFF, &[0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF]),
    ];
    for (value, bytes) in rows {
        assert_eq!(table5_value(bytes), value, "transcription of {value:X}");
        assert_decodes(bytes, Iso10646, &[ch(value, 0..bytes.len())]);
        let mut expected = vec![err(OutOfRange, 0..1)];
        expected.extend(continuations(1, bytes.len() - 1));
        assert_decodes(bytes, Rfc3629, &expected);
        assert_lossy(bytes);
    }
    // What would be 8000 0000 in a seven-byte form.
    for profile in Profile::ALL {
        let bytes = [0xFE, 0x82, 0x80, 0x80, 0x80, 0x80, 0x80];
        let mut expected = vec![err(InvalidByte, 0..1)];
        expected.extend(continuations(1, 6));
        assert_decodes(&bytes, profile, &expected);
    }
}

/// The `tuser` encoding of the README's "Error kinds" table: bit 0 set for
/// an error, the code in bits 3:1; 0 for a character. Every 4-bit value
/// that is neither is refused.
#[test]
fn tuser_encoding_is_the_readme_table() {
    let table = [
        ("invalid_byte", 0b0011),
        ("unexpected_continuation", 0b0101),
        ("truncated", 0b0111),
        ("overlong", 0b1001),
        ("surrogate", 0b1011),
        ("out_of_range", 0b1101),
    ];
    assert_eq!(table.len(), ErrorKind::ALL.len());
    for (name, tuser) in table {
        let kind = ErrorKind::ALL
            .into_iter()
            .find(|k| k.name() == name)
            .unwrap();
        assert_eq!(kind.tuser(), tuser, "{name}");
        assert_eq!(ErrorKind::from_tuser(tuser), Ok(Some(kind)), "{name}");
    }
    assert_eq!(ErrorKind::from_tuser(0), Ok(None));
    for tuser in 0..16u8 {
        let named = tuser == 0 || table.iter().any(|&(_, t)| t == tuser);
        assert_eq!(ErrorKind::from_tuser(tuser).is_ok(), named, "{tuser:04b}");
    }
}
