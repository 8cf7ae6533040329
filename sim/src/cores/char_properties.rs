//! # The character-properties core, described
//!
//! [`CharProperties`] as a [`Core`]: UCS-4 words in, the same words out,
//! each with its flags ([`reference::properties`]) in `tuser`. It has one
//! profile, [`Profile::Rfc3629`]: the properties are Unicode's, for the
//! code points U+0000..U+10FFFF.

use std::fmt;
use std::ops::Range;

use utf8hdl_hdl::{CharProperties, ErrorKind, Profile};

use crate::core::{Core, Model, Next, Unit};
use crate::cores::formal::{Check, Formal, Method, AXIS, COVERS, FRAMING};
use crate::cores::{Description, Kind};
use crate::reference::properties::{self, Property};

/// The registry's entry ([`crate::cores`]).
pub const DESCRIPTION: Description = Description {
    name: "properties",
    summary: "UCS-4 words with control/private-use/noncharacter/non-BMP flags (1 lane, rfc3629)",
    title: "UCS-4 character properties",
    port_notes,
    lane_counts: &[1],
    profiles: &[Profile::Rfc3629],
    reference: "sim/reference/src/properties.rs",
    figures: &[],
    formal: |_| &FORMAL,
    on_boards: false,
    latency_holds: "",
};

/// Its formal plan (`utf8hdl formal --core properties`): the AXI4-Stream
/// rules, the rate, every word unchanged and in order with exactly the flags
/// of the Unicode ranges (written as magnitudes in
/// `char_properties_properties.v`, where the core uses bit masks), and the
/// framing, proven for all time on its ports.
pub const FORMAL: Formal = Formal::one_lane(
    crate::formal_source!("char_properties_properties.v"),
    &[
        AXIS,
        Check::new(Method::Prove, "P3 one word per clock", "rate", &["P3"]),
        Check::new(
            Method::Prove,
            "P4 the flags are the word's properties",
            "safety",
            &["P4"],
        ),
        FRAMING,
        COVERS,
    ],
);

/// How its lanes and `tuser` read.
fn port_notes(_lanes: usize) -> &'static str {
    "m_axis_tdata: the word, unchanged. m_axis_tuser: bit 0 = control (Cc),\n\
     bit 1 = private use (Co), bit 2 = noncharacter, bit 3 = above FFFF."
}

/// One word of the core's `m_axis` and its flags.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Flags {
    pub tdata: u32,
    /// [`Property::bit`]s.
    pub tuser: u8,
}

crate::word_lane!(Flags, tuser: 4);

impl Flags {
    /// The names of the properties its flags say, or `none`.
    pub fn names(&self) -> String {
        let names: Vec<&str> = Property::ALL
            .into_iter()
            .filter(|p| self.tuser & p.bit() != 0)
            .map(Property::name)
            .collect();
        match names.is_empty() {
            true => "none".into(),
            false => names.join(","),
        }
    }
}

impl fmt::Display for Flags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tdata={:08X} tuser={:X}", self.tdata, self.tuser)
    }
}

/// One word and its flags, at its offset in the stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Described {
    pub flags: Flags,
    pub span: Range<usize>,
}

impl Unit for Described {
    const NAME: &'static str = "word";
    type Output = Flags;

    fn outputs(&self) -> impl Iterator<Item = Flags> {
        std::iter::once(self.flags)
    }

    fn span(&self) -> Range<usize> {
        self.span.clone()
    }

    fn span_mut(&mut self) -> &mut Range<usize> {
        &mut self.span
    }

    /// A property is not an error.
    fn error(&self) -> Option<ErrorKind> {
        None
    }

    fn describe(&self) -> String {
        format!("{:08X} {}", self.flags.tdata, self.flags.names())
    }
}

/// The reference properties ([`properties::flags`]), as the core's model.
#[derive(Copy, Clone, Debug)]
pub struct Reference;

impl Model for Reference {
    type Input = u32;
    type Output = Flags;
    type Unit = Described;
    /// A word is decided as soon as it is accepted.
    fn first(&self, message: &[u32], closed: bool) -> Next<Described> {
        Next::of_first_input(message, closed, |value| Described {
            flags: Flags {
                tdata: value,
                tuser: properties::flags(value),
            },
            span: 0..1,
        })
    }
}

/// The character-properties core, one word per clock ([`CharProperties`]).
#[derive(Copy, Clone, Debug)]
pub struct Properties;

impl Core for Properties {
    type Block = CharProperties;
    const KIND: Kind = Kind::Properties;
    type Input = u32;
    type Output = Flags;
    type Model = Reference;

    /// A property is not an error.
    const ERROR_KINDS: &'static [ErrorKind] = &[];

    const STATE: &'static [&'static str] = &["skid_buffer.buffered_valid.q"];

    const LATENCY: u64 = CharProperties::LATENCY;

    crate::rfc3629_core!("char_properties", CharProperties, Reference; m_tuser);
}
