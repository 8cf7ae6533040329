//! The streaming comparison of the RTL against the reference decoder.
//!
//! Bytes are read once, through the reference decoder, which hands each byte
//! it reads to the byte source as well. Each word is checked as it leaves
//! the design, so memory holds only the bytes and units in flight, however
//! long the input.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::fmt;
use std::rc::Rc;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use utf8hdl_hdl::{ErrorKind, Profile, Utf8Decoder};

use crate::harness::{Byte, Harness, Word};
use crate::reference::{Decoder, Unit};

/// Cycles in which the design could move but did not, before the run is
/// declared stuck. A correct design never waits more than 2.
const STUCK_LIMIT: u32 = 64;

/// How the design is driven.
#[derive(Copy, Clone, Debug)]
pub struct Stimulus {
    pub profile: Profile,
    /// Probability that a cycle has `s_axis_tvalid` low.
    pub stall_in: f64,
    /// Probability that a cycle has `m_axis_tready` low.
    pub stall_out: f64,
    pub seed: u64,
}

/// The first word that differed from the reference.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    pub cycle: u64,
    /// The expected unit, or `None` when the design sent a word too many.
    pub expected: Option<Unit>,
    pub expected_last: bool,
    /// The word the design sent, or `None` when it stopped sending.
    pub actual: Option<Word>,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let offset = self.expected.as_ref().map(|u| u.span.start);
        write!(f, "RTL and reference differ at cycle {}", self.cycle)?;
        if let Some(offset) = offset {
            write!(f, ", byte offset {offset}")?;
        }
        match &self.expected {
            Some(u) => write!(
                f,
                ": expected U+{:04X} {} tlast={}",
                u.value,
                u.error.map_or("ok", ErrorKind::name),
                self.expected_last
            )?,
            None => write!(f, ": expected no more words")?,
        }
        match &self.actual {
            Some(w) => write!(
                f,
                ", got tdata={:08X} tuser={:X} tlast={}",
                w.tdata, w.tuser, w.tlast
            ),
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
    /// design and the reference differ.
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

fn matches(word: &Word, unit: &Unit, last: bool) -> bool {
    word.tdata == unit.value && word.error() == Ok(unit.error) && word.tlast == last
}

/// A random source of "not this cycle", with probability `p`.
struct Stall {
    p: f64,
}

impl Stall {
    fn now(&self, rng: &mut StdRng) -> bool {
        self.p > 0.0 && rng.gen_bool(self.p)
    }
}

/// Runs `bytes` through the design as one message and checks every word
/// against the reference. `on_unit` sees each checked unit (its value and
/// kind from the design, its span from the reference; the span's end is how
/// far the run has come), and an error from it stops the run; `observe` sees
/// the design in every cycle (for waveforms).
pub fn run_checked<I: Iterator<Item = u8>, E>(
    bytes: I,
    stimulus: &Stimulus,
    on_unit: impl FnMut(&Unit) -> Result<(), E>,
    observe: &mut dyn FnMut(u64, &Utf8Decoder),
) -> Result<Summary, E> {
    check(
        Harness::new(stimulus.profile),
        bytes,
        stimulus,
        on_unit,
        observe,
    )
}

/// [`run_checked`] with a given design, which the reference decodes for
/// `stimulus.profile`.
fn check<I: Iterator<Item = u8>, E>(
    mut harness: Harness,
    bytes: I,
    stimulus: &Stimulus,
    mut on_unit: impl FnMut(&Unit) -> Result<(), E>,
    observe: &mut dyn FnMut(u64, &Utf8Decoder),
) -> Result<Summary, E> {
    let mut expectation = Expectation::new(bytes, stimulus.profile);
    let mut rng = StdRng::seed_from_u64(stimulus.seed);
    let (stall_in, stall_out) = (
        Stall {
            p: stimulus.stall_in,
        },
        Stall {
            p: stimulus.stall_out,
        },
    );
    let mut summary = Summary::default();
    let mut stuck = 0;
    let start = Instant::now();
    loop {
        let byte = expectation.next_byte();
        let offered = byte.filter(|_| !stall_in.now(&mut rng));
        let m_axis_tready = !stall_out.now(&mut rng);
        let cycle = harness.cycle_observed(offered, m_axis_tready, observe);
        if cycle.accepted {
            expectation.take_byte();
            summary.bytes += 1;
        }
        if let Some(word) = cycle.delivered {
            match expectation.next_unit() {
                Some((unit, last)) if matches(&word, &unit, last) => {
                    summary.words += 1;
                    summary.cycles = harness.cycles;
                    if let Some(kind) = unit.error {
                        summary.errors_by_code[kind.code() as usize] += 1;
                    }
                    on_unit(&Unit {
                        value: word.tdata,
                        ..unit
                    })?;
                }
                expected => {
                    summary.cycles = harness.cycles;
                    summary.mismatch = Some(Mismatch {
                        cycle: harness.cycles - 1,
                        expected_last: expected.as_ref().is_some_and(|e| e.1),
                        expected: expected.map(|e| e.0),
                        actual: Some(word),
                    });
                    break;
                }
            }
        }
        let finished = byte.is_none() && expectation.units.is_empty() && expectation.done;
        if finished {
            break;
        }
        // The design could move (the sink is ready, and a byte is offered or
        // all bytes are in) but did nothing.
        let could_move = m_axis_tready && (offered.is_some() || byte.is_none());
        if could_move && !cycle.accepted && cycle.delivered.is_none() {
            stuck += 1;
        } else {
            stuck = 0;
        }
        if stuck > STUCK_LIMIT {
            summary.cycles = harness.cycles;
            summary.mismatch = Some(Mismatch {
                cycle: harness.cycles - 1,
                expected_last: false,
                expected: expectation.next_unit().map(|e| e.0),
                actual: None,
            });
            break;
        }
    }
    if summary.mismatch.is_none() {
        summary.mismatch = drain_extra_words(&mut harness, observe);
        if summary.mismatch.is_some() {
            summary.cycles = harness.cycles;
        }
    }
    summary.simulated_cycles = harness.cycles;
    summary.elapsed = start.elapsed();
    Ok(summary)
}

/// After the last expected word, the design must stay quiet.
fn drain_extra_words(
    harness: &mut Harness,
    observe: &mut dyn FnMut(u64, &Utf8Decoder),
) -> Option<Mismatch> {
    for _ in 0..4 {
        let cycle = harness.cycle_observed(None, true, observe);
        if let Some(word) = cycle.delivered {
            return Some(Mismatch {
                cycle: harness.cycles - 1,
                expected: None,
                expected_last: false,
                actual: Some(word),
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A design built for iso10646 checked against the rfc3629 reference
    /// differs at F8 88 80 80 80 (one character against five U+FFFD). The
    /// summary describes the cycles run up to the difference: all 7 bytes
    /// were taken (the design holds the whole five-byte sequence before
    /// its word leaves), and no more than one byte per cycle.
    #[test]
    fn a_mismatch_summary_counts_the_cycles_run() {
        let stimulus = Stimulus {
            profile: Profile::Rfc3629,
            stall_in: 0.0,
            stall_out: 0.0,
            seed: 1,
        };
        let bytes = b"AB\xF8\x88\x80\x80\x80";
        let summary = check(
            Harness::new(Profile::Iso10646),
            bytes.iter().copied(),
            &stimulus,
            |_| Ok::<(), ()>(()),
            &mut |_, _| {},
        )
        .unwrap();
        let mismatch = summary.mismatch.clone().expect("the profiles differ");
        assert_eq!(mismatch.actual.map(|w| w.tdata), Some(0x20_0000));
        assert_eq!(mismatch.expected.map(|u| u.value), Some(0xFFFD));
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
