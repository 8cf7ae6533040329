//! # The UTF-8 decoders, described
//!
//! The decoders of the family as [`Core`]s: bytes in, a [`Word`] out for
//! each unit (a character, or one maximal subpart of malformed input, as
//! U+FFFD with its [`ErrorKind`] in `tuser`), checked against the
//! reference decoder ([`Reference`]). One byte per clock ([`Decoder`]) or
//! N ([`WideDecoder`]); [`with_core!`](crate::with_core) maps a lane count
//! to its core.

use std::fmt;

use utf8hdl_hdl::utf8_decoder_wide::{
    Utf8DecoderX16, Utf8DecoderX2, Utf8DecoderX32, Utf8DecoderX4, Utf8DecoderX8,
};
use utf8hdl_hdl::{ErrorKind, Profile, Utf8Decoder};

use crate::core::{Core, Model, Next};
use crate::cores::formal::{
    BmcEngine, Check, Formal, Method, Probe, Source, AXIS, BEAT_QUEUE, COVERS, FRAMING,
    QUEUE_LANES_AGREE,
};
use crate::cores::{Description, Kind};
use crate::figures::{Feed, Figure, View};
use crate::reference;

/// The registry's entry ([`crate::cores`]).
pub const DESCRIPTION: Description = Description {
    name: "decoder",
    summary: "UTF-8 -> UCS-4, 1 to 32 bytes per clock",
    title: "UTF-8 -> UCS-4 decoder",
    port_notes,
    lane_counts: &LANE_COUNTS,
    profiles: &Profile::ALL,
    reference: "sim/reference/src/utf8.rs",
    figures: FIGURES,
    formal,
    on_boards: true,
    latency_holds: "",
};

/// Its figures in the guide: the 1-lane core's pipeline and flow control,
/// and the wide core's beats.
pub const FIGURES: &[Figure] = &[
    Figure::ports(
        "hello",
        "\"Hi ☺\": one byte per clock in, each word the core's latency after its last byte",
        Feed::Bytes("Hi ☺".as_bytes())
    ),
    Figure {
        name: "gathering",
        caption: "€ (E2 82 AC): the FSM gathers 4 + 6 + 6 free bits into U+20AC",
        lanes: 1,
        inputs: Feed::Bytes("€".as_bytes()),
        keep: &[],
        ready: &[],
        view: View::Pipeline,
    },
    Figure {
        name: "truncated",
        caption: "E2 82 41: the A that truncates E2 82 is decoded in the same cycle, with no lost cycle",
        lanes: 1,
        inputs: Feed::Bytes(b"\xE2\x82A"),
        keep: &[],
        ready: &[],
        view: View::Pipeline,
    },
    Figure {
        name: "two_words",
        caption: "C2 41 C2 41: two words from one byte, one cycle apart, at full rate",
        lanes: 1,
        inputs: Feed::Bytes(b"\xC2A\xC2A"),
        keep: &[],
        ready: &[],
        view: View::Pipeline,
    },
    Figure {
        name: "surrogate",
        caption: "ED A0 80: a surrogate is three maximal subparts, three U+FFFD",
        lanes: 1,
        inputs: Feed::Bytes(b"\xED\xA0\x80"),
        keep: &[],
        ready: &[],
        view: View::Pipeline,
    },
    Figure {
        name: "sample_errors",
        caption: "E2 82 41, C0 AF, ED A1 8C ED BE B4: the sample's truncated, overlong and surrogate errors",
        lanes: 1,
        inputs: Feed::Bytes(b"\xE2\x82A \xC0\xAF \xED\xA1\x8C\xED\xBE\xB4"),
        keep: &[],
        ready: &[],
        view: View::Pipeline,
    },
    Figure {
        name: "backpressure",
        caption: "ABCDEFGH with m_axis_tready low for 3 cycles: the skid buffer holds one byte, nothing is lost",
        lanes: 1,
        inputs: Feed::Bytes(b"ABCDEFGH"),
        keep: &[],
        ready: &[true, true, true, true, true, true, false, false, false, true],
        view: View::Flow,
    },
    Figure {
        name: "wide_broken",
        caption: "2 lanes, E2 82 | 41 42: the 41 of the next beat breaks E2 82, whose U+FFFD leaves with its own beat",
        lanes: 2,
        inputs: Feed::Bytes(b"\xE2\x82AB"),
        keep: &[],
        ready: &[],
        view: View::Ports,
    },
    Figure {
        name: "wide_sparse",
        caption: "2 lanes, € with null lanes (tkeep 01, 10, 01): the bytes are made dense before decoding",
        lanes: 2,
        inputs: Feed::Bytes("€".as_bytes()),
        keep: &[0b01, 0b10, 0b01],
        ready: &[],
        view: View::Ports,
    },
    Figure {
        name: "wide_packing",
        caption: "2 lanes, C3 A9 | 41 C3 | A9 42: é ends in lane 1, so its word is packed into lane 0 (tkeep 01, then 11)",
        lanes: 2,
        inputs: Feed::Bytes("éAéB".as_bytes()),
        keep: &[],
        ready: &[],
        view: View::Ports,
    },
];

/// The formal plan of the decoder of `lanes` lanes: [`FORMAL`] for 1,
/// [`WIDE_FORMAL`] up to [`WIDE_CHECKS_MAX_LANES`], [`WIDE_SAFETY_FORMAL`]
/// above.
fn formal(lanes: usize) -> &'static Formal {
    match lanes {
        1 => &FORMAL,
        2..=WIDE_CHECKS_MAX_LANES => &WIDE_FORMAL,
        _ => &WIDE_SAFETY_FORMAL,
    }
}

/// The specification of decoding, a byte at a time
/// (`hdl/formal/utf8_spec_model.v`), written from RFC 3629, ISO/IEC 10646
/// and Unicode §3.9, not from the RTL.
pub const SPEC_MODEL: Source = crate::formal_source!("utf8_spec_model.v");

/// One beat of N lanes through [`SPEC_MODEL`]'s step, one step per lane
/// (`hdl/formal/utf8_spec_lanes.v`): what the N-lane models share.
pub const SPEC_LANES: Source = crate::formal_source!("utf8_spec_lanes.v");

/// The formal plan of the 1-lane decoder (`utf8hdl formal`), in both
/// profiles: P2-P5 proven for all time (P5's `tlast`s and its units per
/// message in tasks of their own; the units by 4-induction, with the
/// invariants on the core's registers that the property file states); P6, the words are the specification
/// model's, proven for all time at full rate (the timing too) and by BMC to
/// `--depth` under free backpressure (the k-th unit out is the model's
/// k-th); covers of every error kind, the two words of `C2 41`, a stall
/// that reaches `s_axis`, a reset inside a sequence. The covers need 24
/// cycles (latency 6, then the sequences); a counterexample 20, from where
/// the BMC of P5 slows down.
pub const FORMAL: Formal = Formal {
    models: &[SPEC_MODEL],
    cover_depth: 24,
    trace_depth: 20,
    induction_depth: 4,
    ..Formal::one_lane(
        crate::formal_source!("utf8_decoder_properties.v"),
        &[
            AXIS,
            Check::new(Method::Prove, "P3 one byte per clock", "rate", &["P3"]),
            Check::new(Method::Prove, "P4 no unflagged error", "safety", &["P4"]),
            FRAMING,
            Check::new(
                Method::Induct,
                "P5 no more units than bytes, per message",
                "units",
                &["P5_UNITS"],
            ),
            Check::new(
                Method::Prove,
                "P6 equals the spec model, m_axis_tready high",
                "model_ready",
                &["P6", "ALWAYS_READY"],
            ),
            Check::new(
                Method::Bmc,
                "P6 equals the spec model, free backpressure",
                "model",
                &["P6"],
            ),
            COVERS,
        ],
    )
};

/// P4 of the wide decoder, lane by lane, and the shape of a beat.
const WIDE_SAFETY: Check = Check::new(
    Method::Bmc,
    "P4 no unflagged error, packed tkeep",
    "safety",
    &["P4"],
);

/// The formal plan of the wide decoder of 2 and 4 lanes (`utf8hdl formal
/// --lanes N`), on its ports (`utf8_wide_decoder_properties.v`): P2 proven
/// for all time; P3 proven for all time by k-induction, with the
/// invariants of the credits and the queue (the credits count the beats in
/// the pipeline and the queue, [`PIPELINE_PROBES`]; the queue's count is
/// its pointers') stated on the core's registers; P4, P5 and P6 by BMC to
/// the core's latency + 4 cycles at least (P5 with the `tlast`s of the
/// queue's RAM summed between its pointers does not finish its induction
/// in 15 minutes); P6 against the
/// N-lane model (`utf8_wide_spec_model.v`, one step of [`SPEC_MODEL`] per
/// lane) with `m_axis_tready` high. abc's `bmc3` solves the bounded checks;
/// P6 at 4 lanes in iso10646 can pass the 10 minutes a check has.
pub const WIDE_FORMAL: Formal = Formal {
    properties: crate::formal_source!("utf8_wide_decoder_properties.v"),
    models: &[
        SPEC_MODEL,
        SPEC_LANES,
        crate::formal_source!("utf8_wide_spec_model.v"),
        BEAT_QUEUE[0],
        BEAT_QUEUE[1],
    ],
    checks: &[
        AXIS,
        Check::new(
            Method::Induct,
            "P3 full rate",
            "rate",
            &["P3", "INVARIANTS"],
        ),
        WIDE_SAFETY,
        Check::new(
            Method::Bmc,
            "P5 no more tlasts out than in",
            "framing",
            &["P5"],
        ),
        Check::new(
            Method::Bmc,
            "P5 no more units than bytes, per message",
            "units",
            &["P5_UNITS"],
        ),
        Check::new(
            Method::Bmc,
            "P6 equals the spec model, m_axis_tready high",
            "model",
            &["P6", "ALWAYS_READY"],
        ),
        COVERS,
    ],
    cover_depth: 24,
    trace_depth: 20,
    bmc_engine: BmcEngine::AbcBmc3,
    timeout: 600,
    induction_depth: 6,
    probes: &PIPELINE_PROBES,
};

/// What the invariants of [`WIDE_FORMAL`] read: `f_pipeline_beats`, the
/// beats in the wide decoder's stages before its queue, and the queue's
/// lanes in step.
pub const PIPELINE_PROBES: [Probe; 2] = [
    Probe {
        port: "f_pipeline_beats",
        width: 8,
        terms: pipeline_valids,
    },
    QUEUE_LANES_AGREE,
];

/// The flops that say a beat is in a stage of the wide decoder of `lanes`
/// lanes before its queue, by their exported names, in pipeline order
/// (`hdl/src/utf8_decoder_wide/`): stage 1's beat, packer (log₂ N levels
/// to count, log₂ N to move), packed and staged registers; the hold; stage
/// 3's four; stage 4's two; stage 5's packer and its packed register,
/// which either writes the beat to the queue or drops it.
fn pipeline_valids(lanes: usize, _: Profile) -> Vec<String> {
    let levels = lanes.trailing_zeros();
    let stage = |block: &str, name: &str| format!("{block}${name}_valid$q");
    let packer = |block: &str| {
        let counting = (0..levels).map(|l| format!("{block}$packer$skips$beats$beat${l}$q"));
        let moving = (0..levels).map(|l| format!("{block}$packer$beats$beat${l}$q"));
        counting.chain(moving).collect::<Vec<_>>()
    };
    let mut valids = vec![stage("byte_lanes", "beat")];
    valids.extend(packer("byte_lanes"));
    valids.extend([
        stage("byte_lanes", "packed"),
        stage("byte_lanes", "staged"),
        stage("hold", "held"),
        stage("lane_tables", "class"),
        stage("lane_tables", "moved"),
        stage("lane_tables", "row"),
        stage("lane_tables", "window_beat"),
        stage("lane_decoder", "partial"),
        stage("lane_decoder", "registered_beat"),
    ]);
    valids.extend(packer("word_lanes"));
    valids.extend([
        "word_lanes$packed_write$q".to_string(),
        "word_lanes$packed_dropped$q".to_string(),
    ]);
    valids
}

/// The lanes above which the wide decoder's plan is
/// [`WIDE_SAFETY_FORMAL`].
pub const WIDE_CHECKS_MAX_LANES: usize = 4;

/// The formal plan of a wide decoder of 8 lanes or more, whose size puts
/// the other checks out of a CI budget: its safety, P2 and P4, by BMC to
/// the core's latency + 4 cycles.
pub const WIDE_SAFETY_FORMAL: Formal = Formal {
    checks: &[
        Check::new(
            Method::Bmc,
            "P2 m_axis keeps the AXI4-Stream rules",
            "axis_bmc",
            &["P2"],
        ),
        WIDE_SAFETY,
    ],
    ..WIDE_FORMAL
};

/// How its lanes and `tuser` read.
fn port_notes(lanes: usize) -> &'static str {
    match lanes {
        1 => "m_axis_tuser: bit 0 = error, bits 3:1 = error kind code.",
        _ => {
            "Lane i: s_axis_tdata[8i+7:8i] (lane 0 first in the stream), m_axis_tdata[32i+31:32i],\n\
             m_axis_tuser[4i+3:4i] (bit 4i = error, the 3 above = error kind code).\n\
             s_axis_tkeep low: a null lane, skipped. m_axis_tkeep is packed (lanes 0..k-1);\n\
             a beat with m_axis_tkeep 0 only carries m_axis_tlast."
        }
    }
}

/// One word of a decoder's `m_axis`: a unit, with its error kind in `tuser`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Word {
    pub tdata: u32,
    pub tuser: u8,
}

impl Word {
    /// The word that carries `unit`: `tuser` bit 0 is set for an error, and
    /// bits 3:1 hold its [`ErrorKind`] code ([`ErrorKind::tuser`]).
    pub fn of_unit(unit: &reference::Unit) -> Word {
        Word {
            tdata: unit.value,
            tuser: unit.error.map_or(0, ErrorKind::tuser),
        }
    }

    /// The error kind that `tuser` names, or `None` for a character. An
    /// undefined code is reported as `Err(tuser)`.
    pub fn error(&self) -> Result<Option<ErrorKind>, u8> {
        ErrorKind::from_tuser(self.tuser)
    }
}

crate::word_lane!(Word, tuser: 4);

impl fmt::Display for Word {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tdata={:08X} tuser={:X}", self.tdata, self.tuser)
    }
}

/// The reference decoder of a profile, as every decoder's model.
#[derive(Copy, Clone, Debug)]
pub struct Reference(pub Profile);

impl Model for Reference {
    type Input = u8;
    type Output = Word;
    type Unit = reference::Unit;
    /// The reference decodes the bytes accepted so far; its first unit is
    /// final once the message is closed, and before that unless it is a
    /// sequence truncated by the end of those bytes, which more bytes could
    /// continue (every other unit ends where its bytes say, or at a byte
    /// that breaks it).
    fn first(&self, message: &[u8], closed: bool) -> Next<reference::Unit> {
        let Some(unit) = reference::Decoder::new(message.iter().copied(), self.0).next() else {
            return Next::none_left(closed);
        };
        match is_final(&unit, message.len(), closed) {
            true => Next::Unit(unit),
            false => Next::Undecided,
        }
    }

    /// One pass of the reference over the whole block, rather than one a
    /// unit.
    fn decide(
        &self,
        message: &[u8],
        closed: bool,
        decided: &mut dyn FnMut(reference::Unit),
    ) -> usize {
        let mut end = 0;
        for unit in reference::Decoder::new(message.iter().copied(), self.0)
            .take_while(|unit| is_final(unit, message.len(), closed))
        {
            end = unit.span.end;
            decided(unit);
        }
        end
    }
}

/// Whether `unit`, decoded from the `len` bytes of a message accepted so
/// far (`closed`: all of them), stays as it is whatever bytes follow (see
/// [`Reference::first`]).
fn is_final(unit: &reference::Unit, len: usize, closed: bool) -> bool {
    closed || unit.error != Some(ErrorKind::Truncated) || unit.span.end < len
}

impl crate::core::Unit for reference::Unit {
    const NAME: &'static str = "word";
    type Output = Word;

    fn outputs(&self) -> impl Iterator<Item = Word> {
        std::iter::once(Word::of_unit(self))
    }

    crate::unit_span_and_error!();

    fn describe(&self) -> String {
        format!(
            "U+{:04X} {}",
            self.value,
            self.error.map_or("ok", ErrorKind::name)
        )
    }
}

/// The lane counts of the family: bytes per clock.
pub const LANE_COUNTS: [usize; 6] = [1, 2, 4, 8, 16, 32];

/// The Verilog module name of the decoder of `profile` with `lanes` lanes:
/// `utf8_decoder`, `utf8_decoder_iso10646`, `utf8_decoder_x4`, ...
pub fn module_name(profile: Profile, lanes: usize) -> String {
    let base = match profile {
        Profile::Rfc3629 => "utf8_decoder".to_string(),
        Profile::Iso10646 => format!("utf8_decoder_{}", profile.name()),
    };
    match lanes {
        1 => base,
        n => format!("{base}_x{n}"),
    }
}

/// The UTF-8 → UCS-4 decoder, one byte per clock ([`Utf8Decoder`]).
#[derive(Copy, Clone, Debug)]
pub struct Decoder(pub Profile);

impl Core for Decoder {
    type Block = Utf8Decoder;
    const KIND: Kind = Kind::Decoder;
    type Input = u8;
    type Output = Word;
    type Model = Reference;

    const STATE: &'static [&'static str] = &[
        "skid_buffer.buffered_valid.q",
        "skid_buffer.buffered_tdata.q",
        "classifier.read_valid.q",
        "classifier.read_class.q",
        "classifier.classified.valid",
        "classifier.classified.continuation",
        "classifier.classified.in_bound",
        "classifier.classified.free_bits",
        "classifier.classified.last",
        "decoder.bytes_left.q",
        "decoder.gathered.q",
        "decoder.units.pre_error_valid",
        "decoder.units.word_tvalid",
        "decoder.units.word_tdata",
        "decoder.units.word_tuser",
        "output_register.delayed_tvalid.q",
        "output_register.advance",
    ];

    const LATENCY: u64 = Utf8Decoder::LATENCY;
    const ERROR_KINDS: &'static [ErrorKind] = &ErrorKind::ALL;

    fn name(&self) -> String {
        module_name(self.0, 1)
    }

    crate::profile_core!(Utf8Decoder, Reference; m_tuser);
}

/// The UTF-8 → UCS-4 decoder of `N` bytes per clock
/// ([`utf8hdl_hdl::utf8_decoder_wide::Utf8WideDecoder`]), for N = 2, 4, 8, 16, 32.
#[derive(Copy, Clone, Debug)]
pub struct WideDecoder<const N: usize>(pub Profile);

crate::lane_count_cores!(WideDecoder, module_name, Reference {
    const KIND: Kind = Kind::Decoder;
    type Input = u8;
    type Output = Word;

    /// The credits that make `s_axis_tready`, and each stage's beat: the
    /// stages never stall, so a beat is its `valid` moving down the
    /// pipeline, one stage a cycle.
    const STATE: &'static [&'static str] = &[
        "credits.in_flight.q",
        "byte_lanes.valid",
        "byte_lanes.tlast",
        "hold.valid",
        "hold.tlast",
        "lane_decoder.beat_valid",
        "lane_decoder.beat_tlast",
        "word_lanes.write",
        "queue.fetched$0.q",
    ];

    const ERROR_KINDS: &'static [ErrorKind] = &ErrorKind::ALL;
}
    2 => Utf8DecoderX2,
    4 => Utf8DecoderX4,
    8 => Utf8DecoderX8,
    16 => Utf8DecoderX16,
    32 => Utf8DecoderX32,
);

/// Runs `$body` with `$core` bound to the decoder of `$lanes` lanes and
/// `$profile`: the one place that maps a lane count to a decoder type. Any
/// other count makes the enclosing function (which returns an
/// `anyhow::Result`) return an error.
#[macro_export]
macro_rules! with_core {
    ($lanes:expr, $profile:expr, |$core:ident| $body:expr) => {
        $crate::with_lane_count!($lanes, "decoder", |$core| $body;
            1 => $crate::cores::utf8_decoder::Decoder($profile),
            2 => $crate::cores::utf8_decoder::WideDecoder::<2>($profile),
            4 => $crate::cores::utf8_decoder::WideDecoder::<4>($profile),
            8 => $crate::cores::utf8_decoder::WideDecoder::<8>($profile),
            16 => $crate::cores::utf8_decoder::WideDecoder::<16>($profile),
            32 => $crate::cores::utf8_decoder::WideDecoder::<32>($profile),
        )
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{ports, Dir, Role};

    #[test]
    fn the_decoder_ports_come_from_its_block() {
        let ports = ports(&Decoder(Profile::Rfc3629).block()).unwrap();
        let described: Vec<_> = ports
            .iter()
            .map(|p| (p.name.as_str(), p.dir, p.width, p.role))
            .collect();
        use {Dir::*, Role::*};
        assert_eq!(
            described,
            [
                ("clk", In, 1, Clock),
                ("rst", In, 1, Reset),
                ("s_axis_tdata", In, 8, Input),
                ("s_axis_tvalid", In, 1, Input),
                ("s_axis_tready", Out, 1, Input),
                ("s_axis_tlast", In, 1, Input),
                ("m_axis_tdata", Out, 32, Output),
                ("m_axis_tuser", Out, 4, Output),
                ("m_axis_tvalid", Out, 1, Output),
                ("m_axis_tready", In, 1, Output),
                ("m_axis_tlast", Out, 1, Output),
            ]
        );
    }

    /// Each wide decoder's lanes come from its block's ports, and its
    /// waveform state is in its block.
    #[test]
    fn wide_decoders_are_described_by_their_ports() {
        use crate::cores::assert_lane_ports as check;
        check(WideDecoder::<2>(Profile::Rfc3629), 2, "utf8_decoder_x2");
        check(
            WideDecoder::<4>(Profile::Iso10646),
            4,
            "utf8_decoder_iso10646_x4",
        );
        check(WideDecoder::<8>(Profile::Rfc3629), 8, "utf8_decoder_x8");
        check(WideDecoder::<16>(Profile::Rfc3629), 16, "utf8_decoder_x16");
        check(
            WideDecoder::<32>(Profile::Iso10646),
            32,
            "utf8_decoder_iso10646_x32",
        );
    }

    #[test]
    fn module_names_carry_profile_and_lanes() {
        assert_eq!(module_name(Profile::Rfc3629, 1), "utf8_decoder");
        assert_eq!(module_name(Profile::Iso10646, 1), "utf8_decoder_iso10646");
        assert_eq!(module_name(Profile::Rfc3629, 8), "utf8_decoder_x8");
        assert_eq!(
            module_name(Profile::Iso10646, 32),
            "utf8_decoder_iso10646_x32"
        );
    }
}
