//! # The UTF-16 cores, described
//!
//! [`Utf16Encoder`] (UCS-4 words in, 16-bit code units out) and
//! [`Utf16Decoder`] (code units in, UCS-4 words out) as [`Core`]s,
//! checked against the reference UTF-16 encoder and decoder
//! ([`reference::utf16`]). UTF-16 carries exactly RFC 3629's values, so
//! both cores have one profile, [`Profile::Rfc3629`].

use std::collections::VecDeque;

use utf8hdl_hdl::{ErrorKind, Profile, Utf16Decoder, Utf16Encoder};

use crate::core::{Core, Flagged, Model, Next, Rate};
use crate::decoder::Word;
use crate::encoder::Encoded;
use crate::reference::{self, REPLACEMENT};

/// One code unit of [`Utf16Encoder`]'s `m_axis`, and its `tuser` bit: it is
/// the U+FFFD of a word UTF-16 cannot carry.
pub type CodeUnit = Flagged<u16>;

/// The reference UTF-16 encoder ([`reference::utf16::encode`]), as its core's model.
#[derive(Copy, Clone, Debug)]
pub struct EncoderReference;

impl EncoderReference {
    /// Word `value`, encoded.
    pub fn encode(&self, value: u32) -> Encoded<u16> {
        Encoded::of(value, reference::utf16::encode(value), || {
            vec![REPLACEMENT as u16]
        })
    }
}

impl Model for EncoderReference {
    type Input = u32;
    type Output = CodeUnit;
    type Unit = Encoded<u16>;
    const KIND: &'static str = "utf16-encoder";
    const TITLE: &'static str = "UCS-4 -> UTF-16 encoder";

    fn port_notes(_lanes: usize) -> &'static str {
        "m_axis_tuser: 1 = the unit is the FFFD sent for a word UTF-16 cannot carry\n\
         (a surrogate, or a value above 10FFFF)."
    }

    /// A word is decided as soon as it is accepted.
    fn first(&self, message: &VecDeque<u32>, closed: bool) -> Next<Encoded<u16>> {
        Next::of_first_input(message, closed, |value| self.encode(value))
    }
}

/// The UCS-4 → UTF-16 encoder, one code unit per clock ([`Utf16Encoder`]).
#[derive(Copy, Clone, Debug)]
pub struct Encoder;

impl Core for Encoder {
    type Block = Utf16Encoder;
    type Input = u32;
    type Output = CodeUnit;
    type Model = EncoderReference;

    /// A word no UTF-16 carries: a surrogate, or beyond the
    /// profile's range.
    const ERROR_KINDS: &'static [ErrorKind] = &[ErrorKind::Surrogate, ErrorKind::OutOfRange];

    const STATE: &'static [&'static str] = &[
        "skid_buffer.buffered_valid.q",
        "pending_count.q",
        "pending_0.q",
        "pending_1.q",
        "pending_error.q",
        "pending_last.q",
    ];

    const LATENCY: u64 = Utf16Encoder::LATENCY;

    /// A word may make two code units, one a clock.
    const RATE: Rate = Rate::Output;

    fn name(&self) -> String {
        "utf16_encoder".into()
    }

    fn profile(&self) -> Profile {
        Profile::Rfc3629
    }

    fn model(&self) -> EncoderReference {
        EncoderReference
    }

    fn block(&self) -> Utf16Encoder {
        Utf16Encoder::default()
    }

    crate::axis_io!(Utf16Encoder; m_tuser);
}

/// The reference UTF-16 decoder ([`reference::utf16::Decoder`]), as its core's model.
#[derive(Copy, Clone, Debug)]
pub struct DecoderReference;

impl Model for DecoderReference {
    type Input = u16;
    type Output = Word;
    type Unit = reference::Unit;
    const KIND: &'static str = "utf16-decoder";
    const TITLE: &'static str = "UTF-16 -> UCS-4 decoder";

    fn port_notes(_lanes: usize) -> &'static str {
        "m_axis_tuser: bit 0 = error, bits 3:1 = error kind code (5: an unpaired surrogate,\n\
         sent as one FFFD)."
    }

    /// The first unit is final unless it is a high surrogate that ends the
    /// units accepted so far while its message goes on: a low one may
    /// still come.
    fn first(&self, message: &VecDeque<u16>, closed: bool) -> Next<reference::Unit> {
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
    type Input = u16;
    type Output = Word;
    type Model = DecoderReference;

    /// An unpaired surrogate.
    const ERROR_KINDS: &'static [ErrorKind] = &[ErrorKind::Surrogate];

    const STATE: &'static [&'static str] = &[
        "skid_buffer.buffered_valid.q",
        "held.q",
        "held_valid.q",
        "held_last.q",
        "paired.q",
    ];

    const LATENCY: u64 = Utf16Decoder::LATENCY;

    fn name(&self) -> String {
        "utf16_decoder".into()
    }

    fn profile(&self) -> Profile {
        Profile::Rfc3629
    }

    fn model(&self) -> DecoderReference {
        DecoderReference
    }

    fn block(&self) -> Utf16Decoder {
        Utf16Decoder::default()
    }

    crate::axis_io!(Utf16Decoder; m_tuser);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{ports, probes, Lanes};

    #[test]
    fn their_ports_say_one_lane_of_each() {
        let one = Lanes {
            count: 1,
            tkeep: false,
        };
        assert_eq!(Encoder.lanes().unwrap(), one);
        assert_eq!(Decoder.lanes().unwrap(), one);
        probes(&Encoder).unwrap();
        probes(&Decoder).unwrap();
        let widths = |names: Vec<(String, usize)>| {
            names
                .into_iter()
                .filter(|(name, _)| name.ends_with("tdata") || name.ends_with("tuser"))
                .collect::<Vec<_>>()
        };
        let of = |ports: Vec<crate::core::Port>| {
            widths(ports.into_iter().map(|p| (p.name, p.width)).collect())
        };
        assert_eq!(
            of(ports(&Decoder.block()).unwrap()),
            [
                ("s_axis_tdata".to_string(), 16),
                ("m_axis_tdata".to_string(), 32),
                ("m_axis_tuser".to_string(), 4)
            ]
        );
        assert_eq!(
            of(ports(&Encoder.block()).unwrap()),
            [
                ("s_axis_tdata".to_string(), 32),
                ("m_axis_tdata".to_string(), 16),
                ("m_axis_tuser".to_string(), 1)
            ]
        );
    }

    /// A lone high surrogate at the end of what was accepted waits for the
    /// next unit, unless the message is closed; a lone low one does not.
    #[test]
    fn a_high_surrogate_waits_for_the_unit_after_it() {
        let model = DecoderReference;
        let open = VecDeque::from([0xD83Du16]);
        assert!(matches!(model.first(&open, false), Next::Undecided));
        let Next::Unit(unit) = model.first(&open, true) else {
            panic!("a closed message decides its last unit");
        };
        assert_eq!(
            (unit.value, unit.error),
            (REPLACEMENT, Some(ErrorKind::Surrogate))
        );
        let low = VecDeque::from([0xDE00u16]);
        assert!(matches!(model.first(&low, false), Next::Unit(_)));
        let pair = VecDeque::from([0xD83Du16, 0xDE00]);
        let Next::Unit(unit) = model.first(&pair, false) else {
            panic!("a pair is decided by its low half");
        };
        assert_eq!((unit.value, unit.span), (0x1F600, 0..2));
    }
}
