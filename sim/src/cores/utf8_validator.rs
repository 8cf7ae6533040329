//! # The UTF-8 validators, described
//!
//! The validators as [`Core`]s: bytes in, the same bytes out, each a
//! [`Marked`] byte whose `tuser` is the error of the malformed maximal
//! subpart it starts (0 for none), checked against the reference
//! validator ([`Validation`], written from RFC 3629 §4's grammar). N
//! bytes per clock ([`Validator`]); the beats keep their null lanes where
//! they were ([`Core::PACKED`] is false).

use std::fmt;

use utf8hdl_hdl::utf8_validator::{
    Utf8ValidatorX1, Utf8ValidatorX16, Utf8ValidatorX2, Utf8ValidatorX32, Utf8ValidatorX4,
    Utf8ValidatorX8,
};
use utf8hdl_hdl::{ErrorKind, Profile};

use crate::core::{Core, Lane, Model, Next};
use crate::cores::formal::{Check, Formal, Method};
use crate::cores::{Description, Kind};
use crate::reference;

/// What the registry holds of the validators.
pub const DESCRIPTION: Description = Description {
    name: "validator",
    summary: "UTF-8 validation, bytes passed on with each error marked, 1 to 32 bytes per clock",
    title: "UTF-8 validator",
    port_notes,
    lane_counts: &LANE_COUNTS,
    profiles: &Profile::ALL,
    reference: "sim/reference/src/validate.rs",
    figures: &[],
    formal,
    on_boards: false,
};

/// The lane counts a validator comes in.
pub const LANE_COUNTS: [usize; 6] = [1, 2, 4, 8, 16, 32];

fn port_notes(_lanes: usize) -> &'static str {
    "Lane i: s_axis_tdata[8i+7:8i] (lane 0 first in the stream), m_axis_tdata[8i+7:8i],\n\
     m_axis_tuser[4i+3:4i]: 0, or on the first byte of a malformed maximal subpart\n\
     bit 4i set and the error kind code in the 3 above. tdata, tkeep and tlast leave\n\
     as they came (null lanes where they were); a null beat without tlast is dropped."
}

fn formal(_lanes: usize) -> &'static Formal {
    &FORMAL
}

/// The validators' formal plan (`hdl/formal/utf8_validator_properties.v`),
/// by BMC: the AXI4-Stream rules on `m_axis`, the shape of a beat's marks,
/// the framing, and every byte passed on with the specification's mark,
/// against a model written from the specifications (`utf8_validator_spec_model.v`, one step of the
/// decoders' [`SPEC_MODEL`](crate::cores::utf8_decoder::SPEC_MODEL) per
/// lane), under any `m_axis_tready`.
pub const FORMAL: Formal = Formal {
    checks: &[
        Check::new(
            Method::Bmc,
            "P2 m_axis keeps the AXI4-Stream rules",
            "axis",
            &["P2"],
        ),
        Check::new(
            Method::Bmc,
            "P4 each mark is an error of the profile; null lanes unmarked",
            "shape",
            &["P4"],
        ),
        Check::new(
            Method::Bmc,
            "P5 no more tlasts out than in",
            "framing",
            &["P5"],
        ),
        Check::new(
            Method::Bmc,
            "P6 every byte leaves as it came, with the spec model's mark",
            "model",
            &["P6"],
        ),
    ],
    models: &[
        crate::cores::utf8_decoder::SPEC_MODEL,
        crate::cores::utf8_decoder::SPEC_LANES,
        crate::formal_source!("faxis_lane_numbers.v"),
        crate::formal_source!("utf8_validator_spec_model.v"),
    ],
    cover_depth: 24,
    trace_depth: 20,
    ..Formal::one_lane(crate::formal_source!("utf8_validator_properties.v"), &[])
};

/// One lane of the validator's output: the byte as it came, and the
/// `tuser` of the error it starts ([`ErrorKind::tuser`]), or 0.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Marked {
    pub tdata: u8,
    pub tuser: u8,
}

impl Lane for Marked {
    const NAME: &'static str = "byte";
    const TDATA: usize = 8;
    const TUSER: usize = 4;

    fn tdata(&self) -> u32 {
        u32::from(self.tdata)
    }

    fn tuser(&self) -> u32 {
        u32::from(self.tuser)
    }

    fn from_bits(tdata: u32, tuser: u32) -> Marked {
        Marked {
            tdata: tdata as u8,
            tuser: tuser as u8,
        }
    }
}

impl fmt::Display for Marked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tdata={:02X} tuser={:X}", self.tdata, self.tuser)
    }
}

/// One unit of the reference validator: a character, or one malformed
/// maximal subpart, with its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    pub bytes: Vec<u8>,
    pub span: std::ops::Range<usize>,
    pub error: Option<ErrorKind>,
}

impl crate::core::Unit for Span {
    const NAME: &'static str = "byte";
    type Output = Marked;

    fn outputs(&self) -> impl Iterator<Item = Marked> {
        let first = self.error.map_or(0, ErrorKind::tuser);
        self.bytes
            .iter()
            .enumerate()
            .map(move |(i, &tdata)| Marked {
                tdata,
                tuser: if i == 0 { first } else { 0 },
            })
    }

    crate::unit_span_and_error!();

    fn describe(&self) -> String {
        format!(
            "{:02X?} {}",
            self.bytes,
            self.error.map_or("ok", ErrorKind::name)
        )
    }
}

/// The reference validator of a profile, as a [`Model`].
#[derive(Copy, Clone, Debug)]
pub struct Validation(pub Profile);

impl Model for Validation {
    type Input = u8;
    type Output = Marked;
    type Unit = Span;

    /// The first unit, once more bytes cannot change it: a truncated
    /// sequence that reaches the end of the bytes so far may yet go on.
    fn first(&self, message: &[u8], closed: bool) -> Next<Span> {
        if message.is_empty() {
            return Next::none_left(closed);
        }
        let (len, error) = match reference::first_unit(message, self.0) {
            Ok(len) => (len, None),
            Err(malformed) => (malformed.len, Some(malformed.kind)),
        };
        if !closed && error == Some(ErrorKind::Truncated) && len == message.len() {
            return Next::Undecided;
        }
        Next::Unit(Span {
            bytes: message[..len].to_vec(),
            span: 0..len,
            error,
        })
    }
}

/// The module name of the validator of `profile` and `lanes`.
pub fn module_name(profile: Profile, lanes: usize) -> String {
    match profile {
        Profile::Rfc3629 => format!("utf8_validator_x{lanes}"),
        Profile::Iso10646 => format!("utf8_validator_{}_x{lanes}", profile.name()),
    }
}

/// The validator of `N` lanes and a profile.
#[derive(Copy, Clone, Debug)]
pub struct Validator<const N: usize>(pub Profile);

macro_rules! validators {
    ($($lanes:literal => $block:ident),* $(,)?) => {$(
        impl Core for Validator<$lanes> {
            type Block = $block;
            const KIND: Kind = Kind::Validator;
            type Input = u8;
            type Output = Marked;
            type Model = Validation;

            const STATE: &'static [&'static str] = &[
                "credits.in_flight.q",
                "scan.beat",
                "marks.write",
                "marks.open",
                "marks.resolved",
                "hold.release",
                "queue.fetched$0.q",
            ];

            const LATENCY: u64 = $block::LATENCY;
            const PACKED: bool = false;
            const ERROR_KINDS: &'static [ErrorKind] = &ErrorKind::ALL;

            fn name(&self) -> String {
                module_name(self.0, $lanes)
            }

            fn profile(&self) -> Profile {
                self.0
            }

            fn model(&self) -> Validation {
                Validation(self.0)
            }

            fn block(&self) -> $block {
                $block::new(self.0)
            }

            crate::axis_io!($block; m_tuser tkeep);
        }
    )*};
}

validators!(
    1 => Utf8ValidatorX1,
    2 => Utf8ValidatorX2,
    4 => Utf8ValidatorX4,
    8 => Utf8ValidatorX8,
    16 => Utf8ValidatorX16,
    32 => Utf8ValidatorX32,
);

/// Runs `$body` with `$core` bound to the validator of `$lanes` lanes.
#[macro_export]
macro_rules! with_validator {
    ($lanes:expr, $profile:expr, |$core:ident| $body:expr) => {
        match $lanes {
            1 => {
                let $core = $crate::cores::utf8_validator::Validator::<1>($profile);
                $body
            }
            2 => {
                let $core = $crate::cores::utf8_validator::Validator::<2>($profile);
                $body
            }
            4 => {
                let $core = $crate::cores::utf8_validator::Validator::<4>($profile);
                $body
            }
            8 => {
                let $core = $crate::cores::utf8_validator::Validator::<8>($profile);
                $body
            }
            16 => {
                let $core = $crate::cores::utf8_validator::Validator::<16>($profile);
                $body
            }
            32 => {
                let $core = $crate::cores::utf8_validator::Validator::<32>($profile);
                $body
            }
            n => {
                return Err(anyhow::anyhow!(
                    "no {n}-lane validator: it has 1, 2, 4, 8, 16 and 32 lanes"
                ))
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{probes, Lanes};

    #[test]
    fn validators_are_described_by_their_ports() {
        fn check<C: Core>(core: C, count: usize, name: &str) {
            let lanes = core.lanes().unwrap();
            assert_eq!(lanes, Lanes { count, tkeep: true }, "{name}");
            assert_eq!(core.name(), name);
            probes(&core).unwrap();
        }
        check(Validator::<2>(Profile::Rfc3629), 2, "utf8_validator_x2");
        check(
            Validator::<32>(Profile::Iso10646),
            32,
            "utf8_validator_iso10646_x32",
        );
    }
}
