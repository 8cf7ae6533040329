//! The reference validator: where a byte string is not UTF-8, and why.
//!
//! It is written from the syntax of a well-formed sequence, not from a
//! decoder: RFC 3629 §4 gives it as ABNF,
//!
//! ```text
//! UTF8-char   = UTF8-1 / UTF8-2 / UTF8-3 / UTF8-4
//! UTF8-1      = %x00-7F
//! UTF8-2      = %xC2-DF UTF8-tail
//! UTF8-3      = %xE0 %xA0-BF UTF8-tail / %xE1-EC 2( UTF8-tail ) /
//!               %xED %x80-9F UTF8-tail / %xEE-EF 2( UTF8-tail )
//! UTF8-4      = %xF0 %x90-BF 2( UTF8-tail ) / %xF1-F3 3( UTF8-tail ) /
//!               %xF4 %x80-8F 2( UTF8-tail )
//! UTF8-tail   = %x80-BF
//! ```
//!
//! and the `iso10646` profile extends it with the five- and six-octet rows
//! of Annex R Table 1, shortest form only (`%xF8 %x88-BF 3( UTF8-tail )`,
//! `%xFC %x84-BF 4( UTF8-tail )`), F4 unbounded and F5–F7 leads of four.
//!
//! A malformed stretch is cut into maximal subparts (Unicode §3.9, "U+FFFD
//! substitution of maximal subparts"): at an offset where no `UTF8-char`
//! matches, the error is the longest prefix of any alternative that the
//! bytes match, or the one byte there if none does. Each error is reported
//! at its first byte, with its [`ErrorKind`].

use std::ops::RangeInclusive;

use crate::interface::{ErrorKind, Profile};

/// One malformed maximal subpart: its first byte's offset, its length and
/// why it is malformed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Malformed {
    pub offset: usize,
    pub len: usize,
    pub kind: ErrorKind,
}

const TAIL: RangeInclusive<u8> = 0x80..=0xBF;

/// One alternative of the grammar: its first octets, what its second octet
/// must be, and how many tails follow that.
struct Alternative {
    first: RangeInclusive<u8>,
    second: RangeInclusive<u8>,
    more_tails: usize,
}

const fn alt(
    first: RangeInclusive<u8>,
    second: RangeInclusive<u8>,
    more_tails: usize,
) -> Alternative {
    Alternative {
        first,
        second,
        more_tails,
    }
}

/// RFC 3629 §4, `UTF8-2` to `UTF8-4`, alternative by alternative, up to
/// the lead F0: Annex R Table 1 has the same rows (shortest form only,
/// surrogates excluded, Note 3).
const UP_TO_F0: &[Alternative] = &[
    alt(0xC2..=0xDF, TAIL, 0),
    alt(0xE0..=0xE0, 0xA0..=0xBF, 1),
    alt(0xE1..=0xEC, TAIL, 1),
    alt(0xED..=0xED, 0x80..=0x9F, 1),
    alt(0xEE..=0xEF, TAIL, 1),
    alt(0xF0..=0xF0, 0x90..=0xBF, 2),
];

/// The rest of RFC 3629's `UTF8-4`: F1–F3, and F4 up to U+10FFFF.
const RFC3629_AFTER_F0: &[Alternative] =
    &[alt(0xF1..=0xF3, TAIL, 2), alt(0xF4..=0xF4, 0x80..=0x8F, 2)];

/// The rest of Annex R Table 1: F1–F7 as leads of four, then the leads of
/// five and six.
const ISO10646_AFTER_F0: &[Alternative] = &[
    alt(0xF1..=0xF7, TAIL, 2),
    alt(0xF8..=0xF8, 0x88..=0xBF, 3),
    alt(0xF9..=0xFB, TAIL, 3),
    alt(0xFC..=0xFC, 0x84..=0xBF, 4),
    alt(0xFD..=0xFD, TAIL, 4),
];

/// The alternatives of a profile's grammar.
fn grammar(profile: Profile) -> impl Iterator<Item = &'static Alternative> {
    let after_f0 = match profile {
        Profile::Rfc3629 => RFC3629_AFTER_F0,
        Profile::Iso10646 => ISO10646_AFTER_F0,
    };
    UP_TO_F0.iter().chain(after_f0)
}

/// Why a second octet that is a tail but outside the alternative's range
/// is refused: the bound exists to exclude overlong forms (E0, F0, F8, FC),
/// surrogates (ED) or values beyond U+10FFFF (F4 in RFC 3629).
fn outside_kind(first: u8) -> ErrorKind {
    match first {
        0xED => ErrorKind::Surrogate,
        0xF4 => ErrorKind::OutOfRange,
        _ => ErrorKind::Overlong,
    }
}

/// Why a byte that starts no alternative is malformed: a tail where a
/// character should start, C0 and C1 (they can only start overlong forms),
/// a lead beyond the profile's range, or FE and FF (never used).
fn lone_kind(byte: u8) -> ErrorKind {
    match byte {
        0x80..=0xBF => ErrorKind::UnexpectedContinuation,
        0xC0 | 0xC1 => ErrorKind::Overlong,
        0xFE | 0xFF => ErrorKind::InvalidByte,
        _ => ErrorKind::OutOfRange,
    }
}

/// What the bytes at the start of `rest` (not empty) are: `Ok(n)`, a
/// well-formed character of `n` bytes, or `Err(malformed)`, a maximal
/// subpart at offset 0. When `rest` ends inside the sequence, more bytes
/// could change the answer only if it is a truncated error ending there.
pub fn first_unit(rest: &[u8], profile: Profile) -> Result<usize, Malformed> {
    let first = rest[0];
    if first <= 0x7F {
        return Ok(1);
    }
    let Some(alternative) = grammar(profile).find(|a| a.first.contains(&first)) else {
        return Err(Malformed {
            offset: 0,
            len: 1,
            kind: lone_kind(first),
        });
    };
    let truncated = |len| Malformed {
        offset: 0,
        len,
        kind: ErrorKind::Truncated,
    };
    match rest.get(1) {
        None => return Err(truncated(1)),
        Some(second) if alternative.second.contains(second) => {}
        Some(second) if TAIL.contains(second) => {
            return Err(Malformed {
                offset: 0,
                len: 1,
                kind: outside_kind(first),
            })
        }
        Some(_) => return Err(truncated(1)),
    }
    let tails = rest[2..]
        .iter()
        .take(alternative.more_tails)
        .take_while(|b| TAIL.contains(b))
        .count();
    match tails == alternative.more_tails {
        true => Ok(2 + tails),
        false => Err(truncated(2 + tails)),
    }
}

/// Every malformed maximal subpart of `message`, in order. An empty result
/// means `message` is well-formed UTF-8 of `profile`.
pub fn validate(message: &[u8], profile: Profile) -> Vec<Malformed> {
    let mut errors = Vec::new();
    let mut offset = 0;
    while offset < message.len() {
        match first_unit(&message[offset..], profile) {
            Ok(len) => offset += len,
            Err(malformed) => {
                errors.push(Malformed {
                    offset,
                    ..malformed
                });
                offset += malformed.len;
            }
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(bytes: &[u8], profile: Profile) -> Vec<(usize, usize, ErrorKind)> {
        validate(bytes, profile)
            .into_iter()
            .map(|m| (m.offset, m.len, m.kind))
            .collect()
    }

    /// RFC 3629 §7's examples are well formed.
    #[test]
    fn the_rfcs_examples_are_well_formed() {
        for example in [
            &b"\x41\xE2\x89\xA2\xCE\x91\x2E"[..],
            b"\xED\x95\x9C\xEA\xB5\xAD\xEC\x96\xB4",
            b"\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E",
            b"\xEF\xBB\xBF\xF0\xA3\x8E\xB4",
        ] {
            for profile in Profile::ALL {
                assert_eq!(errors(example, profile), []);
            }
        }
    }

    /// Unicode §3.9, Table 3-8: `61 F1 80 80 E1 80 C2 62 80 63 80 BF 64`
    /// becomes `a U+FFFD U+FFFD U+FFFD b U+FFFD c U+FFFD U+FFFD d`.
    #[test]
    fn the_maximal_subparts_of_the_unicode_example() {
        let bytes = b"\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64";
        let t = ErrorKind::Truncated;
        let u = ErrorKind::UnexpectedContinuation;
        assert_eq!(
            errors(bytes, Profile::Rfc3629),
            [
                (1, 3, t),
                (4, 2, t),
                (6, 1, t),
                (8, 1, u),
                (10, 1, u),
                (11, 1, u)
            ]
        );
    }

    #[test]
    fn bounded_second_octets_name_why() {
        let r = Profile::Rfc3629;
        assert_eq!(errors(b"\xE0\x80\x80", r)[0], (0, 1, ErrorKind::Overlong));
        assert_eq!(errors(b"\xED\xA0\x80", r)[0], (0, 1, ErrorKind::Surrogate));
        assert_eq!(
            errors(b"\xF4\x90\x80\x80", r)[0],
            (0, 1, ErrorKind::OutOfRange)
        );
        assert_eq!(errors(b"\xF4\x90\x80\x80", Profile::Iso10646), []);
        assert_eq!(
            errors(b"\xF8\x87\x80\x80\x80", Profile::Iso10646)[0],
            (0, 1, ErrorKind::Overlong)
        );
        assert_eq!(errors(b"\xFD\xBF\xBF\xBF\xBF\xBF", Profile::Iso10646), []);
        assert_eq!(errors(b"\xFD", r), [(0, 1, ErrorKind::OutOfRange)]);
        assert_eq!(
            errors(b"\xFE\xC1", r),
            [(0, 1, ErrorKind::InvalidByte), (1, 1, ErrorKind::Overlong)]
        );
    }
}
