//! The reference decoder and encoder: the software model every other part of
//! utf8hdl is checked against.
//!
//! It is written from the specifications, not from the RTL:
//!
//! * ISO/IEC 10646-1:1993 Amd. 2 Annex R (Table 1 for the octet formats,
//!   Table 4 for encoding, Table 5 and Note 5 for decoding, R.7 for malformed
//!   sequences), and RFC 2044 §2, for the `iso10646` profile;
//! * RFC 3629 §3 (1–4 octets, U+10FFFF, no surrogates) for `rfc3629`;
//! * "shortest form only" from Kuhn's utf-8(7) and RFC 3629 §3;
//! * Unicode §3.9 "U+FFFD substitution of maximal subparts" for what a
//!   malformed stretch becomes.
//!
//! Each unit is either a character or one maximal subpart of a malformed
//! stretch. The byte that shows a sequence is broken is not part of that
//! sequence's error: it is read again as the start of the next unit.

use std::iter::Peekable;
use std::ops::{Range, RangeInclusive};

use crate::interface::{ErrorKind, Profile, REPLACEMENT};
use bitvec::prelude::*;

/// One decoded unit: a character, or one maximal subpart of malformed input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    /// The UCS-4 value, U+FFFD when `error` is set.
    pub value: u32,
    /// Offsets of its code units in the message (bytes, in UTF-8), end
    /// exclusive.
    pub span: Range<usize>,
    pub error: Option<ErrorKind>,
}

/// All continuing octets are 10xxxxxx (Annex R Table 1).
const CONTINUING: RangeInclusive<u8> = 0x80..=0xBF;

/// What a first octet announces (Annex R Table 1, narrowed by the
/// shortest-form and range rules of each profile).
enum Lead {
    /// The first octet of a sequence of `length` octets whose second octet
    /// must lie in `second`; a continuing octet outside it is an error of
    /// kind `outside` (shortest form or range).
    Sequence {
        length: usize,
        second: RangeInclusive<u8>,
        outside: ErrorKind,
    },
    /// An octet that cannot start a sequence at all.
    Malformed(ErrorKind),
}

/// The table of first octets: Annex R Table 1, with the second-octet bounds
/// that exclude overlong forms, surrogates (Annex R Note 3, RFC 3629 §3) and,
/// for rfc3629, values above U+10FFFF.
fn lead(octet: u8, profile: Profile) -> Lead {
    use ErrorKind::*;
    let seq = |length, second, outside| Lead::Sequence {
        length,
        second,
        outside,
    };
    match octet {
        0x00..=0x7F => seq(1, CONTINUING, Truncated),
        0x80..=0xBF => Lead::Malformed(UnexpectedContinuation),
        0xC0 | 0xC1 => Lead::Malformed(Overlong),
        0xC2..=0xDF => seq(2, CONTINUING, Truncated),
        0xE0 => seq(3, 0xA0..=0xBF, Overlong),
        0xED => seq(3, 0x80..=0x9F, Surrogate),
        0xE1..=0xEF => seq(3, CONTINUING, Truncated),
        0xF0 => seq(4, 0x90..=0xBF, Overlong),
        0xF4 => seq(4, profile.second_after_f4(), OutOfRange),
        0xF1..=0xF3 => seq(4, CONTINUING, Truncated),
        0xF5..=0xFD if octet > profile.last_lead() => Lead::Malformed(OutOfRange),
        0xF5..=0xF7 => seq(4, CONTINUING, Truncated),
        0xF8 => seq(5, 0x88..=0xBF, Overlong),
        0xF9..=0xFB => seq(5, CONTINUING, Truncated),
        0xFC => seq(6, 0x84..=0xBF, Overlong),
        0xFD => seq(6, CONTINUING, Truncated),
        0xFE | 0xFF => Lead::Malformed(InvalidByte),
    }
}

/// The number of free bits in an octet (Annex R Table 1): 7 in a sequence of
/// one, 7 − length in a first octet, 6 in a continuing octet.
fn free_bits(length: usize, position: usize) -> usize {
    match (length, position) {
        (1, _) => 7,
        (_, 0) => 7 - length,
        _ => 6,
    }
}

/// The free bits of a sequence, concatenated as a bit-string (Annex R Note 5).
/// A sequence has at most 1 + 5 × 6 = 31 of them.
struct FreeBits {
    string: BitArr!(for 32, in u32, Msb0),
    len: usize,
}

impl FreeBits {
    fn new() -> Self {
        FreeBits {
            string: BitArray::ZERO,
            len: 0,
        }
    }

    fn push(&mut self, octet: u8, count: usize) {
        // The free bits are the `count` low-order bits of the octet.
        self.string[self.len..self.len + count].store_be::<u8>(octet);
        self.len += count;
    }

    /// "The bits from this string, in increasing order of significance, are
    /// then distributed across the bit positions of a four-octet sequence,
    /// starting from the least significant bit position. The remaining bit
    /// positions of that sequence are filled with ZERO bits." (Note 5)
    fn ucs4(&self) -> u32 {
        self.string[..self.len].load_be::<u32>()
    }
}

/// Decodes a byte stream into units, lazily: memory stays flat however long
/// the stream. The stream is one message; it ends where the iterator ends.
pub struct Decoder<I: Iterator<Item = u8>> {
    bytes: Peekable<I>,
    offset: usize,
    profile: Profile,
}

impl<I: Iterator<Item = u8>> Decoder<I> {
    pub fn new(bytes: I, profile: Profile) -> Self {
        Decoder {
            bytes: bytes.peekable(),
            offset: 0,
            profile,
        }
    }

    fn unit(&self, start: usize, value: u32, error: Option<ErrorKind>) -> Unit {
        Unit {
            value,
            span: start..self.offset,
            error,
        }
    }

    fn malformed(&self, start: usize, kind: ErrorKind) -> Unit {
        self.unit(start, REPLACEMENT, Some(kind))
    }

    /// Takes the next octet if it may stand at `position` of a sequence that
    /// started with a lead whose second octet must lie in `second`.
    fn take_continuing(&mut self, position: usize, second: &RangeInclusive<u8>) -> Option<u8> {
        let allowed = if position == 1 { second } else { &CONTINUING };
        let octet = self.bytes.next_if(|b| allowed.contains(b))?;
        self.offset += 1;
        Some(octet)
    }

    /// Why a sequence stopped at `position`: a continuing octet outside the
    /// second-octet bounds is an overlong, surrogate or out-of-range form;
    /// anything else (or the end of the message) leaves it truncated.
    fn broken_by(&mut self, position: usize, outside: ErrorKind) -> ErrorKind {
        match self.bytes.peek() {
            Some(b) if position == 1 && CONTINUING.contains(b) => outside,
            _ => ErrorKind::Truncated,
        }
    }
}

impl<I: Iterator<Item = u8>> Iterator for Decoder<I> {
    type Item = Unit;

    fn next(&mut self) -> Option<Unit> {
        let start = self.offset;
        let first = self.bytes.next()?;
        self.offset += 1;
        let (length, second, outside) = match lead(first, self.profile) {
            Lead::Sequence {
                length,
                second,
                outside,
            } => (length, second, outside),
            Lead::Malformed(kind) => return Some(self.malformed(start, kind)),
        };
        let mut free = FreeBits::new();
        free.push(first, free_bits(length, 0));
        for position in 1..length {
            match self.take_continuing(position, &second) {
                Some(octet) => free.push(octet, free_bits(length, position)),
                None => {
                    let kind = self.broken_by(position, outside);
                    return Some(self.malformed(start, kind));
                }
            }
        }
        Some(self.unit(start, free.ucs4(), None))
    }
}

/// Decodes one whole message.
pub fn decode(message: &[u8], profile: Profile) -> Vec<Unit> {
    Decoder::new(message.iter().copied(), profile).collect()
}

/// Encodes one UCS-4 value (Annex R Table 4; RFC 3629 §3 for rfc3629).
/// Returns `None` for values the profile cannot encode: surrogates (Annex R
/// Note 3) and values above [`Profile::max_value`].
pub fn encode(value: u32, profile: Profile) -> Option<Vec<u8>> {
    if (0xD800..=0xDFFF).contains(&value) || value > profile.max_value() {
        return None;
    }
    let x = value;
    // Table 4, row by row: the first octet is the lead marker plus the high
    // bits, and every continuing octet is 80 + x / 2**(6k) % 2**6.
    let (marker, continuing) = match x {
        0x0000_0000..=0x0000_007F => return Some(vec![x as u8]),
        0x0000_0080..=0x0000_07FF => (0xC0, 1),
        0x0000_0800..=0x0000_FFFF => (0xE0, 2),
        0x0001_0000..=0x001F_FFFF => (0xF0, 3),
        0x0020_0000..=0x03FF_FFFF => (0xF8, 4),
        _ => (0xFC, 5),
    };
    let mut octets = vec![(marker + x / 2u32.pow(6 * continuing)) as u8];
    for k in (0..continuing).rev() {
        octets.push((0x80 + x / 2u32.pow(6 * k) % 2u32.pow(6)) as u8);
    }
    Some(octets)
}
