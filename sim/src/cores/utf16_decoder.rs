//! # The UTF-16 decoder, described
//!
//! [`Utf16Decoder`] (16-bit code units in, UCS-4 words out) as a [`Core`],
//! checked against the reference UTF-16 decoder
//! ([`reference::utf16::Decoder`]). UTF-16 carries exactly RFC 3629's
//! values, so the core has one profile, [`Profile::Rfc3629`].

use utf8hdl_hdl::{ErrorKind, Profile, Utf16Decoder};

use crate::core::{Core, Model, Next};
use crate::cores::formal::{Check, Formal, Method, AXIS, COVERS, FRAMING, ONE_UNIT_PER_CLOCK};
use crate::cores::utf8_decoder::Word;
use crate::cores::{Description, Kind};
use crate::figures::{Feed, Figure};
use crate::reference;

/// The registry's entry ([`crate::cores`]).
pub const DESCRIPTION: Description = Description {
    name: "utf16-decoder",
    summary: "UTF-16 -> UCS-4, one code unit per clock (1 lane, rfc3629)",
    title: "UTF-16 -> UCS-4 decoder",
    port_notes,
    lane_counts: &[1],
    profiles: &[Profile::Rfc3629],
    reference: "sim/reference/src/utf16.rs",
    figures: FIGURES,
    formal: |_| &FORMAL,
    on_boards: false,
    latency_holds: "",
};

/// Its figure in the guide.
pub const FIGURES: &[Figure] = &[
    Figure::ports(
        "utf16_surrogates",
        "0041 D83D DE00 DC00 0042 through Utf16Decoder: a pair makes 1F600, a lone low surrogate U+FFFD",
        Feed::Words(&[0x41, 0xD83D, 0xDE00, 0xDC00, 0x42])
    ),
];

/// Its formal plan (`utf8hdl formal --core utf16-decoder`): the AXI4-Stream
/// rules, the rate, no unflagged error and the framing, proven for all
/// time on its ports (`utf16_decoder_properties.v`). Which surrogates pair,
/// across stalls and message ends, is checked in simulation against the
/// reference and CPython.
pub const FORMAL: Formal = Formal::one_lane(
    crate::formal_source!("utf16_decoder_properties.v"),
    &[
        AXIS,
        ONE_UNIT_PER_CLOCK,
        Check::new(Method::Prove, "P4 no unflagged error", "safety", &["P4"]),
        FRAMING,
        COVERS,
    ],
);

/// How its lanes and `tuser` read.
fn port_notes(_lanes: usize) -> &'static str {
    "m_axis_tuser: bit 0 = error, bits 3:1 = error kind code (5: an unpaired surrogate,\n\
     sent as one FFFD)."
}

/// The reference UTF-16 decoder ([`reference::utf16::Decoder`]), as its core's model.
#[derive(Copy, Clone, Debug)]
pub struct Reference;

impl Model for Reference {
    type Input = u16;
    type Output = Word;
    type Unit = reference::Unit;
    /// The first unit is final unless it is a high surrogate that ends the
    /// units accepted so far while its message goes on: a low one may
    /// still come.
    fn first(&self, message: &[u16], closed: bool) -> Next<reference::Unit> {
        let Some(unit) = reference::utf16::Decoder::new(message.iter().copied()).next() else {
            return Next::none_left(closed);
        };
        let open_end = unit.error == Some(ErrorKind::Surrogate)
            && unit.span.end == message.len()
            && reference::utf16::HIGH.contains(&message[unit.span.start]);
        match open_end && !closed {
            true => Next::Undecided,
            false => Next::Unit(unit),
        }
    }
}

/// The UTF-16 → UCS-4 decoder, one code unit per clock ([`Utf16Decoder`]).
#[derive(Copy, Clone, Debug)]
pub struct Decoder;

impl Core for Decoder {
    type Block = Utf16Decoder;
    const KIND: Kind = Kind::Utf16Decoder;
    type Input = u16;
    type Output = Word;
    type Model = Reference;

    /// An unpaired surrogate.
    const ERROR_KINDS: &'static [ErrorKind] = &[ErrorKind::Surrogate];

    const STATE: &'static [&'static str] = &[
        "skid_buffer.buffered_valid.q",
        "held",
        "held_valid.q",
        "held_last.q",
        "paired.q",
    ];

    const LATENCY: u64 = Utf16Decoder::LATENCY;

    crate::rfc3629_core!("utf16_decoder", Utf16Decoder, Reference; m_tuser);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cores::assert_one_lane_ports;
    use crate::reference::REPLACEMENT;

    #[test]
    fn its_ports_say_one_lane_of_code_units_in_and_words_out() {
        assert_one_lane_ports(
            &Decoder,
            &[
                ("s_axis_tdata", 16),
                ("m_axis_tdata", 32),
                ("m_axis_tuser", 4),
            ],
        );
    }

    /// A lone high surrogate at the end of what was accepted waits for the
    /// next unit, unless the message is closed; a lone low one does not.
    #[test]
    fn a_high_surrogate_waits_for_the_unit_after_it() {
        let model = Reference;
        let open = [0xD83Du16];
        assert!(matches!(model.first(&open, false), Next::Undecided));
        let Next::Unit(unit) = model.first(&open, true) else {
            panic!("a closed message decides its last unit");
        };
        assert_eq!(
            (unit.value, unit.error),
            (REPLACEMENT, Some(ErrorKind::Surrogate))
        );
        let low = [0xDE00u16];
        assert!(matches!(model.first(&low, false), Next::Unit(_)));
        let pair = [0xD83Du16, 0xDE00];
        let Next::Unit(unit) = model.first(&pair, false) else {
            panic!("a pair is decided by its low half");
        };
        assert_eq!((unit.value, unit.span), (0x1F600, 0..2));
    }
}
