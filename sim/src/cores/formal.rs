//! # A core's formal plan, as data; run by `utf8hdl formal`
//!
//! Each kind's module holds the plan of the proofs of its cores
//! ([`Kind::formal`](super::Kind::formal)): the property file that states
//! the core's contract on its ports (`hdl/formal/<core>_properties.v`), the
//! specification models it reads, and its [`Check`]s, each a property and
//! how it is checked: for all time, by BMC, or by covers. The formal runner
//! (synth's `formal` module) writes one SymbiYosys file from the plan, the
//! core's figures (`Core::name`, `Core::LATENCY`) and the template
//! `hdl/formal/core.sby.in`, and runs a task of it per check. The plan is
//! part of the core's datasheet: what is proven, what is bounded, and how
//! deep.

use utf8hdl_hdl::Profile;

/// A file of `hdl/formal/`, compiled in: the proofs run wherever the binary
/// does.
#[derive(Copy, Clone, Debug)]
pub struct Source {
    pub name: &'static str,
    pub text: &'static str,
}

/// The [`Source`] of the file `hdl/formal/$name`.
#[macro_export]
macro_rules! formal_source {
    ($name:literal) => {
        $crate::cores::formal::Source {
            name: $name,
            text: include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../hdl/formal/",
                $name
            )),
        }
    };
}

/// What the properties of every core read beside their own file: the
/// AXI4-Stream rules (`faxis_master.v`, `faxis_slave.v`,
/// `faxis_stream_properties.vh`) and the harnesses that put the core's
/// instance around its property file: the 1-lane cores'
/// (`faxis_core_harness.vh`, with the histories of P3 and P5) and the
/// N-lane cores' (`faxis_lanes_harness.vh`); and the decoders' count of a
/// message's bytes against its units (`faxis_units_tracker.vh`).
pub const SHARED: [Source; 6] = [
    formal_source!("faxis_master.v"),
    formal_source!("faxis_slave.v"),
    formal_source!("faxis_stream_properties.vh"),
    formal_source!("faxis_core_harness.vh"),
    formal_source!("faxis_lanes_harness.vh"),
    formal_source!("faxis_units_tracker.vh"),
];

/// What the properties of a core whose `s_axis_tready` is a credit count
/// (`BeatCredits`) and whose `m_axis` is a queue of beats (`BeatFifo`)
/// read for its P3, proven by k-induction: the queue's and the credits'
/// registers (`beat_queue_internals.vh`), and the invariants and P3
/// (`beat_queue_rate.vh`). With [`QUEUE_LANES_AGREE`] among its probes.
pub const BEAT_QUEUE: [Source; 2] = [
    formal_source!("beat_queue_internals.vh"),
    formal_source!("beat_queue_rate.vh"),
];

/// `f_queue_lanes_agree` (`beat_queue_rate.vh`): every lane's copy of the
/// beat queue's pointers and flags is lane 0's.
pub const QUEUE_LANES_AGREE: Probe = Probe {
    port: "f_queue_lanes_agree",
    width: 1,
    terms: queue_lanes_agree,
};

fn queue_lanes_agree(lanes: usize, _: Profile) -> Vec<String> {
    let copies = [
        "read_address",
        "write_address",
        "fetched",
        "not_empty",
        "tvalid_out",
    ];
    let same: Vec<String> = (1..lanes)
        .flat_map(|lane| copies.map(|r| format!("queue${r}${lane}$q == queue${r}$0$q")))
        .collect();
    vec![if same.is_empty() {
        "1'b1".to_string()
    } else {
        same.join(" && ")
    }]
}

/// How a property is checked.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Method {
    /// For all time (abc pdr).
    Prove,
    /// For all time, by k-induction (smtbmc with yices) of the plan's
    /// [`Formal::induction_depth`]: the property file states, as
    /// assertions on the core's internal signals, the invariants that make
    /// the induction hold (ZipCPU's practice), and they are proven with
    /// the property.
    Induct,
    /// Bounded model checking, to the run's depth (`utf8hdl formal
    /// --depth`), and at least [`DEPTH_PAST_LATENCY`] cycles past the
    /// core's latency.
    Bmc,
    /// Every cover statement reached, within the plan's
    /// [`Formal::cover_depth`].
    Cover,
}

impl Method {
    /// Whether it proves for all time (and a failure without a trace wants
    /// a BMC run to find one).
    pub fn is_proof(self) -> bool {
        matches!(self, Method::Prove | Method::Induct)
    }
}

/// The cycles past its latency that a bounded check of a core goes at
/// least: room for the outputs of a short message after its last input
/// (its units, its `tlast`).
pub const DEPTH_PAST_LATENCY: u32 = 4;

/// The cycles past its latency within which a core's covers are sought at
/// least: a reset, two beats in, and the second one's outputs (a wide
/// core's N + 1 units come from the beat that completes the one before).
pub const COVER_PAST_LATENCY: u32 = 6;

/// One line of the report: a property, and the task that checks it.
#[derive(Copy, Clone, Debug)]
pub struct Check {
    /// What the report calls it: `P4 no unflagged error`.
    pub property: &'static str,
    /// Its task's name in the sby file.
    pub task: &'static str,
    pub method: Method,
    /// The defines of the property file that select it (`P4`), and the
    /// environment it is checked in (`ALWAYS_READY`: a consumer that never
    /// stalls).
    pub defines: &'static [&'static str],
}

impl Check {
    /// The check of `property` by `method`, in the task `task`: a line of a
    /// plan.
    pub const fn new(
        method: Method,
        property: &'static str,
        task: &'static str,
        defines: &'static [&'static str],
    ) -> Check {
        Check {
            property,
            task,
            method,
            defines,
        }
    }
}

/// P2, shared by every core (`faxis_stream_properties.vh`).
pub const AXIS: Check = Check::new(
    Method::Prove,
    "P2 m_axis keeps the AXI4-Stream rules",
    "axis",
    &["P2"],
);

/// P5 of the 1-lane cores: `tlast` never lost nor invented, and out once
/// the input is quiet (`faxis_core_harness.vh`).
pub const FRAMING: Check = Check::new(Method::Prove, "P5 message framing", "framing", &["P5"]);

/// P3 of the UTF-16 cores, each of whose items is one code unit.
pub const ONE_UNIT_PER_CLOCK: Check =
    Check::new(Method::Prove, "P3 one code unit per clock", "rate", &["P3"]);

/// What the encoders' properties read for their classifying stage, a
/// `BytewiseRegister` beside the stage's `valid`: its copies of the flag,
/// and under `COPIES` that each equals it (`fbytewise_stage.vh`).
pub const BYTEWISE_STAGE: [Source; 1] = [formal_source!("fbytewise_stage.vh")];

/// The invariants of [`BYTEWISE_STAGE`], proven for all time.
pub const STAGE_COPIES: Check = Check::new(
    Method::Prove,
    "Inside: each byte's copy of the classifying stage's valid equals it; its enable figured a cycle ahead equals what it stands for",
    "copies",
    &["COPIES"],
);

/// P7: every cover of the property file reached.
pub const COVERS: Check = Check::new(Method::Cover, "P7 covers", "cover", &["P7"]);

/// The solver of a plan's bounded checks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BmcEngine {
    /// SMT BMC with yices.
    Yices,
    /// abc's `bmc3`: twice as fast as yices on the wide decoder, and it
    /// reaches depths at 4 lanes that yices does not in minutes; on the
    /// 4-lane validator's P6 it takes less than half of yices's time.
    AbcBmc3,
}

/// A core's formal plan.
#[derive(Copy, Clone, Debug)]
pub struct Formal {
    /// The properties: the module of the file's name, the top of the
    /// proof, around the core's instance `dut`.
    pub properties: Source,
    /// The specification models the properties read.
    pub models: &'static [Source],
    /// The checks, in the order of the report.
    pub checks: &'static [Check],
    /// The cycles within which every cover must be reached, at least:
    /// the runner goes [`COVER_PAST_LATENCY`] cycles past the core's
    /// latency when that is more.
    pub cover_depth: u32,
    /// The BMC depth, at least, of the search for a counterexample when a
    /// proof fails without one: the check's property alone, by BMC.
    pub trace_depth: u32,
    pub bmc_engine: BmcEngine,
    /// The seconds that a check may take before it is reported as having
    /// no answer.
    pub timeout: u32,
    /// The `k` of the checks by [`Method::Induct`].
    pub induction_depth: u32,
    /// The signals that the formal build of the core adds as output ports
    /// for the invariants to read, each a sum over internal signals that
    /// the core's lane count decides ([`Probe`]).
    pub probes: &'static [Probe],
}

/// An output port of the core's formal build (not of its export): the sum
/// of terms, each a Verilog expression over the core's exported internal
/// names (`hold$held_valid$q & hold$held_tlast$q`; one term may be a
/// vector, `{a$q, b$q}`). The runner
/// checks that every name a term reads is declared in the core, so a
/// renamed register is an error, not a probe that reads nothing.
#[derive(Copy, Clone, Debug)]
pub struct Probe {
    /// The port's name, as the property file connects it.
    pub port: &'static str,
    /// Its width in bits.
    pub width: u32,
    /// The terms for a core of `lanes` lanes and `profile`.
    pub terms: fn(lanes: usize, profile: Profile) -> Vec<String>,
}

impl Formal {
    /// Every source the proof reads: the shared ones, the models, the
    /// properties.
    pub fn sources(&self) -> impl Iterator<Item = &Source> + Clone {
        SHARED.iter().chain(self.models).chain([&self.properties])
    }

    /// The plan of a 1-lane core whose checks take seconds: no
    /// specification model, covers within 12 cycles, counterexamples by
    /// yices to 24 cycles (an encoder's message drains in up to 15), 20
    /// minutes a check.
    pub const fn one_lane(properties: Source, checks: &'static [Check]) -> Formal {
        Formal {
            properties,
            models: &[],
            checks,
            cover_depth: 12,
            trace_depth: 24,
            bmc_engine: BmcEngine::Yices,
            timeout: 1200,
            induction_depth: 0,
            probes: &[],
        }
    }

    /// The module of the properties, the top of the proof: the file's name
    /// without `.v`.
    pub fn top(&self) -> &'static str {
        let name = self.properties.name;
        name.strip_suffix(".v").unwrap_or(name)
    }
}
