//! # The UTF-16 encoder, described
//!
//! [`Utf16Encoder`] (UCS-4 words in, 16-bit code units out) as a [`Core`],
//! checked against the reference UTF-16 encoder
//! ([`reference::utf16::encode`]). UTF-16 carries exactly RFC 3629's
//! values, so the core has one profile, [`Profile::Rfc3629`].

use utf8hdl_hdl::{ErrorKind, Profile, Utf16Encoder};

use crate::core::{Core, Flagged, Model, Next, Rate};
use crate::cores::formal::{
    Check, Formal, Method, AXIS, BYTEWISE_STAGE, COVERS, FRAMING, ONE_UNIT_PER_CLOCK, STAGE_COPIES,
};
use crate::cores::utf8_encoder::Encoded;
use crate::cores::{Description, Kind};
use crate::figures::{Feed, Figure};
use crate::reference::{self, REPLACEMENT};

/// The registry's entry ([`crate::cores`]).
pub const DESCRIPTION: Description = Description {
    name: "utf16-encoder",
    summary: "UCS-4 -> UTF-16, one code unit per clock (1 lane, rfc3629)",
    title: "UCS-4 -> UTF-16 encoder",
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
        "utf16_pair",
        "41, 1F600, 42 through Utf16Encoder: 1F600 leaves as the surrogate pair D83D DE00, one unit a clock, while 42 waits",
        Feed::Words(&[0x41, 0x1F600, 0x42])
    ),
];

/// Its formal plan (`utf8hdl formal --core utf16-encoder`): the AXI4-Stream
/// rules, the rate, well-formed UTF-16 and the framing, proven for all time
/// on its ports, and the invariant of its classifying stage's split enable
/// on its registers (`utf16_encoder_properties.v`).
pub const FORMAL: Formal = Formal {
    models: &BYTEWISE_STAGE,
    ..Formal::one_lane(
        crate::formal_source!("utf16_encoder_properties.v"),
        &[
            AXIS,
            ONE_UNIT_PER_CLOCK,
            Check::new(
                Method::Prove,
                "P4 well-formed UTF-16, flags only on FFFD",
                "safety",
                &["P4"],
            ),
            FRAMING,
            STAGE_COPIES,
            COVERS,
        ],
    )
};

/// How its lanes and `tuser` read.
fn port_notes(_lanes: usize) -> &'static str {
    "m_axis_tuser: 1 = the unit is the FFFD sent for a word UTF-16 cannot carry\n\
     (a surrogate, or a value above 10FFFF)."
}

/// One code unit of [`Utf16Encoder`]'s `m_axis`, and its `tuser` bit: it is
/// the U+FFFD of a word UTF-16 cannot carry.
pub type CodeUnit = Flagged<u16>;

/// The reference UTF-16 encoder ([`reference::utf16::encode`]), as its core's model.
#[derive(Copy, Clone, Debug)]
pub struct Reference;

impl Reference {
    /// Word `value`, encoded.
    pub fn encode(&self, value: u32) -> Encoded<u16> {
        Encoded::of(value, reference::utf16::encode(value), || {
            vec![REPLACEMENT as u16]
        })
    }
}

impl Model for Reference {
    type Input = u32;
    type Output = CodeUnit;
    type Unit = Encoded<u16>;
    /// A word is decided as soon as it is accepted.
    fn first(&self, message: &[u32], closed: bool) -> Next<Encoded<u16>> {
        Next::of_first_input(message, closed, |value| self.encode(value))
    }
}

/// The UCS-4 → UTF-16 encoder, one code unit per clock ([`Utf16Encoder`]).
#[derive(Copy, Clone, Debug)]
pub struct Encoder;

impl Core for Encoder {
    type Block = Utf16Encoder;
    const KIND: Kind = Kind::Utf16Encoder;
    type Input = u32;
    type Output = CodeUnit;
    type Model = Reference;

    /// A word no UTF-16 carries: a surrogate, or beyond the
    /// profile's range.
    const ERROR_KINDS: &'static [ErrorKind] = &[ErrorKind::Surrogate, ErrorKind::OutOfRange];

    const STATE: &'static [&'static str] = &[
        "skid_buffer.buffered_valid.q",
        "pending.keep$0.q",
        "pending.keep$1.q",
        "pending.units$0.q",
        "pending.units$1.q",
        "pending.error.q",
        "pending.last.q",
    ];

    const LATENCY: u64 = Utf16Encoder::LATENCY;

    /// A word may make two code units, one a clock.
    const RATE: Rate = Rate::Output;

    crate::rfc3629_core!("utf16_encoder", Utf16Encoder, Reference; m_tuser);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cores::assert_one_lane_ports;

    #[test]
    fn its_ports_say_one_lane_of_words_in_and_code_units_out() {
        assert_one_lane_ports(
            &Encoder,
            &[
                ("s_axis_tdata", 32),
                ("m_axis_tdata", 16),
                ("m_axis_tuser", 1),
            ],
        );
    }
}
