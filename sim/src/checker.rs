//! The one checker of a core: the AXI4-Stream rules and the datasheet's
//! invariants on every cycle ([`Protocol`]), every word against the
//! reference as it leaves ([`Word::of_unit`]), and the one stall generator
//! ([`Stalls`]). `utf8hdl sim` runs it through [`run_checked`]; the tests'
//! multi-message driver uses the same pieces.
//!
//! In [`run_checked`] bytes are read once, through the reference decoder,
//! which hands each byte it reads to the byte source as well. Each word is
//! checked as it leaves the design, so memory holds only the bytes and
//! units in flight, however long the input.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::fmt;
use std::rc::Rc;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use utf8hdl_hdl::{ErrorKind, Profile};

use crate::core::{Core, Inputs, Values};
use crate::harness::{Byte, Cycle, Engine, Harness, Word};
use crate::reference::{Decoder, Unit};

/// Cycles in which the design could move but did not, before the run is
/// declared stuck. A correct design never waits more than 2.
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
/// show, checked cycle after cycle:
/// * a word shown while `m_axis_tready` is low holds, `tvalid` included,
///   until it is taken;
/// * no `m_axis_tvalid` during reset or on the cycle after it;
/// * one byte per clock: once `m_axis_tready` has been high for
///   [`Protocol::LATENCY`] cycles, `s_axis_tready` is high.
#[derive(Default)]
pub struct Protocol {
    stalled: Option<Word>,
    ready_run: u64,
    reset_before: bool,
}

impl Protocol {
    /// Cycles from a byte's acceptance to its word on `m_axis`.
    pub const LATENCY: u64 = 4;

    /// Checks one cycle; the error names the rule it breaks.
    pub fn check(&mut self, inputs: &Inputs, cycle: &Cycle) -> Result<(), String> {
        if let Some(held) = self.stalled.take() {
            if cycle.m_axis != Some(held) && !inputs.rst {
                return Err(format!(
                    "a stalled word did not hold: {held} became {}",
                    cycle.m_axis.map_or("no word".into(), |w| w.to_string())
                ));
            }
        }
        if (inputs.rst || self.reset_before) && cycle.m_axis_tvalid {
            return Err("m_axis_tvalid high during reset or the cycle after it".into());
        }
        if self.ready_run >= Self::LATENCY && !cycle.s_axis_tready {
            return Err(format!(
                "s_axis_tready low although m_axis_tready has been high for {} cycles",
                self.ready_run
            ));
        }
        self.stalled = cycle
            .m_axis
            .filter(|_| !inputs.m_axis_tready && !inputs.rst);
        self.ready_run = match inputs.m_axis_tready && !inputs.rst {
            true => self.ready_run + 1,
            false => 0,
        };
        self.reset_before = inputs.rst;
        Ok(())
    }
}

/// How `utf8hdl sim` drives the design.
#[derive(Copy, Clone, Debug)]
pub struct Stimulus {
    /// When a byte is offered (`s_axis_tvalid`).
    pub source: Stalls,
    /// When the sink takes a word (`m_axis_tready`).
    pub sink: Stalls,
    pub seed: u64,
}

/// What went wrong first.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    /// A word differs from the reference: `expected` is `None` when the
    /// design sent a word too many, `actual` when it stopped sending.
    Word {
        expected: Option<(Unit, bool)>,
        actual: Option<Word>,
    },
    /// An AXI4-Stream rule or a datasheet invariant was broken.
    Protocol(String),
}

/// The first failure, and its cycle.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    pub cycle: u64,
    pub failure: Failure,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (expected, actual) = match &self.failure {
            Failure::Protocol(rule) => {
                return write!(f, "the RTL broke a rule at cycle {}: {rule}", self.cycle)
            }
            Failure::Word { expected, actual } => (expected, actual),
        };
        let offset = expected.as_ref().map(|(u, _)| u.span.start);
        write!(f, "RTL and reference differ at cycle {}", self.cycle)?;
        if let Some(offset) = offset {
            write!(f, ", byte offset {offset}")?;
        }
        match expected {
            Some((u, last)) => write!(
                f,
                ": expected U+{:04X} {} tlast={}",
                u.value,
                u.error.map_or("ok", ErrorKind::name),
                *last as u8
            )?,
            None => write!(f, ": expected no more words")?,
        }
        match actual {
            Some(w) => write!(f, ", got {w}"),
            None => write!(f, ", got no word"),
        }
    }
}

/// What a run measured.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub bytes: u64,
    pub words: u64,
    /// Errors by kind code (index 0 is unused).
    pub errors_by_code: [u64; 7],
    /// Cycles from the first (where the first byte is offered) up to and
    /// including the one that delivers the last word, or the one where the
    /// design fails.
    pub cycles: u64,
    /// All cycles simulated, including reset and the quiet cycles after.
    pub simulated_cycles: u64,
    pub elapsed: Duration,
    pub mismatch: Option<Mismatch>,
}

impl Summary {
    pub fn errors(&self) -> u64 {
        self.errors_by_code.iter().sum()
    }
    pub fn agree(&self) -> bool {
        self.mismatch.is_none()
    }
    pub fn bytes_per_cycle(&self) -> f64 {
        self.bytes as f64 / self.cycles.max(1) as f64
    }
    pub fn cycles_per_second(&self) -> f64 {
        self.simulated_cycles as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
    /// The `--stats json` object.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "bytes": self.bytes,
            "words": self.words,
            "errors": self.errors(),
            "errors_by_kind": ErrorKind::ALL.iter()
                .map(|k| (k.name().to_string(), self.errors_by_code[k.code() as usize].into()))
                .collect::<serde_json::Map<_, _>>(),
            "cycles": self.cycles,
            "bytes_per_cycle": self.bytes_per_cycle(),
            "cycles_per_second": self.cycles_per_second(),
            "agree": self.agree(),
        })
    }
}

/// Bytes read by the reference decoder, queued for the byte source.
#[derive(Default)]
struct Tap {
    queue: VecDeque<u8>,
    exhausted: bool,
}

struct Tapped<I> {
    bytes: I,
    tap: Rc<RefCell<Tap>>,
}

impl<I: Iterator<Item = u8>> Iterator for Tapped<I> {
    type Item = u8;
    fn next(&mut self) -> Option<u8> {
        let byte = self.bytes.next();
        let mut tap = self.tap.borrow_mut();
        match byte {
            Some(b) => tap.queue.push_back(b),
            None => tap.exhausted = true,
        }
        byte
    }
}

/// The reference side of a run: expected units, and the bytes to feed.
struct Expectation<I: Iterator<Item = u8>> {
    reference: Decoder<Tapped<I>>,
    tap: Rc<RefCell<Tap>>,
    units: VecDeque<Unit>,
    done: bool,
}

impl<I: Iterator<Item = u8>> Expectation<I> {
    fn new(bytes: I, profile: Profile) -> Self {
        let tap = Rc::new(RefCell::new(Tap::default()));
        let tapped = Tapped {
            bytes,
            tap: Rc::clone(&tap),
        };
        Expectation {
            reference: Decoder::new(tapped, profile),
            tap,
            units: VecDeque::new(),
            done: false,
        }
    }

    /// Decodes one more unit; false at the end of the input.
    fn pull(&mut self) -> bool {
        match (!self.done).then(|| self.reference.next()).flatten() {
            Some(unit) => {
                self.units.push_back(unit);
                true
            }
            None => {
                self.done = true;
                false
            }
        }
    }

    /// The next byte to offer, with `tlast` known: it needs one byte of
    /// lookahead, or the end of the input.
    fn next_byte(&mut self) -> Option<Byte> {
        while self.tap.borrow().queue.len() < 2 && !self.tap.borrow().exhausted && self.pull() {}
        let tap = self.tap.borrow();
        let tdata = *tap.queue.front()?;
        Some(Byte {
            tdata,
            tlast: tap.queue.len() == 1 && tap.exhausted,
        })
    }

    fn take_byte(&mut self) {
        self.tap.borrow_mut().queue.pop_front();
    }

    /// The next expected unit, and whether it is the message's last.
    fn next_unit(&mut self) -> Option<(Unit, bool)> {
        while self.units.len() < 2 && self.pull() {}
        let unit = self.units.pop_front()?;
        Some((unit, self.units.is_empty() && self.done))
    }
}

/// Runs `bytes` through the core in `harness` as one message and checks
/// every cycle and every word. `on_unit` sees each checked unit (its value
/// and kind from the design, its span from the reference; the span's end is
/// how far the run has come), and an error from it stops the run; `observe`
/// sees every cycle, with the probes' values inside the harness's probe
/// window (for waveforms).
pub fn run_checked<E: Engine, I: Iterator<Item = u8>, Stop>(
    mut harness: Harness<E>,
    bytes: I,
    stimulus: &Stimulus,
    mut on_unit: impl FnMut(&Unit) -> Result<(), Stop>,
    observe: &mut dyn FnMut(u64, Option<&Values>),
) -> Result<Summary, Stop> {
    let profile = harness.engine.core().profile();
    let mut expectation = Expectation::new(bytes, profile);
    let mut rng = StdRng::seed_from_u64(stimulus.seed);
    let (mut source, mut sink) = (Side::new(stimulus.source), Side::new(stimulus.sink));
    let mut protocol = Protocol::default();
    let mut summary = Summary::default();
    let mut stuck = 0;
    let start = Instant::now();
    let failure = loop {
        let byte = expectation.next_byte();
        let inputs = Inputs {
            rst: false,
            s_axis: byte.filter(|_| source.ready(harness.cycles, &mut rng)),
            m_axis_tready: sink.ready(harness.cycles, &mut rng),
        };
        let cycle = harness.step(&inputs, observe);
        summary.simulated_cycles = harness.cycles;
        if let Err(rule) = protocol.check(&inputs, &cycle) {
            break Some(Failure::Protocol(rule));
        }
        if cycle.accepted {
            expectation.take_byte();
            summary.bytes += 1;
        }
        if let Some(word) = cycle.delivered {
            match expectation.next_unit() {
                Some((unit, last)) if Word::of_unit(&unit, last) == word => {
                    summary.words += 1;
                    summary.cycles = harness.cycles;
                    if let Some(kind) = unit.error {
                        summary.errors_by_code[kind.code() as usize] += 1;
                    }
                    on_unit(&unit)?;
                }
                expected => {
                    break Some(Failure::Word {
                        expected,
                        actual: Some(word),
                    })
                }
            }
        }
        let finished = byte.is_none() && expectation.units.is_empty() && expectation.done;
        if finished {
            break drain_extra_words(&mut harness, &mut protocol, observe);
        }
        // The design could move (the sink is ready, and a byte is offered or
        // all bytes are in) but did nothing.
        let could_move = inputs.m_axis_tready && (inputs.s_axis.is_some() || byte.is_none());
        if could_move && !cycle.accepted && cycle.delivered.is_none() {
            stuck += 1;
        } else {
            stuck = 0;
        }
        if stuck > STUCK_LIMIT {
            break Some(Failure::Word {
                expected: expectation.next_unit(),
                actual: None,
            });
        }
    };
    if let Some(failure) = failure {
        summary.cycles = harness.cycles;
        summary.mismatch = Some(Mismatch {
            cycle: harness.cycles - 1,
            failure,
        });
    }
    summary.simulated_cycles = harness.cycles;
    summary.elapsed = start.elapsed();
    Ok(summary)
}

/// After the last expected word, the design must stay quiet.
fn drain_extra_words<E: Engine>(
    harness: &mut Harness<E>,
    protocol: &mut Protocol,
    observe: &mut dyn FnMut(u64, Option<&Values>),
) -> Option<Failure> {
    for _ in 0..Protocol::LATENCY {
        let inputs = Inputs {
            m_axis_tready: true,
            ..Inputs::default()
        };
        let cycle = harness.step(&inputs, observe);
        if let Err(rule) = protocol.check(&inputs, &cycle) {
            return Some(Failure::Protocol(rule));
        }
        if let Some(word) = cycle.delivered {
            return Some(Failure::Word {
                expected: None,
                actual: Some(word),
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Decoder;
    use utf8hdl_hdl::Utf8Decoder;

    /// The iso10646 design, described as if it were rfc3629's: a core
    /// whose reference disagrees with its block.
    #[derive(Copy, Clone)]
    struct Mislabelled;

    impl Core for Mislabelled {
        type Block = Utf8Decoder;
        const STATE: &'static [&'static str] = &[];
        fn name(&self) -> String {
            "mislabelled".into()
        }
        fn profile(&self) -> Profile {
            Profile::Rfc3629
        }
        fn block(&self) -> Utf8Decoder {
            Decoder(Profile::Iso10646).block()
        }
        crate::byte_to_word_io!(Utf8Decoder);
    }

    /// It differs at F8 88 80 80 80 (one character against five U+FFFD).
    /// The summary describes the cycles run up to the difference: all 7
    /// bytes were taken (the design holds the whole five-byte sequence
    /// before its word leaves), and no more than one byte per cycle.
    #[test]
    fn a_mismatch_summary_counts_the_cycles_run() {
        let stimulus = Stimulus {
            source: Stalls::Never,
            sink: Stalls::Never,
            seed: 1,
        };
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
        assert_eq!(expected.as_ref().map(|(u, _)| u.value), Some(0xFFFD));
        assert_eq!((summary.bytes, summary.words), (7, 2));
        assert_eq!(summary.cycles, mismatch.cycle + 1);
        assert!(summary.bytes_per_cycle() <= 1.0, "{summary:?}");
        let lines = crate::report::summary_lines(&summary);
        assert!(
            lines[1].starts_with(&format!("cycles {}, ", mismatch.cycle + 1)),
            "{lines:?}"
        );
    }
}
