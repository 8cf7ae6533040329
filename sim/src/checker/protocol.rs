//! The AXI4-Stream rules and the datasheet's invariants, cycle by cycle
//! ([`Protocol`]), and the stall patterns of both sides ([`Stalls`],
//! [`Stimulus`]).

use rand::rngs::StdRng;
use rand::Rng;

use crate::core::{Beat, Inputs, Lane, Rate};
use crate::harness::Cycle;

/// How one side of a stream stalls: the source's `s_axis_tvalid`, or the
/// sink's `m_axis_tready`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Stalls {
    /// Never stalls.
    Never,
    /// Stalls on each cycle with this probability, at random.
    Random(f64),
    /// Alternates random runs of 1–16 ready and 1–16 stalled cycles.
    Bursty,
    /// Ready on one cycle in eight.
    OneInEight,
}

impl Stalls {
    /// The patterns the tests sweep.
    pub const ALL: [Stalls; 4] = [
        Stalls::Never,
        Stalls::Random(0.5),
        Stalls::Bursty,
        Stalls::OneInEight,
    ];
}

/// The state of one side's stall pattern.
pub struct Side {
    pub stalls: Stalls,
    burst_left: u32,
    burst_ready: bool,
}

impl Side {
    pub fn new(stalls: Stalls) -> Self {
        Side {
            stalls,
            burst_left: 0,
            burst_ready: true,
        }
    }

    /// Whether this side is ready in cycle `cycle`.
    pub fn ready(&mut self, cycle: u64, rng: &mut StdRng) -> bool {
        match self.stalls {
            Stalls::Never => true,
            Stalls::Random(p) => !(p > 0.0 && rng.gen_bool(p)),
            Stalls::OneInEight => cycle.is_multiple_of(8),
            Stalls::Bursty => {
                if self.burst_left == 0 {
                    self.burst_ready = !self.burst_ready;
                    self.burst_left = rng.gen_range(1..=16);
                }
                self.burst_left -= 1;
                self.burst_ready
            }
        }
    }
}

/// The AXI4-Stream rules and the datasheet invariants that one cycle can
/// show, checked cycle after cycle on a core just reset:
/// * a beat shown while `m_axis_tready` is low holds, `tvalid` and every
///   lane included, until it is taken;
/// * no `m_axis_tvalid` after a reset until a beat has been accepted;
/// * full rate ([`Core::RATE`]): once `m_axis_tready` has been high for the
///   core's [`Core::LATENCY`] cycles, `s_axis_tready` is high ([`Rate::Input`]),
///   or, when beats have also been offered that long, `m_axis_tvalid` is
///   ([`Rate::Output`]);
/// * `m_axis_tkeep` is packed (for a core that packs, [`Core::PACKED`]),
///   and a null beat carries `m_axis_tlast`.
pub struct Protocol<O: Lane> {
    latency: u64,
    rate: Rate,
    packed: bool,
    /// The beat shown while `m_axis_tready` was low, when `holding`: it
    /// must hold. (Copied only then: a beat is large, and this runs on
    /// every cycle.)
    holding: bool,
    held: Beat<O>,
    /// Cycles in a row with `m_axis_tready` high, and with a beat offered.
    ready_run: u64,
    offered_run: u64,
    /// No beat has been accepted since the last reset.
    quiet: bool,
}

impl<O: Lane> Protocol<O> {
    /// The rules for a core of `latency` and `rate` ([`Core::LATENCY`],
    /// [`Core::RATE`]) whose `m_axis_tkeep` is `packed` or not
    /// ([`Core::PACKED`]), just reset.
    pub fn new(latency: u64, rate: Rate, packed: bool) -> Self {
        Protocol {
            latency,
            rate,
            packed,
            holding: false,
            held: Beat::new(&[], false),
            ready_run: 0,
            offered_run: 0,
            quiet: true,
        }
    }

    /// Checks one cycle; the error names the rule it breaks.
    pub fn check<I: Lane>(&mut self, inputs: &Inputs<I>, cycle: &Cycle<O>) -> Result<(), String> {
        if self.holding {
            let held = &self.held;
            if cycle.m_axis() != Some(held) && !inputs.rst {
                return Err(format!(
                    "a stalled word did not hold: {held} became {}",
                    cycle.m_axis().map_or("no word".into(), |b| b.to_string())
                ));
            }
        }
        if self.quiet && cycle.m_axis_tvalid() {
            return Err("m_axis_tvalid high after a reset before any input was accepted".into());
        }
        match self.rate {
            Rate::Input if self.ready_run >= self.latency && !cycle.s_axis_tready() => {
                return Err(format!(
                    "s_axis_tready low although m_axis_tready has been high for {} cycles",
                    self.ready_run
                ));
            }
            Rate::Output
                if self.ready_run >= self.latency
                    && self.offered_run >= self.latency
                    && !cycle.m_axis_tvalid() =>
            {
                return Err(format!(
                    "m_axis_tvalid low although beats have been offered and m_axis_tready \
                     high for {} cycles",
                    self.ready_run.min(self.offered_run)
                ));
            }
            _ => {}
        }
        if let Some(beat) = cycle.m_axis() {
            if self.packed && !beat.is_packed() {
                return Err(format!("m_axis_tkeep {:b} is not packed", beat.tkeep));
            }
            if beat.tkeep == 0 && !beat.tlast {
                return Err("a null beat (m_axis_tkeep 0) without m_axis_tlast".into());
            }
        }
        self.holding = false;
        if let (false, Some(beat)) = (inputs.m_axis_tready || inputs.rst, cycle.m_axis()) {
            self.holding = true;
            self.held = *beat;
        }
        self.ready_run = match inputs.m_axis_tready && !inputs.rst {
            true => self.ready_run + 1,
            false => 0,
        };
        self.offered_run = match inputs.s_axis.is_some() && !inputs.rst {
            true => self.offered_run + 1,
            false => 0,
        };
        self.quiet = inputs.rst || (self.quiet && !cycle.accepted);
        Ok(())
    }
}

/// How `utf8hdl sim` drives the design.
#[derive(Copy, Clone, Debug)]
pub struct Stimulus {
    /// When a beat is offered (`s_axis_tvalid`); an offered beat is held
    /// until it is taken.
    pub source: Stalls,
    /// When the sink takes a beat (`m_axis_tready`).
    pub sink: Stalls,
    /// The probability that a lane of a beat is null (`s_axis_tkeep` low,
    /// random `tdata`), for a core with `tkeep`; a core without it gets a
    /// byte in every lane.
    pub null_lanes: f64,
    /// The probability that a message ends after a byte (`s_axis_tlast`,
    /// the beat's later lanes null), or in a beat with no byte, before it
    /// (an empty message, for a core with `tkeep`). The input's last byte
    /// always ends one, so at 0 the input is one message.
    pub message_end: f64,
    pub seed: u64,
}

impl Stimulus {
    /// The input as one message, beats full, and these stall patterns.
    pub fn stalls(source: Stalls, sink: Stalls, seed: u64) -> Self {
        Stimulus {
            source,
            sink,
            null_lanes: 0.0,
            message_end: 0.0,
            seed,
        }
    }
}
