//! Round trips through the reference encoder and decoder.
//!
//! For rfc3629 the oracle is `char::encode_utf8` (RFC 3629 §3) over every
//! Unicode scalar value. For iso10646 it is an independent encoder written
//! here from RFC 2044 §2's three steps (fill the x bits from the low-order
//! end, last octet first), over every value up to U+10FFFF and a stepped
//! sample up to 7FFF FFFF with every length boundary ±1.

use utf8hdl_hdl::Profile::{self, Iso10646, Rfc3629};
use utf8hdl_sim::reference::{decode, encode, Unit};

/// The last value of each length of Annex R Table 1 (0 is the first), the
/// edges of the surrogate block and U+10FFFF: the sample takes each ±1.
const BOUNDARIES: [u32; 10] = [
    0x7F,
    0x7FF,
    0xD7FF,
    0xDFFF,
    0xFFFF,
    0x10_FFFF,
    0x1F_FFFF,
    0x3FF_FFFF,
    0x7FFF_FFFF,
    0x0,
];

/// RFC 2044 §2: "1) Determine the number of octets required from the
/// character value and the first column of the table above. 2) Prepare the
/// high-order bits of the octets ... 3) Fill in the bits marked x from the
/// bits of the character value, starting from the lower-order bits of the
/// character value and putting them first in the last octet of the
/// sequence, then the next to last, etc."
fn rfc2044_encode(value: u32) -> Vec<u8> {
    let length = match value {
        0x0000_0000..=0x0000_007F => return vec![value as u8],
        0x0000_0080..=0x0000_07FF => 2,
        0x0000_0800..=0x0000_FFFF => 3,
        0x0001_0000..=0x001F_FFFF => 4,
        0x0020_0000..=0x03FF_FFFF => 5,
        0x0400_0000..=0x7FFF_FFFF => 6,
        _ => panic!("{value:X} is beyond UCS-4"),
    };
    // Step 2: n ONE bits then a ZERO in the first octet, 10 in the others.
    let mut octets = vec![0x80u8; length];
    octets[0] = !(0xFFu8 >> length);
    // Step 3: the x bits, low-order first, from the last octet backwards.
    let mut bits = value;
    for (i, octet) in octets.iter_mut().enumerate().rev() {
        let free = if i == 0 { 7 - length } else { 6 };
        for bit in 0..free {
            *octet |= ((bits & 1) as u8) << bit;
            bits >>= 1;
        }
    }
    assert_eq!(bits, 0, "{value:X} does not fit in {length} octets");
    octets
}

/// Asserts that `value` encodes to `octets` in `profile` and that the
/// octets decode back to one unit of `value` with no error.
#[track_caller]
fn assert_round_trip(value: u32, octets: &[u8], profile: Profile) {
    let encoded = encode(value, profile);
    assert_eq!(
        encoded.as_deref(),
        Some(octets),
        "encode {value:X} in {profile}"
    );
    let units = decode(octets, profile);
    assert_eq!(
        units,
        [Unit {
            value,
            span: 0..octets.len(),
            error: None
        }],
        "decode {octets:02X?} in {profile}"
    );
}

/// RFC 3629 §3: for every Unicode scalar value, encode equals
/// `char::encode_utf8` in both profiles and decode(encode(v)) == [v].
#[test]
fn every_scalar_value_round_trips_and_matches_char_encode_utf8() {
    let mut buffer = [0u8; 4];
    let mut count = 0;
    for c in (0..=0x10_FFFF).filter_map(char::from_u32) {
        let octets = c.encode_utf8(&mut buffer).as_bytes();
        for profile in Profile::ALL {
            assert_round_trip(u32::from(c), octets, profile);
        }
        count += 1;
    }
    assert_eq!(count, 0x11_0000 - 0x800, "every scalar value");
}

/// RFC 3629 §3 and Annex R Note 3: surrogates are not encoded in either
/// profile.
#[test]
fn surrogates_do_not_encode() {
    for value in 0xD800..=0xDFFF {
        for profile in Profile::ALL {
            assert_eq!(encode(value, profile), None, "{value:X} in {profile}");
        }
    }
}

/// RFC 3629 §3: nothing above U+10FFFF encodes in rfc3629; Annex R: nothing
/// above 7FFF FFFF encodes in iso10646.
#[test]
fn values_above_the_profile_maximum_do_not_encode() {
    for value in [
        0x11_0000,
        0x11_0001,
        0x1F_FFFF,
        0x20_0000,
        0x7FFF_FFFF,
        0x8000_0000,
        u32::MAX,
    ] {
        assert_eq!(encode(value, Rfc3629), None, "{value:X}");
    }
    assert_eq!(
        encode(0x10_FFFF, Rfc3629),
        Some(vec![0xF4, 0x8F, 0xBF, 0xBF])
    );
    for value in [0x8000_0000, 0x8000_0001, 0xFFFF_FFFF] {
        assert_eq!(encode(value, Iso10646), None, "{value:X}");
    }
    for value in (0x8000_0000..=u32::MAX).step_by(65_521) {
        assert_eq!(encode(value, Iso10646), None, "{value:X}");
    }
}

/// The independent RFC 2044 encoder agrees with Annex R Table 3's
/// boundary rows (hand-transcribed here), so it can serve as an oracle.
#[test]
fn rfc2044_oracle_matches_annex_r_table_3() {
    let rows: [(u32, &[u8]); 6] = [
        (0x7F, &[0x7F]),
        (0x80, &[0xC2, 0x80]),
        (0x800, &[0xE0, 0xA0, 0x80]),
        (0x1_0000, &[0xF0, 0x90, 0x80, 0x80]),
        (0x400_0000, &[0xFC, 0x84, 0x80, 0x80, 0x80, 0x80]),
        (0x7FFF_FFFF, &[0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF]),
    ];
    for (value, octets) in rows {
        assert_eq!(rfc2044_encode(value), octets, "{value:X}");
    }
}

/// Annex R Tables 1, 4 and 5 in iso10646: every value up to U+10FFFF (but
/// surrogates), a stepped sample up to 7FFF FFFF, and every boundary ±1
/// encode as RFC 2044 §2 says and decode back to themselves.
#[test]
fn iso10646_dense_sample_round_trips() {
    let is_surrogate = |v: u32| (0xD800..=0xDFFF).contains(&v);
    let mut values: Vec<u32> = (0..=0x10_FFFF).collect();
    values.extend((0x11_0000..=0x7FFF_FFFF).step_by(4_099));
    for boundary in BOUNDARIES {
        values.extend([
            boundary.saturating_sub(1),
            boundary,
            boundary.saturating_add(1),
        ]);
    }
    values.retain(|&v| v <= 0x7FFF_FFFF && !is_surrogate(v));
    let mut lengths = [0usize; 7];
    for &value in &values {
        let octets = rfc2044_encode(value);
        assert_round_trip(value, &octets, Iso10646);
        lengths[octets.len()] += 1;
    }
    // The sample reaches every length of Table 1.
    assert!(lengths[1..].iter().all(|&n| n > 0), "{lengths:?}");
}
