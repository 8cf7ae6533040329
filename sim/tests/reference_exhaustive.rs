//! Exhaustive checks of the reference decoder on every byte string of length
//! 1, 2 and 3 (256 + 256² + 256³ = 16,843,008 strings).
//!
//! The oracle is Rust's own UTF-8 decoder: `String::from_utf8_lossy` for the
//! code points (one U+FFFD per maximal subpart, Unicode §3.9) and
//! `<[u8]>::utf8_chunks` for where each maximal subpart lies. The error kind
//! of each subpart is classified from the table of error kinds, using only the
//! subpart's bytes and the byte after it.
//!
//! The reference validator, written from RFC 3629 §4's grammar rather than
//! from a decoder, must find exactly the decoder's error units, in both
//! profiles.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

use utf8hdl_hdl::{ErrorKind, Profile, REPLACEMENT};
use utf8hdl_sim::reference::{validate, Decoder, Malformed, Unit};

/// 256 + 256² + 256³.
const STRINGS_UP_TO_THREE_BYTES: usize = 16_843_008;

/// The error kind that the table of error kinds gives to the maximal subpart
/// `subpart` (as `Utf8Chunk::invalid` reports it) when `next` follows it, in
/// the rfc3629 profile.
fn rfc3629_kind(subpart: &[u8], next: Option<u8>) -> ErrorKind {
    use ErrorKind::*;
    let continuing = matches!(next, Some(0x80..=0xBF));
    match subpart[0] {
        // Row 1.
        0xFE | 0xFF => InvalidByte,
        // Row 2.
        0x80..=0xBF => UnexpectedContinuation,
        // Row 4: C0 and C1 as a lead.
        0xC0 | 0xC1 => Overlong,
        // Row 6: F5–FD as a lead.
        0xF5..=0xFD => OutOfRange,
        // Rows 4–6: a good lead whose second byte is a continuation byte
        // outside the lead's range.
        0xE0 | 0xF0 if subpart.len() == 1 && continuing => Overlong,
        0xED if subpart.len() == 1 && continuing => Surrogate,
        0xF4 if subpart.len() == 1 && continuing => OutOfRange,
        lead if subpart.len() == 1 && continuing => {
            panic!("std rejected {lead:02X} followed by {next:02X?}")
        }
        // Row 3: ended by a byte that cannot continue it, or by the end.
        _ => Truncated,
    }
}

/// Spans are contiguous and cover the message exactly.
fn assert_spans_tile(message: &[u8], units: &[Unit]) {
    let mut offset = 0;
    for unit in units {
        assert_eq!(unit.span.start, offset, "{message:02X?}: {units:?}");
        assert!(unit.span.end > unit.span.start, "{message:02X?}: {units:?}");
        offset = unit.span.end;
    }
    assert_eq!(offset, message.len(), "{message:02X?}: {units:?}");
}

/// Two unit buffers, reused from one message to the next so that decoding
/// allocates nothing.
/// The error units of a decoding, as the validator reports them.
fn malformed(units: &[Unit]) -> impl Iterator<Item = Malformed> + '_ {
    units.iter().filter_map(|unit| {
        unit.error.map(|kind| Malformed {
            offset: unit.span.start,
            len: unit.span.len(),
            kind,
        })
    })
}

/// The validator finds exactly the error units of the decoding `units`.
fn assert_validator_agrees(message: &[u8], units: &[Unit], profile: Profile) {
    let found = validate(message, profile);
    assert!(
        found.iter().copied().eq(malformed(units)),
        "{message:02X?} {profile}: the validator finds {found:?}, the decoder {units:?}"
    );
}

#[derive(Default)]
struct Buffers {
    rfc3629: Vec<Unit>,
    iso10646: Vec<Unit>,
}

/// Every check of the rfc3629 profile on one message. `units` is a reused
/// buffer.
fn check_rfc3629(message: &[u8], units: &mut Vec<Unit>) {
    units.clear();
    units.extend(Decoder::new(message.iter().copied(), Profile::Rfc3629));

    // The sequence of code points is exactly from_utf8_lossy's.
    let lossy = String::from_utf8_lossy(message);
    assert!(
        units
            .iter()
            .map(|u| u.value)
            .eq(lossy.chars().map(u32::from)),
        "{message:02X?}: {units:?} but from_utf8_lossy gives {lossy:?}"
    );

    assert_spans_tile(message, units);
    assert_validator_agrees(message, units, Profile::Rfc3629);

    // Error units are U+FFFD; a unit without error is the one character its
    // bytes spell.
    for unit in units.iter() {
        match unit.error {
            Some(_) => assert_eq!(unit.value, REPLACEMENT, "{message:02X?}: {unit:?}"),
            None => {
                let text = std::str::from_utf8(&message[unit.span.clone()]);
                let mut chars = text.iter().flat_map(|t| t.chars());
                assert!(
                    chars.next().map(u32::from) == Some(unit.value) && chars.next().is_none(),
                    "{message:02X?}: {unit:?} is not one well-formed character"
                );
            }
        }
    }

    // Each unit is exactly what utf8_chunks says: a character of a valid
    // run, or one maximal subpart with the error table's kind.
    let mut units_iter = units.iter();
    let mut offset = 0;
    for chunk in message.utf8_chunks() {
        for c in chunk.valid().chars() {
            let end = offset + c.len_utf8();
            let expected = Unit {
                value: u32::from(c),
                span: offset..end,
                error: None,
            };
            assert_eq!(units_iter.next(), Some(&expected), "{message:02X?}");
            offset = end;
        }
        let subpart = chunk.invalid();
        if !subpart.is_empty() {
            let end = offset + subpart.len();
            let expected = Unit {
                value: REPLACEMENT,
                span: offset..end,
                error: Some(rfc3629_kind(subpart, message.get(end).copied())),
            };
            assert_eq!(units_iter.next(), Some(&expected), "{message:02X?}");
            offset = end;
        }
    }
    assert_eq!(units_iter.next(), None, "{message:02X?}");
}

/// Whether `message` avoids everything that the two profiles' tables treat
/// differently: the leads F5–FD and F4 followed by 90–BF.
fn same_in_both_profiles(message: &[u8]) -> bool {
    !message.iter().any(|b| (0xF5..=0xFD).contains(b))
        && !message
            .windows(2)
            .any(|w| w[0] == 0xF4 && (0x90..=0xBF).contains(&w[1]))
}

/// The iso10646 checks on one message, given its rfc3629 units.
fn check_iso10646(message: &[u8], rfc3629: &[Unit], units: &mut Vec<Unit>) {
    units.clear();
    units.extend(Decoder::new(message.iter().copied(), Profile::Iso10646));
    assert_spans_tile(message, units);
    assert_validator_agrees(message, units, Profile::Iso10646);
    for unit in units.iter() {
        assert_ne!(unit.error, Some(ErrorKind::OutOfRange), "{message:02X?}");
        if unit.error.is_some() {
            assert_eq!(unit.value, REPLACEMENT, "{message:02X?}: {unit:?}");
        }
    }
    if same_in_both_profiles(message) {
        assert_eq!(units.as_slice(), rfc3629, "{message:02X?}");
    }
}

/// Runs `check` on every message of 1, 2 and 3 bytes, spread over all
/// cores, and returns how many messages were checked.
fn for_every_string_up_to_three_bytes(check: impl Fn(&[u8], &mut Buffers) + Sync) -> usize {
    let checked = AtomicUsize::new(0);
    // Task 0 is all messages of one and two bytes; task 1 + b is all
    // messages of three bytes starting with b.
    let next_task = AtomicUsize::new(0);
    let threads = thread::available_parallelism().map_or(4, |n| n.get());
    thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut units = Buffers::default();
                loop {
                    let task = next_task.fetch_add(1, Ordering::Relaxed);
                    let mut count = 0;
                    match task {
                        0 => {
                            for a in 0..=255u8 {
                                check(&[a], &mut units);
                                for b in 0..=255u8 {
                                    check(&[a, b], &mut units);
                                }
                                count += 257;
                            }
                        }
                        1..=256 => {
                            let a = (task - 1) as u8;
                            for b in 0..=255u8 {
                                for c in 0..=255u8 {
                                    check(&[a, b, c], &mut units);
                                }
                            }
                            count += 65536;
                        }
                        _ => break,
                    }
                    checked.fetch_add(count, Ordering::Relaxed);
                }
            });
        }
    });
    checked.into_inner()
}

/// RFC 3629 §3 with Unicode §3.9's maximal subparts: on every string of up
/// to three bytes, rfc3629 gives from_utf8_lossy's code points, spans that
/// tile the input, U+FFFD exactly on error units, and the error table's kind.
#[test]
fn rfc3629_matches_from_utf8_lossy_on_every_string_up_to_three_bytes() {
    let checked = for_every_string_up_to_three_bytes(|message, buffers| {
        check_rfc3629(message, &mut buffers.rfc3629);
    });
    assert_eq!(checked, STRINGS_UP_TO_THREE_BYTES);
}

/// Annex R: on every string of up to three bytes, iso10646 units tile the
/// input, errors are U+FFFD and never out_of_range, and the profile agrees
/// with rfc3629 wherever the input has no F5–FD and no F4 followed by 90–BF.
#[test]
fn iso10646_invariants_on_every_string_up_to_three_bytes() {
    let checked = for_every_string_up_to_three_bytes(|message, buffers| {
        let rfc3629 = &mut buffers.rfc3629;
        rfc3629.clear();
        rfc3629.extend(Decoder::new(message.iter().copied(), Profile::Rfc3629));
        check_iso10646(message, rfc3629, &mut buffers.iso10646);
    });
    assert_eq!(checked, STRINGS_UP_TO_THREE_BYTES);
}
