//! # The UTF-8 encoder, described
//!
//! [`Utf8Encoder`] as a [`Core`]: UCS-4 words in, an [`Octet`] out a beat,
//! checked against the reference encoder ([`Reference`]). A word the
//! profile cannot encode becomes U+FFFD's octets, each flagged in `tuser`.

use std::fmt;
use std::ops::Range;

use utf8hdl_hdl::{ErrorKind, Profile, Utf8Encoder};

use crate::core::{Core, Flagged, Lane, Model, Next, Rate, Unit};
use crate::cores::formal::{Check, Formal, Method, AXIS, BYTEWISE_STAGE, COVERS, FRAMING};
use crate::cores::{Description, Kind};
use crate::figures::{Feed, Figure};
use crate::reference::{self, REPLACEMENT};

/// The registry's entry ([`crate::cores`]).
pub const DESCRIPTION: Description = Description {
    name: "encoder",
    summary: "UCS-4 -> UTF-8, one octet per clock (1 lane)",
    title: "UCS-4 -> UTF-8 encoder",
    port_notes,
    lane_counts: &[1],
    profiles: &Profile::ALL,
    reference: "sim/reference/src/utf8.rs",
    figures: FIGURES,
    formal: |_| &FORMAL,
    on_boards: false,
    latency_holds: "",
};

/// Its figure in the guide.
pub const FIGURES: &[Figure] = &[Figure::ports(
    "encoder_octets",
    "41, 20AC, 42 through Utf8Encoder: 20AC leaves as E2 82 AC, one octet a clock, while 42 waits",
    Feed::Words(&[0x41, 0x20AC, 0x42]),
)];

/// Its formal plan (`utf8hdl formal --core encoder`), in both profiles: the
/// AXI4-Stream rules, the rate, only octets that UTF-8 carries and the
/// framing, proven for all time on its ports, and the invariants of its
/// two stages' split and early enables on its registers
/// (`utf8_encoder_properties.v`).
pub const FORMAL: Formal = Formal {
    models: &BYTEWISE_STAGE,
    ..Formal::one_lane(
        crate::formal_source!("utf8_encoder_properties.v"),
        &[
            AXIS,
            Check::new(Method::Prove, "P3 one octet per clock", "rate", &["P3"]),
            Check::new(
                Method::Prove,
                "P4 only octets UTF-8 carries, flags only on U+FFFD's",
                "safety",
                &["P4"],
            ),
            FRAMING,
            Check::new(
                Method::Prove,
                "Inside: each byte's copy of its stage's valid equals it; each enable figured a cycle ahead equals what it stands for",
                "copies",
                &["COPIES"],
            ),
            COVERS,
        ],
    )
};

/// How its lanes and `tuser` read.
fn port_notes(_lanes: usize) -> &'static str {
    "m_axis_tuser: 1 = the octet is one of EF BF BD, the U+FFFD sent for a word\n\
     the profile cannot encode (a surrogate, or a value past its range)."
}

/// One octet of the encoder's `m_axis`, and its `tuser` bit: it belongs to
/// the U+FFFD of a word that cannot be encoded.
pub type Octet = Flagged<u8>;

/// One word, encoded: its code units (octets in UTF-8, 16-bit units in
/// UTF-16), or U+FFFD's and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Encoded<T> {
    pub value: u32,
    pub code_units: Vec<T>,
    /// The word's offset in the stream, as a span of one.
    pub span: Range<usize>,
    /// Why it could not be encoded: a surrogate, or a value beyond the
    /// encoding's range.
    pub error: Option<ErrorKind>,
}

impl<T> Encoded<T> {
    /// Word `value` as `encoding` made it, or, where it had none
    /// (`None`), as U+FFFD's code units (`replacement`) and the reason.
    pub fn of(value: u32, encoding: Option<Vec<T>>, replacement: impl FnOnce() -> Vec<T>) -> Self {
        let (code_units, error) = match encoding {
            Some(code_units) => (code_units, None),
            None => {
                let kind = match value {
                    0xD800..=0xDFFF => ErrorKind::Surrogate,
                    _ => ErrorKind::OutOfRange,
                };
                (replacement(), Some(kind))
            }
        };
        Encoded {
            value,
            code_units,
            span: 0..1,
            error,
        }
    }
}

impl<T: Copy + Eq + fmt::UpperHex + fmt::Debug> Unit for Encoded<T>
where
    Flagged<T>: Lane,
{
    /// The encoded form of one word.
    const NAME: &'static str = "sequence";

    type Output = Flagged<T>;

    fn outputs(&self) -> impl Iterator<Item = Flagged<T>> {
        let error = self.error.is_some();
        self.code_units
            .iter()
            .map(move |&tdata| Flagged { tdata, error })
    }

    crate::unit_span_and_error!();

    fn describe(&self) -> String {
        let digits = 2 * std::mem::size_of::<T>();
        let code_units: Vec<String> = self
            .code_units
            .iter()
            .map(|c| format!("{c:0digits$X}"))
            .collect();
        format!(
            "{:08X} as {} {}",
            self.value,
            code_units.join(" "),
            self.error.map_or("ok", ErrorKind::name)
        )
    }
}

/// The reference encoder of a profile ([`reference::encode`]), as the
/// encoder's model.
#[derive(Copy, Clone, Debug)]
pub struct Reference(pub Profile);

impl Reference {
    /// Word `value`, encoded.
    pub fn encode(&self, value: u32) -> Encoded<u8> {
        Encoded::of(value, reference::encode(value, self.0), || {
            reference::encode(REPLACEMENT, self.0).expect("U+FFFD is encodable")
        })
    }
}

impl Model for Reference {
    type Input = u32;
    type Output = Octet;
    type Unit = Encoded<u8>;
    /// A word is decided as soon as it is accepted.
    fn first(&self, message: &[u32], closed: bool) -> Next<Encoded<u8>> {
        Next::of_first_input(message, closed, |value| self.encode(value))
    }
}

/// The UCS-4 → UTF-8 encoder, one octet per clock ([`Utf8Encoder`]).
#[derive(Copy, Clone, Debug)]
pub struct Encoder(pub Profile);

impl Core for Encoder {
    type Block = Utf8Encoder;
    const KIND: Kind = Kind::Encoder;
    type Input = u32;
    type Output = Octet;
    type Model = Reference;

    /// A word no UTF-8 (or UTF-16) carries: a surrogate, or beyond the
    /// profile's range.
    const ERROR_KINDS: &'static [ErrorKind] = &[ErrorKind::Surrogate, ErrorKind::OutOfRange];

    const STATE: &'static [&'static str] = &[
        "skid_buffer.buffered_valid.q",
        "skid_buffer.buffered_tdata.q",
        "valid.q",
        "octets_valid.q",
        "pending.keep$0.q",
        "pending.keep$1.q",
        "pending.keep$2.q",
        "pending.units$0.q",
        "pending.units$1.q",
        "pending.error.q",
        "pending.last.q",
    ];

    const LATENCY: u64 = Utf8Encoder::LATENCY;

    /// A word may make up to six octets, one a clock.
    const RATE: Rate = Rate::Output;

    fn name(&self) -> String {
        match self.0 {
            Profile::Rfc3629 => "utf8_encoder".into(),
            profile => format!("utf8_encoder_{}", profile.name()),
        }
    }

    crate::profile_core!(Utf8Encoder, Reference; m_tuser);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cores::assert_one_lane_ports;

    #[test]
    fn its_ports_say_one_lane_of_words_in_and_octets_out() {
        assert_one_lane_ports(
            &Encoder(Profile::Rfc3629),
            &[
                ("s_axis_tdata", 32),
                ("m_axis_tdata", 8),
                ("m_axis_tuser", 1),
            ],
        );
        assert_eq!(Encoder(Profile::Iso10646).name(), "utf8_encoder_iso10646");
    }

    /// The model's words against Rust's own UTF-8 (`char::encode_utf8`),
    /// and its U+FFFD where RFC 3629 §3 says a value has no encoding.
    #[test]
    fn the_model_encodes_as_rust_does() {
        let model = Reference(Profile::Rfc3629);
        for value in [
            0, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFF, 0x10000, 0x10FFFF,
        ] {
            let c = char::from_u32(value).unwrap();
            let mut buf = [0; 4];
            assert_eq!(
                model.encode(value).code_units,
                c.encode_utf8(&mut buf).as_bytes()
            );
        }
        for (value, kind) in [
            (0xD800, ErrorKind::Surrogate),
            (0xDFFF, ErrorKind::Surrogate),
            (0x11_0000, ErrorKind::OutOfRange),
            (0xFFFF_FFFF, ErrorKind::OutOfRange),
        ] {
            let encoded = model.encode(value);
            assert_eq!(
                (encoded.code_units, encoded.error),
                (vec![0xEF, 0xBF, 0xBD], Some(kind))
            );
        }
        let iso = Reference(Profile::Iso10646);
        assert_eq!(
            iso.encode(0x7FFF_FFFF).code_units,
            [0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF]
        );
        assert_eq!(iso.encode(0x8000_0000).error, Some(ErrorKind::OutOfRange));
    }
}
