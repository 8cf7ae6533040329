//! The reference character properties: four facts about a code point that
//! a stream consumer often needs at line rate, each from the Unicode
//! Standard's own definition (chapter and clause cited at each).
//!
//! Values above U+10FFFF (which `iso10646` allows) are no code point: they
//! have only [`Property::NonBmp`].

use std::ops::RangeInclusive;

/// A property, and its bit in the flags ([`Property::bit`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Property {
    /// General category Cc (§4.5, §23.1): the C0 controls 0000–001F,
    /// DELETE 007F and the C1 controls 0080–009F.
    Control = 0,
    /// General category Co (§23.5): the Private Use Area E000–F8FF and the
    /// supplementary private use planes 15 and 16 (F0000–FFFFD,
    /// 100000–10FFFD).
    PrivateUse = 1,
    /// A noncharacter (§23.7, definition D14): FDD0–FDEF, and the last two
    /// code points of each of the 17 planes (xFFFE, xFFFF), 66 in all.
    Noncharacter = 2,
    /// Outside the Basic Multilingual Plane (§2.8): above FFFF, so two
    /// code units in UTF-16.
    NonBmp = 3,
}

impl Property {
    pub const ALL: [Property; 4] = [
        Property::Control,
        Property::PrivateUse,
        Property::Noncharacter,
        Property::NonBmp,
    ];

    /// Its bit in the flags (`m_axis_tuser` of the properties core).
    pub fn bit(self) -> u8 {
        1 << self as u8
    }

    /// Its name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Property::Control => "control",
            Property::PrivateUse => "private_use",
            Property::Noncharacter => "noncharacter",
            Property::NonBmp => "non_bmp",
        }
    }

    /// Whether `value` has it.
    pub fn of(self, value: u32) -> bool {
        let within = |ranges: &[RangeInclusive<u32>]| ranges.iter().any(|r| r.contains(&value));
        match self {
            Property::Control => within(&[0x00..=0x1F, 0x7F..=0x7F, 0x80..=0x9F]),
            Property::PrivateUse => {
                within(&[0xE000..=0xF8FF, 0xF_0000..=0xF_FFFD, 0x10_0000..=0x10_FFFD])
            }
            Property::Noncharacter => {
                // "the last two code points of each plane": planes 0 to 16.
                let plane_end = value >> 16 <= 0x10 && value & 0xFFFE == 0xFFFE;
                within(&[0xFDD0..=0xFDEF]) || plane_end
            }
            Property::NonBmp => value > 0xFFFF,
        }
    }
}

/// The flags of `value`: the bits ([`Property::bit`]) of the properties it
/// has.
pub fn flags(value: u32) -> u8 {
    Property::ALL
        .into_iter()
        .filter(|p| p.of(value))
        .map(Property::bit)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counts the standard gives: 65 controls (§23.1: "65 code points
    /// ... Cc"), 6,400 + 2 × 65,534 private-use code points (§23.5), and
    /// 66 noncharacters (§23.7); and Rust's `char::is_control`, which is
    /// general category Cc, on every scalar value.
    #[test]
    fn the_counts_are_the_standards() {
        let count = |p: Property| (0..=0x10_FFFF).filter(|&v| p.of(v)).count();
        assert_eq!(count(Property::Control), 65);
        assert_eq!(count(Property::PrivateUse), 6400 + 2 * 65534);
        assert_eq!(count(Property::Noncharacter), 66);
        assert_eq!(count(Property::NonBmp), 0x10_0000);
        for c in (0..=0x10_FFFF).filter_map(char::from_u32) {
            assert_eq!(Property::Control.of(u32::from(c)), c.is_control(), "{c:?}");
        }
        assert_eq!(flags(0x11_0000), Property::NonBmp.bit());
        assert_eq!(
            flags(0x10_FFFF),
            Property::Noncharacter.bit() | Property::NonBmp.bit()
        );
    }
}
