//! Property tests of the reference decoder on random messages of up to 64
//! bytes, biased toward lead and continuation bytes so that most messages
//! hold long, broken and boundary sequences.

use proptest::prelude::*;
use utf8hdl_hdl::{ErrorKind, Profile, REPLACEMENT};
use utf8hdl_sim::reference::{decode, encode, validate, Malformed, Unit};

/// One byte from weighted pools: ASCII, continuation bytes, and the leads
/// of each sequence length (F8–FF: five- and six-byte leads, FE and FF).
fn biased_byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        3 => 0x00u8..=0x7F,
        6 => 0x80u8..=0xBF,
        2 => 0xC0u8..=0xDF,
        2 => 0xE0u8..=0xEF,
        2 => 0xF0u8..=0xF7,
        2 => 0xF8u8..=0xFF,
    ]
}

fn message() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(biased_byte(), 0..=64)
}

/// A biased message with nothing the two profiles' tables treat
/// differently: F5–FD are replaced by other leads, and a byte 90–BF after
/// F4 by 80–8F.
fn message_same_in_both_profiles() -> impl Strategy<Value = Vec<u8>> {
    message().prop_map(|mut bytes| {
        for i in 0..bytes.len() {
            if (0xF5..=0xFD).contains(&bytes[i]) {
                // F5–F9 become F0–F4; FA–FD become FE.
                bytes[i] = if bytes[i] <= 0xF9 { bytes[i] - 5 } else { 0xFE };
            }
            if i > 0 && bytes[i - 1] == 0xF4 && (0x90..=0xBF).contains(&bytes[i]) {
                bytes[i] &= 0x8F;
            }
        }
        bytes
    })
}

/// Whether `bytes` avoids the leads F5–FD and F4 followed by 90–BF.
fn same_in_both_profiles(bytes: &[u8]) -> bool {
    !bytes.iter().any(|b| (0xF5..=0xFD).contains(b))
        && !bytes
            .windows(2)
            .any(|w| w[0] == 0xF4 && (0x90..=0xBF).contains(&w[1]))
}

/// Spans are contiguous and cover the message exactly.
fn spans_tile(bytes: &[u8], units: &[Unit]) -> Result<(), TestCaseError> {
    let mut offset = 0;
    for unit in units {
        prop_assert_eq!(unit.span.start, offset);
        prop_assert!(unit.span.end > offset);
        offset = unit.span.end;
    }
    prop_assert_eq!(offset, bytes.len());
    Ok(())
}

/// A UCS-4 value iso10646 can encode: anything up to 7FFF FFFF but the
/// surrogates, biased toward short forms and the ends of each length.
fn iso10646_value() -> impl Strategy<Value = u32> {
    prop_oneof![
        0u32..=0x7F,
        0x80u32..=0x7FF,
        0x800u32..=0xFFFF,
        0x1_0000u32..=0x1F_FFFF,
        0x20_0000u32..=0x3FF_FFFF,
        0x400_0000u32..=0x7FFF_FFFF,
        prop::sample::select(vec![
            0x7F,
            0x80,
            0x7FF,
            0x800,
            0xFFFF,
            0x1_0000,
            0x1F_FFFF,
            0x20_0000,
            0x3FF_FFFF,
            0x400_0000,
            0x7FFF_FFFF,
        ]),
    ]
    .prop_filter("surrogate", |v| !(0xD800..=0xDFFF).contains(v))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    /// RFC 3629 §3 with Unicode §3.9 maximal subparts: rfc3629 gives
    /// from_utf8_lossy's code points, with spans that tile the message and
    /// U+FFFD on every error unit.
    #[test]
    fn rfc3629_equals_from_utf8_lossy(bytes in message()) {
        let units = decode(&bytes, Profile::Rfc3629);
        let values: Vec<u32> = units.iter().map(|u| u.value).collect();
        let lossy: Vec<u32> = String::from_utf8_lossy(&bytes).chars().map(u32::from).collect();
        prop_assert_eq!(values, lossy);
        spans_tile(&bytes, &units)?;
        for unit in units.iter().filter(|u| u.error.is_some()) {
            prop_assert_eq!(unit.value, REPLACEMENT);
        }
    }

    /// Annex R: iso10646 units tile the message; an error is U+FFFD and
    /// never out_of_range; every character re-encodes (Annex R Table 4) to
    /// exactly the bytes of its span, so it was in shortest form.
    #[test]
    fn iso10646_units_tile_and_characters_reencode(bytes in message()) {
        let units = decode(&bytes, Profile::Iso10646);
        spans_tile(&bytes, &units)?;
        for unit in &units {
            match unit.error {
                Some(kind) => {
                    prop_assert_eq!(unit.value, REPLACEMENT);
                    prop_assert_ne!(kind, ErrorKind::OutOfRange);
                }
                None => {
                    let encoded = encode(unit.value, Profile::Iso10646);
                    prop_assert_eq!(encoded.as_deref(), Some(&bytes[unit.span.clone()]));
                }
            }
        }
        if same_in_both_profiles(&bytes) {
            prop_assert_eq!(&units, &decode(&bytes, Profile::Rfc3629));
        }
    }

    /// The two profiles' tables differ only on the leads F5–FD and on F4
    /// followed by 90–BF (the well-formed table and error row 6), so
    /// on messages without them iso10646 gives exactly rfc3629's units,
    /// error kinds and spans included.
    #[test]
    fn iso10646_equals_rfc3629_without_f5_to_fd_or_f4_90_to_bf(
        bytes in message_same_in_both_profiles()
    ) {
        prop_assert!(same_in_both_profiles(&bytes));
        prop_assert_eq!(decode(&bytes, Profile::Iso10646), decode(&bytes, Profile::Rfc3629));
    }

    /// Annex R Tables 4 and 5: a message made of encoded values (up to 7FFF
    /// FFFF, surrogates excluded) decodes back to exactly those values, one
    /// unit per value with the span of its encoding.
    #[test]
    fn iso10646_concatenated_encodings_decode_back(
        values in prop::collection::vec(iso10646_value(), 0..16)
    ) {
        let mut bytes = Vec::new();
        let mut expected = Vec::new();
        for &value in &values {
            let start = bytes.len();
            bytes.extend(encode(value, Profile::Iso10646).unwrap());
            expected.push(Unit { value, span: start..bytes.len(), error: None });
        }
        prop_assert_eq!(decode(&bytes, Profile::Iso10646), expected);
    }

    /// The error table's last rule: the byte that ends a truncated or
    /// out-of-bounds sequence is not consumed, it starts the next unit. So
    /// cutting the message before any unit and decoding the halves gives
    /// the same units, except that the unit just before the cut, if its kind
    /// came from the byte after it (rows 4–6 on the second byte), becomes
    /// truncated with the same span.
    #[test]
    fn decoding_splits_at_every_unit_boundary(bytes in message()) {
        for profile in Profile::ALL {
            let units = decode(&bytes, profile);
            for (i, unit) in units.iter().enumerate() {
                let cut = unit.span.start;
                let mut halves = decode(&bytes[..cut], profile);
                halves.extend(decode(&bytes[cut..], profile).into_iter().map(|u| Unit {
                    span: u.span.start + cut..u.span.end + cut,
                    ..u
                }));
                prop_assert_eq!(halves.len(), units.len());
                for (j, (half, whole)) in halves.iter().zip(&units).enumerate() {
                    let looked_ahead = j + 1 == i
                        && matches!(
                            whole.error,
                            Some(ErrorKind::Overlong | ErrorKind::Surrogate | ErrorKind::OutOfRange)
                        )
                        && whole.span.len() == 1
                        && (0x80..=0xBF).contains(&bytes[cut])
                        && half.error == Some(ErrorKind::Truncated);
                    if looked_ahead {
                        prop_assert_eq!(&half.span, &whole.span);
                        prop_assert_eq!(half.value, whole.value);
                    } else {
                        prop_assert_eq!(half, whole, "cut before unit {}", i);
                    }
                }
            }
        }
    }

    /// The validator, written from RFC 3629 §4's grammar, finds exactly
    /// the decoder's error units (offset, length, kind) in both profiles.
    #[test]
    fn the_validator_finds_the_decoders_error_units(bytes in message()) {
        for profile in Profile::ALL {
            let errors: Vec<Malformed> = decode(&bytes, profile)
                .into_iter()
                .filter_map(|u| u.error.map(|kind| Malformed { offset: u.span.start, len: u.span.len(), kind }))
                .collect();
            prop_assert_eq!(validate(&bytes, profile), errors);
        }
    }
}
