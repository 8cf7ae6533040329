//! The reference UTF-16 encoder and decoder, written from RFC 2781 §2.1
//! (encoding) and §2.2 (decoding), with one U+FFFD for each code unit that
//! §2.2 calls an error: a high surrogate not followed by a low one, or a
//! low surrogate not preceded by a high one. That is CPython's
//! `decode('utf-16-be', 'replace')` and Unicode §3.9's "maximal subpart"
//! rule applied to UTF-16, where no subpart is longer than one unit.
//!
//! Code units are numbers here; which byte order carries them is the
//! caller's business.

use std::iter::Peekable;
use std::ops::RangeInclusive;

use crate::interface::{ErrorKind, REPLACEMENT};
use crate::utf8::Unit;

/// W1 of a pair: "between 0xD800 and 0xDBFF" (§2.2 step 3).
pub const HIGH: RangeInclusive<u16> = 0xD800..=0xDBFF;
/// W2 of a pair: "between 0xDC00 and 0xDFFF" (§2.2 step 4).
pub const LOW: RangeInclusive<u16> = 0xDC00..=0xDFFF;

/// The largest value UTF-16 carries (§2: "up to 0x10FFFF").
pub const MAX_VALUE: u32 = 0x10_FFFF;

/// Encodes one UCS-4 value (§2.1), or `None` for a value UTF-16 cannot
/// carry: a surrogate (D800–DFFF, which §2.1 step 1 would send as itself,
/// making a unit no decoder may accept alone) or one above U+10FFFF.
pub fn encode(value: u32) -> Option<Vec<u16>> {
    if (0xD800..=0xDFFF).contains(&value) || value > MAX_VALUE {
        return None;
    }
    // 1) "If U < 0x10000, encode U as a 16-bit unsigned integer and
    //    terminate."
    if value < 0x1_0000 {
        return Some(vec![value as u16]);
    }
    // 2) "Let U' = U - 0x10000." 3) W1 = 0xD800, W2 = 0xDC00.
    // 4) "Assign the 10 high-order bits of the 20-bit U' to the 10
    //    low-order bits of W1 and the 10 low-order bits of U' to the 10
    //    low-order bits of W2."
    let u = value - 0x1_0000;
    Some(vec![0xD800 | (u >> 10) as u16, 0xDC00 | (u & 0x3FF) as u16])
}

/// Decodes a stream of code units into units, lazily; spans count code
/// units. The stream is one message; it ends where the iterator ends.
pub struct Decoder<I: Iterator<Item = u16>> {
    units: Peekable<I>,
    offset: usize,
}

impl<I: Iterator<Item = u16>> Decoder<I> {
    pub fn new(units: I) -> Self {
        Decoder {
            units: units.peekable(),
            offset: 0,
        }
    }
}

impl<I: Iterator<Item = u16>> Iterator for Decoder<I> {
    type Item = Unit;

    fn next(&mut self) -> Option<Unit> {
        let start = self.offset;
        let w1 = self.units.next()?;
        self.offset += 1;
        let (value, error) = if !(HIGH.contains(&w1) || LOW.contains(&w1)) {
            // 2) "If W1 < 0xD800 or W1 > 0xDFFF, the character value U is
            //    the value of W1."
            (u32::from(w1), None)
        } else if let Some(w2) = HIGH
            .contains(&w1)
            .then(|| self.units.next_if(|w2| LOW.contains(w2)))
            .flatten()
        {
            // 5) "Construct a 20-bit unsigned integer U', taking the 10
            //    low-order bits of W1 as its 10 high-order bits and the 10
            //    low-order bits of W2 as its 10 low-order bits."
            // 6) "Add 0x10000 to U'."
            self.offset += 1;
            let u = (u32::from(w1 & 0x3FF) << 10) | u32::from(w2 & 0x3FF);
            (u + 0x1_0000, None)
        } else {
            // 3) and 4): a low surrogate first, or a high one without a low
            //    one after it, "is in error"; the unit after a lone high
            //    surrogate is read again.
            (REPLACEMENT, Some(ErrorKind::Surrogate))
        };
        Some(Unit {
            value,
            span: start..self.offset,
            error,
        })
    }
}

/// Decodes one whole message of code units.
pub fn decode(message: &[u16]) -> Vec<Unit> {
    Decoder::new(message.iter().copied()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against Rust's own UTF-16 (`char::encode_utf16`) on every scalar
    /// value, and `None` where RFC 2781 has no encoding.
    #[test]
    fn encodes_every_scalar_value_as_rust_does() {
        let mut buf = [0; 2];
        for value in 0..=0x11_0000u32 {
            let expected = char::from_u32(value).map(|c| c.encode_utf16(&mut buf).to_vec());
            assert_eq!(encode(value), expected, "{value:X}");
        }
        assert_eq!(encode(u32::MAX), None);
    }

    /// Against Rust's `char::decode_utf16`, which yields one error per
    /// unpaired surrogate, on every pair of units around the surrogate
    /// ranges and on strings of them.
    #[test]
    fn decodes_as_rust_does_with_one_replacement_per_unpaired_surrogate() {
        let edges = [
            0x0000, 0x0041, 0xD7FF, 0xD800, 0xD801, 0xDBFF, 0xDC00, 0xDC01, 0xDFFF, 0xE000, 0xFFFD,
            0xFFFF,
        ];
        let rust = |units: &[u16]| -> Vec<u32> {
            char::decode_utf16(units.iter().copied())
                .map(|r| r.map_or(REPLACEMENT, u32::from))
                .collect()
        };
        let mut messages: Vec<Vec<u16>> = Vec::new();
        for &a in &edges {
            for &b in &edges {
                for &c in &edges {
                    messages.push(vec![a, b, c]);
                }
            }
        }
        for message in &messages {
            let units = decode(message);
            let values: Vec<u32> = units.iter().map(|u| u.value).collect();
            assert_eq!(values, rust(message), "{message:04X?}");
            // The spans tile the message, a pair being one unit.
            let mut end = 0;
            for unit in &units {
                assert_eq!(unit.span.start, end);
                assert_eq!(unit.span.len(), 1 + usize::from(unit.value > 0xFFFF));
                assert_eq!(
                    unit.error.is_some(),
                    unit.value == REPLACEMENT
                        && unit.span.len() == 1
                        && (0xD800..=0xDFFF).contains(&message[unit.span.start])
                );
                end = unit.span.end;
            }
            assert_eq!(end, message.len());
        }
    }
}
