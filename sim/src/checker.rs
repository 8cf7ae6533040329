//! The one checker of a core ([`Checker`]): the AXI4-Stream rules and the
//! datasheet's invariants on every cycle ([`Protocol`]), every word of
//! every beat against the core's reference model as it leaves ([`Model`]),
//! message by message, and the one stall generator ([`Stalls`]).
//! `utf8hdl sim` runs it through [`run_checked`], which makes the beats
//! (null lanes and message ends at random, when asked); the tests'
//! multi-message driver uses the same pieces.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::fmt;
use std::iter::Peekable;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use utf8hdl_hdl::ErrorKind;

use crate::core::{
    Beat, Core, Inputs, Lane, Lanes, Model, Next, Rate, Unit, Values, MAX_UNIT_OUTPUTS,
};
use crate::harness::{Cycle, Engine, Harness};

/// Cycles in which the design could move but did not, since it last
/// moved, before the run is declared stuck. A correct design never waits
/// more than 2.
const STUCK_LIMIT: u32 = 64;

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
/// * `m_axis_tkeep` is packed, and a null beat carries `m_axis_tlast`.
pub struct Protocol<O: Lane> {
    latency: u64,
    rate: Rate,
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
    /// [`Core::RATE`]), just reset.
    pub fn new(latency: u64, rate: Rate) -> Self {
        Protocol {
            latency,
            rate,
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
            if cycle.m_axis.as_ref() != Some(held) && !inputs.rst {
                return Err(format!(
                    "a stalled word did not hold: {held} became {}",
                    cycle.m_axis.map_or("no word".into(), |b| b.to_string())
                ));
            }
        }
        if self.quiet && cycle.m_axis_tvalid {
            return Err("m_axis_tvalid high after a reset before any input was accepted".into());
        }
        match self.rate {
            Rate::Input if self.ready_run >= self.latency && !cycle.s_axis_tready => {
                return Err(format!(
                    "s_axis_tready low although m_axis_tready has been high for {} cycles",
                    self.ready_run
                ));
            }
            Rate::Output
                if self.ready_run >= self.latency
                    && self.offered_run >= self.latency
                    && !cycle.m_axis_tvalid =>
            {
                return Err(format!(
                    "m_axis_tvalid low although beats have been offered and m_axis_tready \
                     high for {} cycles",
                    self.ready_run.min(self.offered_run)
                ));
            }
            _ => {}
        }
        if let Some(beat) = &cycle.m_axis {
            if !beat.is_packed() {
                return Err(format!("m_axis_tkeep {:b} is not packed", beat.tkeep));
            }
            if beat.tkeep == 0 && !beat.tlast {
                return Err("a null beat (m_axis_tkeep 0) without m_axis_tlast".into());
            }
        }
        self.holding = false;
        if let (false, Some(beat)) = (inputs.m_axis_tready || inputs.rst, &cycle.m_axis) {
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

/// What went wrong first, on a core whose model's units are `U`.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure<U: Unit> {
    /// An output lane differs from the model's unit: `expected` is `None`
    /// when the message has no more units (its `tlast` was due), `actual`
    /// when the design stopped sending.
    Word {
        expected: Option<U>,
        actual: Option<U::Output>,
    },
    /// `m_axis_tlast` came where the message had not ended, or never came.
    Tlast(String),
    /// An AXI4-Stream rule or a datasheet invariant was broken.
    Protocol(String),
}

/// The first failure, and its cycle.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch<U: Unit> {
    pub cycle: u64,
    pub failure: Failure<U>,
    /// What the core's inputs are called ([`Lane::NAME`]), for offsets.
    pub inputs: &'static str,
}

impl<U: Unit> fmt::Display for Mismatch<U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (expected, actual) = match &self.failure {
            Failure::Protocol(rule) => {
                return write!(f, "the RTL broke a rule at cycle {}: {rule}", self.cycle)
            }
            Failure::Tlast(what) => {
                return write!(
                    f,
                    "RTL and reference differ at cycle {}: {what}",
                    self.cycle
                )
            }
            Failure::Word { expected, actual } => (expected, actual),
        };
        write!(f, "RTL and reference differ at cycle {}", self.cycle)?;
        match expected {
            Some(u) => write!(
                f,
                ", {} offset {}: expected {}",
                self.inputs,
                u.span().start,
                u.describe()
            )?,
            None => write!(f, ": expected no more words in the message (m_axis_tlast)")?,
        }
        match actual {
            Some(w) => write!(f, ", got {w}"),
            None => write!(f, ", got no word"),
        }
    }
}

/// A summary's name for a count of `name`s: `bytes`, `code_units`.
pub fn plural_key(name: &str) -> String {
    format!("{}s", name.replace(' ', "_"))
}

/// What a run measured, on a core whose model's units are `U`.
#[derive(Clone, Debug)]
pub struct Summary<U: Unit> {
    /// Inputs accepted (bytes, for a decoder; null lanes not counted).
    pub inputs: u64,
    /// Units delivered (a decoder's words).
    pub units: u64,
    /// Errors by kind code (index 0 is unused).
    pub errors_by_code: [u64; 7],
    /// What an input is called ([`Lane::NAME`] of the core's input).
    pub input_name: &'static str,
    /// The kinds of error the core reports ([`Core::ERROR_KINDS`]).
    pub error_kinds: &'static [ErrorKind],
    /// Cycles from the first (where the first beat is offered) up to and
    /// including the one that delivers the last beat, or the one where the
    /// design fails.
    pub cycles: u64,
    /// All cycles simulated, including reset and the quiet cycles after.
    pub simulated_cycles: u64,
    pub elapsed: Duration,
    pub mismatch: Option<Mismatch<U>>,
}

impl<U: Unit> Summary<U> {
    /// Nothing yet, for `C`.
    pub fn of<C: Core>() -> Self {
        Summary {
            inputs: 0,
            units: 0,
            errors_by_code: [0; 7],
            input_name: C::Input::NAME,
            error_kinds: C::ERROR_KINDS,
            cycles: 0,
            simulated_cycles: 0,
            elapsed: Duration::ZERO,
            mismatch: None,
        }
    }
}

impl<U: Unit> Summary<U> {
    pub fn errors(&self) -> u64 {
        self.errors_by_code.iter().sum()
    }
    pub fn agree(&self) -> bool {
        self.mismatch.is_none()
    }
    pub fn inputs_per_cycle(&self) -> f64 {
        self.inputs as f64 / self.cycles.max(1) as f64
    }
    pub fn cycles_per_second(&self) -> f64 {
        self.simulated_cycles as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
    /// The `--stats json` object.
    pub fn to_json(&self) -> serde_json::Value {
        let inputs = plural_key(self.input_name);
        let mut json = serde_json::json!({
            "errors": self.errors(),
            "errors_by_kind": self.error_kinds.iter()
                .map(|k| (k.name().to_string(), self.errors_by_code[k.code() as usize].into()))
                .collect::<serde_json::Map<_, _>>(),
            "cycles": self.cycles,
            "cycles_per_second": self.cycles_per_second(),
            "agree": self.agree(),
        });
        json[format!("{inputs}_per_cycle")] = self.inputs_per_cycle().into();
        json[&inputs] = self.inputs.into();
        json[plural_key(U::NAME)] = self.units.into();
        json
    }
}

/// One message as far as the design has accepted it: its inputs not yet
/// delivered as units.
struct Message<I> {
    inputs: VecDeque<I>,
    /// The stream offset of `inputs[0]`.
    offset: usize,
    /// Its `tlast` beat was accepted.
    closed: bool,
}

/// The model's side of a run: the messages the design has accepted and not
/// yet delivered, as far as their inputs decide them.
struct Expectation<M: Model> {
    model: M,
    messages: VecDeque<Message<M::Input>>,
    /// The stream offset of the next input accepted.
    offset: usize,
}

impl<M: Model> Expectation<M> {
    /// Takes an accepted beat's items into its message.
    fn accept(&mut self, beat: &Beat<M::Input>) {
        if self.messages.back().is_none_or(|m| m.closed) {
            self.messages.push_back(Message {
                inputs: VecDeque::new(),
                offset: self.offset,
                closed: false,
            });
        }
        let message = self.messages.back_mut().expect("a message is open");
        let before = message.inputs.len();
        message.inputs.extend(beat.items());
        self.offset += message.inputs.len() - before;
        message.closed = beat.tlast;
    }

    /// The next unit of the oldest message, its span in stream offsets.
    fn next(&mut self) -> Next<M::Unit> {
        let Some(message) = self.messages.front_mut() else {
            return Next::Undecided;
        };
        let next = self.model.first(&message.inputs, message.closed);
        if let Next::Unit(unit) = &next {
            message.inputs.drain(..unit.span().end);
        }
        next.map_unit(|mut unit| {
            unit.shift(message.offset);
            message.offset = unit.span().end;
            unit
        })
    }

    /// Every accepted message has been delivered, `tlast` included.
    fn is_empty(&self) -> bool {
        self.messages.is_empty()
    }
}

/// A unit being delivered: its outputs, the first `next` of them seen on
/// `m_axis` (in place: this runs on every unit).
struct Delivering<U: Unit> {
    unit: U,
    outputs: [U::Output; MAX_UNIT_OUTPUTS],
    count: usize,
    next: usize,
}

impl<U: Unit> Delivering<U> {
    fn of(unit: U) -> Self {
        let mut outputs = [U::Output::default(); MAX_UNIT_OUTPUTS];
        let mut count = 0;
        for (slot, output) in outputs.iter_mut().zip(unit.outputs()) {
            *slot = output;
            count += 1;
        }
        Delivering {
            unit,
            outputs,
            count,
            next: 0,
        }
    }
}

/// The one checker: [`Protocol`] on every cycle, and every delivered beat
/// against the core's model, message by message. The items of a beat, lane
/// 0 first, must be the outputs of the oldest message's units in order (a
/// unit's outputs may span beats); `tlast` must come once a message, on the
/// beat that carries its last output or on a null beat after it (the only
/// beat of a message with no units).
pub struct Checker<M: Model> {
    protocol: Protocol<M::Output>,
    expectation: Expectation<M>,
    delivering: Option<Delivering<M::Unit>>,
    pub summary: Summary<M::Unit>,
}

impl<M: Model> Checker<M> {
    /// For `core`, just reset.
    pub fn new<C: Core<Model = M>>(core: &C) -> Self {
        Checker {
            protocol: Protocol::new(C::LATENCY, C::RATE),
            expectation: Expectation {
                model: core.model(),
                messages: VecDeque::new(),
                offset: 0,
            },
            delivering: None,
            summary: Summary::of::<C>(),
        }
    }

    /// Checks cycle number `number`, which had `inputs` and did `cycle`.
    /// `on_unit` sees each unit delivered and checked, its span in stream
    /// offsets; an error from it is returned as it is.
    pub fn check<Stop>(
        &mut self,
        number: u64,
        inputs: &Inputs<M::Input>,
        cycle: &Cycle<M::Output>,
        on_unit: &mut impl FnMut(&M::Unit) -> Result<(), Stop>,
    ) -> Result<Result<(), Failure<M::Unit>>, Stop> {
        if let Err(rule) = self.protocol.check(inputs, cycle) {
            return Ok(Err(Failure::Protocol(rule)));
        }
        // What leaves in a cycle is decided before the cycle's input.
        if let Some(beat) = cycle.delivered() {
            if let Err(failure) = self.delivered(beat, on_unit)? {
                return Ok(Err(failure));
            }
            self.summary.cycles = number + 1;
        }
        if let (true, Some(beat)) = (cycle.accepted, &inputs.s_axis) {
            self.expectation.accept(beat);
            self.summary.inputs += beat.items().count() as u64;
        }
        Ok(Ok(()))
    }

    fn delivered<Stop>(
        &mut self,
        beat: &Beat<M::Output>,
        on_unit: &mut impl FnMut(&M::Unit) -> Result<(), Stop>,
    ) -> Result<Result<(), Failure<M::Unit>>, Stop> {
        for item in beat.items() {
            if self.delivering.is_none() {
                self.delivering = Some(match self.expectation.next() {
                    Next::Unit(unit) => Delivering::of(unit),
                    Next::EndOfMessage => {
                        return Ok(Err(Failure::Word {
                            expected: None,
                            actual: Some(item),
                        }))
                    }
                    Next::Undecided => {
                        return Ok(Err(Failure::Protocol(format!(
                            "{item} left before the {}s that decide it were accepted",
                            <M::Input as Lane>::NAME
                        ))))
                    }
                });
            }
            let delivering = self.delivering.as_mut().expect("a unit is being delivered");
            if delivering.outputs[delivering.next] != item {
                return Ok(Err(Failure::Word {
                    expected: Some(delivering.unit.clone()),
                    actual: Some(item),
                }));
            }
            delivering.next += 1;
            if delivering.next < delivering.count {
                continue;
            }
            let unit = self
                .delivering
                .take()
                .expect("a unit is being delivered")
                .unit;
            self.summary.units += 1;
            if let Some(kind) = unit.error() {
                self.summary.errors_by_code[kind.code() as usize] += 1;
            }
            on_unit(&unit)?;
        }
        if beat.tlast {
            if let Some(Delivering { unit, .. }) = &self.delivering {
                return Ok(Err(Failure::Tlast(format!(
                    "m_axis_tlast inside a unit: {} at {} offset {} is not all out",
                    unit.describe(),
                    <M::Input as Lane>::NAME,
                    unit.span().start
                ))));
            }
            match self.expectation.next() {
                Next::EndOfMessage => {
                    self.expectation.messages.pop_front();
                }
                Next::Unit(unit) => {
                    return Ok(Err(Failure::Tlast(format!(
                        "m_axis_tlast before the message's last unit: {} at {} offset {} is still to come",
                        unit.describe(),
                        <M::Input as Lane>::NAME,
                        unit.span().start
                    ))))
                }
                Next::Undecided => {
                    return Ok(Err(Failure::Tlast(format!(
                        "m_axis_tlast before the message's last {} was accepted",
                        <M::Input as Lane>::NAME
                    ))))
                }
            }
        }
        Ok(Ok(()))
    }

    /// Every message accepted has been delivered, `tlast` included.
    pub fn is_idle(&self) -> bool {
        self.expectation.is_empty()
    }

    /// What the design owes, when it stopped moving.
    pub fn owed(&mut self) -> Failure<M::Unit> {
        if let Some(Delivering { unit, .. }) = self.delivering.take() {
            return Failure::Word {
                expected: Some(unit),
                actual: None,
            };
        }
        match self.expectation.next() {
            Next::Unit(unit) => Failure::Word {
                expected: Some(unit),
                actual: None,
            },
            Next::EndOfMessage => Failure::Tlast("the message's m_axis_tlast never came".into()),
            Next::Undecided => Failure::Protocol("the design stopped taking input".into()),
        }
    }
}

/// The units of core `C`'s model.
pub type UnitOf<C> = <<C as Core>::Model as Model>::Unit;
/// The [`Summary`] of a run of core `C`.
pub type SummaryOf<C> = Summary<UnitOf<C>>;

/// The source side of a run: beats made from the input items as the
/// source pattern offers them, each held until it is taken.
struct Source<L: Lane, I: Iterator<Item = L>> {
    bytes: Peekable<I>,
    lanes: Lanes,
    side: Side,
    null_lanes: f64,
    message_end: f64,
    offered: Option<Beat<L>>,
}

impl<L: Lane, I: Iterator<Item = L>> Source<L, I> {
    /// The beat on `s_axis` in cycle `cycle`, if any.
    fn offer(&mut self, cycle: u64, rng: &mut StdRng) -> Option<Beat<L>> {
        if self.offered.is_none() && self.bytes.peek().is_some() && self.side.ready(cycle, rng) {
            self.offered = Some(self.beat(rng));
        }
        self.offered
    }

    /// The next beat: each lane null at random (with tkeep) or the next
    /// byte; after a byte, the message ends at random (the lanes after it
    /// null) or at the input's end. A beat that got no byte may end its
    /// message too: an empty one, when the previous beat ended its own.
    fn beat(&mut self, rng: &mut StdRng) -> Beat<L> {
        let mut beat = Beat::new(&[], false);
        let ends = |rng: &mut StdRng| self.message_end > 0.0 && rng.gen_bool(self.message_end);
        for lane in 0..self.lanes.count {
            let null = self.lanes.tkeep && self.null_lanes > 0.0 && rng.gen_bool(self.null_lanes);
            let byte = match beat.tlast || null {
                true => None,
                false => self.bytes.next(),
            };
            match byte {
                Some(byte) => {
                    beat.lanes[lane] = byte;
                    beat.tkeep |= 1 << lane;
                    beat.tlast = self.bytes.peek().is_none() || ends(rng);
                }
                None => beat.lanes[lane] = L::from_bits(rng.gen(), rng.gen()),
            }
        }
        if beat.tkeep == 0 {
            beat.tlast = ends(rng);
        }
        beat
    }

    /// Every beat has been taken.
    fn is_done(&mut self) -> bool {
        self.offered.is_none() && self.bytes.peek().is_none()
    }
}

/// Runs `bytes` through the core in `harness` as `stimulus` offers them and
/// checks every cycle and every word with a [`Checker`]. Bytes are read as
/// beats are made, and each word is checked as it leaves, so memory holds
/// only what is in flight, however long the input. `on_unit` sees each
/// checked unit (its value and kind from the design, its span in stream
/// offsets from the reference; the span's end is how far the run has
/// come), and an error from it stops the run; `observe` sees every cycle,
/// with the probes' values inside the harness's probe window (for
/// waveforms).
pub fn run_checked<E: Engine, I: Iterator<Item = <E::Core as Core>::Input>, Stop>(
    mut harness: Harness<E>,
    bytes: I,
    stimulus: &Stimulus,
    mut on_unit: impl FnMut(&UnitOf<E::Core>) -> Result<(), Stop>,
    observe: &mut dyn FnMut(u64, Option<&Values>),
) -> Result<SummaryOf<E::Core>, Stop> {
    let latency = <E::Core as Core>::LATENCY;
    let mut checker = Checker::new(harness.engine.core());
    let mut rng = StdRng::seed_from_u64(stimulus.seed);
    let mut source = Source {
        bytes: bytes.peekable(),
        lanes: harness.lanes(),
        side: Side::new(stimulus.source),
        null_lanes: stimulus.null_lanes,
        message_end: stimulus.message_end,
        offered: None,
    };
    let mut sink = Side::new(stimulus.sink);
    let mut stuck = 0;
    let start = Instant::now();
    let failure = loop {
        let inputs = Inputs {
            rst: false,
            s_axis: source.offer(harness.cycles, &mut rng),
            m_axis_tready: sink.ready(harness.cycles, &mut rng),
        };
        let number = harness.cycles;
        let cycle = harness.step(&inputs, observe);
        if let Err(failure) = checker.check(number, &inputs, &cycle, &mut on_unit)? {
            break Some(failure);
        }
        if cycle.accepted {
            source.offered = None;
        }
        if source.is_done() && checker.is_idle() {
            break drain_extra_beats(&mut harness, &mut checker, latency, observe);
        }
        // The design could move (the sink is ready, and a beat is offered
        // or all beats are in) but did nothing. Only a move resets the
        // count: a cycle where the sink stalls is neither, or a design that
        // has stopped would never be caught under random stalls.
        let could_move = inputs.m_axis_tready && (inputs.s_axis.is_some() || source.is_done());
        if cycle.accepted || cycle.delivered().is_some() {
            stuck = 0;
        } else if could_move {
            stuck += 1;
        }
        if stuck > STUCK_LIMIT {
            break Some(checker.owed());
        }
    };
    let mut summary = checker.summary;
    if let Some(failure) = failure {
        summary.cycles = harness.cycles;
        summary.mismatch = Some(Mismatch {
            cycle: harness.cycles - 1,
            failure,
            inputs: <<E::Core as Core>::Input as Lane>::NAME,
        });
    }
    summary.simulated_cycles = harness.cycles;
    summary.elapsed = start.elapsed();
    Ok(summary)
}

/// After the last message, the design must stay quiet for as long as a
/// beat takes to cross it.
fn drain_extra_beats<E: Engine>(
    harness: &mut Harness<E>,
    checker: &mut Checker<<E::Core as Core>::Model>,
    latency: u64,
    observe: &mut dyn FnMut(u64, Option<&Values>),
) -> Option<Failure<UnitOf<E::Core>>> {
    for _ in 0..latency {
        let inputs = Inputs {
            m_axis_tready: true,
            ..Inputs::default()
        };
        let number = harness.cycles;
        let cycle = harness.step(&inputs, observe);
        let Ok(checked) = checker.check(number, &inputs, &cycle, &mut |_| Ok::<(), Infallible>(()));
        if let Err(failure) = checked {
            return Some(failure);
        }
        if let Some(beat) = cycle.delivered() {
            return Some(match beat.items().next() {
                Some(word) => Failure::Word {
                    expected: None,
                    actual: Some(word),
                },
                None => Failure::Tlast("an m_axis_tlast after the last message".into()),
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cores::utf8_decoder::{Decoder, Reference, Word};
    use crate::reference::{decode, Unit};
    use proptest::prelude::*;
    use utf8hdl_hdl::{Profile, Utf8Decoder};

    /// The iso10646 design, described as if it were rfc3629's: a core
    /// whose reference disagrees with its block.
    #[derive(Copy, Clone)]
    struct Mislabelled;

    impl Core for Mislabelled {
        const KIND: crate::cores::Kind = crate::cores::Kind::Decoder;
        type Block = Utf8Decoder;
        type Input = u8;
        type Output = Word;
        type Model = Reference;
        const STATE: &'static [&'static str] = &[];
        const LATENCY: u64 = Decoder::LATENCY;
        fn name(&self) -> String {
            "mislabelled".into()
        }
        fn profile(&self) -> Profile {
            Profile::Rfc3629
        }
        fn model(&self) -> Reference {
            Reference(Profile::Rfc3629)
        }
        fn block(&self) -> Utf8Decoder {
            Decoder(Profile::Iso10646).block()
        }
        crate::axis_io!(Utf8Decoder; m_tuser);
    }

    /// It differs at F8 88 80 80 80 (one character against five U+FFFD).
    /// The summary describes the cycles run up to the difference: all 7
    /// bytes were taken (the design holds the whole five-byte sequence
    /// before its word leaves), and no more than one byte per cycle.
    #[test]
    fn a_mismatch_summary_counts_the_cycles_run() {
        let stimulus = Stimulus::stalls(Stalls::Never, Stalls::Never, 1);
        let bytes = b"AB\xF8\x88\x80\x80\x80";
        let summary = run_checked(
            Harness::new(Mislabelled),
            bytes.iter().copied(),
            &stimulus,
            |_| Ok::<(), ()>(()),
            &mut |_, _| {},
        )
        .unwrap();
        let mismatch = summary.mismatch.clone().expect("the profiles differ");
        let Failure::Word { expected, actual } = &mismatch.failure else {
            panic!("{mismatch}");
        };
        assert_eq!(actual.map(|w| w.tdata), Some(0x20_0000));
        assert_eq!(
            expected.as_ref().map(|u| (u.value, u.span.clone())),
            Some((0xFFFD, 2..3))
        );
        assert_eq!((summary.inputs, summary.units), (7, 2));
        assert_eq!(summary.cycles, mismatch.cycle + 1);
        assert!(summary.inputs_per_cycle() <= 1.0, "{summary:?}");
        let lines = crate::report::summary_lines(&summary);
        assert!(
            lines[1].starts_with(&format!("cycles {}, ", mismatch.cycle + 1)),
            "{lines:?}"
        );
    }

    proptest! {
        /// Units decided from the bytes accepted so far are the units of
        /// the whole message: whatever comes later, a unit the checker
        /// takes as final is the reference's (so a design is never held to
        /// a unit that more bytes would change).
        #[test]
        fn units_decided_early_are_the_whole_message_units(
            bytes in proptest::collection::vec(
                prop_oneof![0x00u8..=0x7F, 0x80u8..=0xBF, 0xC0u8..=0xFF], 0..40),
            profile in prop_oneof![Just(Profile::Rfc3629), Just(Profile::Iso10646)],
        ) {
            let mut expectation = Expectation {
                model: Reference(profile),
                messages: VecDeque::new(),
                offset: 0,
            };
            let mut units = Vec::new();
            for (i, &byte) in bytes.iter().enumerate() {
                let last = i + 1 == bytes.len();
                expectation.accept(&Beat::one(byte, last));
                while let Next::Unit(unit) = expectation.next() {
                    units.push(unit);
                }
            }
            if !bytes.is_empty() {
                prop_assert!(matches!(expectation.next(), Next::EndOfMessage));
            }
            prop_assert_eq!(units, decode(&bytes, profile));
        }
    }

    /// A checker of the 4-lane shape that has accepted `messages`, each in
    /// one beat; the design's side is played by hand.
    fn accepted(messages: &[&[u8]]) -> (Checker<Reference>, u64) {
        let mut checker = Checker::new(&Decoder(Profile::Rfc3629));
        let mut number = 0;
        for message in messages {
            let lanes: Vec<Option<u8>> = message.iter().map(|&b| Some(b)).collect();
            let inputs = Inputs {
                rst: false,
                s_axis: Some(Beat::new(&lanes, true)),
                m_axis_tready: true,
            };
            let cycle = Cycle {
                s_axis_tready: true,
                accepted: true,
                ..Cycle::default()
            };
            let checked = checker.check(number, &inputs, &cycle, &mut |_| Ok::<(), ()>(()));
            assert_eq!(checked, Ok(Ok(())));
            number += 1;
        }
        (checker, number)
    }

    /// The words of `values` (characters), in one beat.
    fn beat(values: &[u32], tlast: bool) -> Beat<Word> {
        let words: Vec<Option<Word>> = values
            .iter()
            .map(|&tdata| Some(Word { tdata, tuser: 0 }))
            .collect();
        Beat::new(&words, tlast)
    }

    /// Delivers `beats` one a cycle to `checker`; the first failure.
    fn deliver(
        checker: &mut Checker<Reference>,
        mut number: u64,
        beats: &[Beat<Word>],
    ) -> Result<(), Failure<Unit>> {
        for beat in beats {
            let inputs = Inputs::<u8> {
                rst: false,
                s_axis: None,
                m_axis_tready: true,
            };
            let cycle = Cycle {
                s_axis_tready: true,
                accepted: false,
                m_axis_tvalid: true,
                m_axis: Some(*beat),
                taken: true,
            };
            checker
                .check(number, &inputs, &cycle, &mut |_| Ok::<(), ()>(()))
                .unwrap()?;
            number += 1;
        }
        Ok(())
    }

    #[test]
    fn tlast_may_come_with_the_last_unit_or_on_a_null_beat_after_it() {
        let (mut checker, n) = accepted(&[b"AB", b"C", b""]);
        let beats = [beat(&[0x41], false), beat(&[0x42], false), beat(&[], true)];
        assert_eq!(deliver(&mut checker, n, &beats), Ok(()));
        assert_eq!(deliver(&mut checker, n + 3, &[beat(&[0x43], true)]), Ok(()));
        assert!(!checker.is_idle(), "the empty message is still owed");
        assert_eq!(deliver(&mut checker, n + 4, &[beat(&[], true)]), Ok(()));
        assert!(checker.is_idle());
        assert_eq!((checker.summary.inputs, checker.summary.units), (3, 3));
    }

    #[test]
    fn a_misplaced_or_missing_tlast_is_caught() {
        let (mut checker, n) = accepted(&[b"AB", b"C"]);
        let early = deliver(&mut checker, n, &[beat(&[0x41], true)]);
        assert!(
            matches!(early, Err(Failure::Tlast(ref m)) if m.contains("U+0042")),
            "{early:?}"
        );

        let (mut checker, n) = accepted(&[b"AB", b"C"]);
        let late = deliver(
            &mut checker,
            n,
            &[beat(&[0x41, 0x42], false), beat(&[0x43], true)],
        );
        assert_eq!(
            late,
            Err(Failure::Word {
                expected: None,
                actual: Some(Word {
                    tdata: 0x43,
                    tuser: 0
                })
            })
        );

        let (mut checker, n) = accepted(&[b""]);
        let words_of_nothing = deliver(&mut checker, n, &[beat(&[0x41], true)]);
        assert!(matches!(
            words_of_nothing,
            Err(Failure::Word { expected: None, .. })
        ));
    }

    #[test]
    fn holes_in_m_axis_tkeep_and_null_beats_without_tlast_are_caught() {
        let (mut checker, n) = accepted(&[b"AB"]);
        let mut holed = beat(&[0x41, 0, 0x42], true);
        holed.tkeep = 0b101;
        let failure = deliver(&mut checker, n, &[holed]);
        assert_eq!(
            failure,
            Err(Failure::Protocol("m_axis_tkeep 101 is not packed".into()))
        );

        let (mut checker, n) = accepted(&[b"AB"]);
        let failure = deliver(
            &mut checker,
            n,
            &[beat(&[0x41, 0x42], false), beat(&[], false)],
        );
        assert!(matches!(failure, Err(Failure::Protocol(ref m)) if m.contains("null beat")));
    }

    #[test]
    fn a_word_before_the_bytes_that_decide_it_is_caught() {
        let mut checker = Checker::new(&Decoder(Profile::Rfc3629));
        let inputs = Inputs {
            rst: false,
            s_axis: Some(Beat::one(0xE2, false)),
            m_axis_tready: true,
        };
        let cycle = Cycle {
            s_axis_tready: true,
            accepted: true,
            ..Cycle::default()
        };
        checker
            .check(0, &inputs, &cycle, &mut |_| Ok::<(), ()>(()))
            .unwrap()
            .unwrap();
        let truncated = Word::of_unit(&decode(b"\xE2", Profile::Rfc3629)[0]);
        let early = Beat::one(truncated, false);
        let failure = deliver(&mut checker, 1, &[early]);
        assert!(
            matches!(failure, Err(Failure::Protocol(ref m)) if m.contains("before the bytes that decide it"))
        );
    }
}
