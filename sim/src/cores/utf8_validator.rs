//! # The UTF-8 validators, described
//!
//! The validators as [`Core`](crate::core::Core)s: bytes in, the same bytes out, each a
//! [`Marked`] byte whose `tuser` is the error of the malformed maximal
//! subpart it starts (0 for none), checked against the reference
//! validator ([`Validation`], written from RFC 3629 §4's grammar). N
//! bytes per clock ([`Validator`]); the beats keep their null lanes where
//! they were ([`Core::PACKED`](crate::core::Core::PACKED) is false).

use std::fmt;

use utf8hdl_hdl::utf8_decoder_wide::packing::beat_delay::levels;
use utf8hdl_hdl::utf8_validator::open_lead_hold::places;
use utf8hdl_hdl::utf8_validator::{
    Utf8ValidatorX1, Utf8ValidatorX16, Utf8ValidatorX2, Utf8ValidatorX32, Utf8ValidatorX4,
    Utf8ValidatorX8,
};
use utf8hdl_hdl::{ErrorKind, Profile};

use crate::core::{Lane, Model, Next};
use crate::cores::formal::{
    BmcEngine, Check, Formal, Method, Probe, BEAT_QUEUE, QUEUE_LANES_AGREE,
};
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
    latency_holds: "when no first octet is open at the beat's end and no beat waits in the hold \
        or the queue (a beat whose first octet is open waits for the beat that decides it, and \
        once `m_axis_tready` has been low, beats take the way through the queue's RAM until it \
        empties)",
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

/// The validators' formal plan (`hdl/formal/utf8_validator_properties.v`):
/// P3 (full rate) proven for all time by k-induction, with the invariants
/// of the credits and the queue (`beat_queue_rate.vh`) and of the hold of
/// beats with an open first octet stated on the core's registers
/// ([`PROBES`]); by BMC, the AXI4-Stream rules on `m_axis`, the shape of a
/// beat's marks, the framing, and every byte passed on with the
/// specification's mark, against a model written from the specifications
/// (`utf8_validator_spec_model.v`, one step of the decoders'
/// [`SPEC_MODEL`](crate::cores::utf8_decoder::SPEC_MODEL) per lane), under
/// any `m_axis_tready`.
pub const FORMAL: Formal = Formal {
    checks: &[
        Check::new(
            Method::Bmc,
            "P2 m_axis keeps the AXI4-Stream rules",
            "axis",
            &["P2"],
        ),
        Check::new(
            Method::Induct,
            "P3 full rate",
            "rate",
            &["P3", "INVARIANTS"],
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
        BEAT_QUEUE[0],
        BEAT_QUEUE[1],
    ],
    cover_depth: 24,
    trace_depth: 20,
    induction_depth: 8,
    bmc_engine: BmcEngine::AbcBmc3,
    probes: &PROBES,
    ..Formal::one_lane(crate::formal_source!("utf8_validator_properties.v"), &[])
};

/// What the invariants of [`FORMAL`] read beside the core's registers,
/// each a probe over the names of the validator of that many lanes
/// (`hdl/src/utf8_validator/`): the beats before the queue, the queue's
/// lanes in step, and the hold's places (`OpenLeadHold`), each an 8-bit
/// vector, place k at bit k (the bits above its places 0).
pub const PROBES: [Probe; 7] = [
    Probe {
        port: "f_pipeline_beats",
        width: 8,
        terms: pipeline_beats,
    },
    QUEUE_LANES_AGREE,
    hold_places("f_hold_full", |_, p| registers(p, "places$", "$full_reg")),
    hold_places("f_hold_open", |_, p| registers(p, "places$", "$any_open")),
    hold_places("f_hold_read_at", |_, p| registers(p, "read_at$", "")),
    hold_places("f_hold_write_at", |_, p| registers(p, "write_at$", "")),
    hold_places("f_hold_open_at", |_, p| registers(p, "open_at$", "")),
];

/// A probe of one register of each of the hold's places.
const fn hold_places(port: &'static str, terms: fn(usize, Profile) -> Vec<String>) -> Probe {
    Probe {
        port,
        width: 8,
        terms,
    }
}

/// The `{prefix}k{suffix}` registers of the places of the hold of a
/// validator of `profile`, as one vector, place k at bit k.
fn registers(profile: Profile, prefix: &str, suffix: &str) -> Vec<String> {
    let bits: Vec<String> = (0..places(profile))
        .rev()
        .map(|k| format!("hold${prefix}{k}{suffix}$q"))
        .collect();
    vec![format!("{{{}}}", bits.join(", "))]
}

/// The flops that say a beat is in the validator of `lanes` lanes before
/// its queue, by their exported names: the input register, the scan's
/// levels, the marks' output register, the hold's places and its output
/// register.
fn pipeline_beats(lanes: usize, profile: Profile) -> Vec<String> {
    let scan = (0..levels(lanes)).map(|l| format!("scan$beats$beat${l}$q"));
    let places = (0..places(profile)).map(|k| format!("hold$places${k}$full_reg$q"));
    ["beat$q".to_string()]
        .into_iter()
        .chain(scan)
        .chain(["marks$write_out$q".to_string()])
        .chain(places)
        .chain(["hold$out_valid$q".to_string()])
        .collect()
}

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

crate::lane_count_cores!(Validator, module_name, Validation {
    const KIND: Kind = Kind::Validator;
    type Input = u8;
    type Output = Marked;

    const STATE: &'static [&'static str] = &[
        "credits.in_flight.q",
        "scan.beat",
        "marks.write",
        "marks.open",
        "marks.resolved",
        "hold.release",
        "queue.fetched$0.q",
    ];

    const PACKED: bool = false;
    const ERROR_KINDS: &'static [ErrorKind] = &ErrorKind::ALL;
}
    1 => Utf8ValidatorX1,
    2 => Utf8ValidatorX2,
    4 => Utf8ValidatorX4,
    8 => Utf8ValidatorX8,
    16 => Utf8ValidatorX16,
    32 => Utf8ValidatorX32,
);

/// Runs `$body` with `$core` bound to the validator of `$lanes` lanes and
/// `$profile`, as [`with_core!`](crate::with_core) does for the decoder.
#[macro_export]
macro_rules! with_validator {
    ($lanes:expr, $profile:expr, |$core:ident| $body:expr) => {
        $crate::with_lane_count!($lanes, "validator", |$core| $body;
            1 => $crate::cores::utf8_validator::Validator::<1>($profile),
            2 => $crate::cores::utf8_validator::Validator::<2>($profile),
            4 => $crate::cores::utf8_validator::Validator::<4>($profile),
            8 => $crate::cores::utf8_validator::Validator::<8>($profile),
            16 => $crate::cores::utf8_validator::Validator::<16>($profile),
            32 => $crate::cores::utf8_validator::Validator::<32>($profile),
        )
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cores::assert_lane_ports as check;

    #[test]
    fn validators_are_described_by_their_ports() {
        check(Validator::<2>(Profile::Rfc3629), 2, "utf8_validator_x2");
        check(
            Validator::<32>(Profile::Iso10646),
            32,
            "utf8_validator_iso10646_x32",
        );
    }
}
