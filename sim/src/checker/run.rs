//! [`run_checked`]: a whole run of a core, its beats made from the input
//! items as the source pattern offers them, checked on every cycle.

use std::convert::Infallible;
use std::iter::Peekable;
use std::time::Instant;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::*;
use crate::core::{Beat, Core, Inputs, Lane, Lanes, Values};
use crate::harness::{Engine, Harness};

/// Cycles in which the design could move but did not, since it last
/// moved, before the run is declared stuck. A correct design never waits
/// more than 2.
const STUCK_LIMIT: u32 = 64;

/// The source side of a run: beats made from the input items as the
/// source pattern offers them, each held until it is taken. An item comes
/// with whether it ends a message.
struct Source<L: Lane, I: Iterator<Item = (L, bool)>> {
    bytes: Peekable<I>,
    lanes: Lanes,
    side: Side,
    null_lanes: f64,
    message_end: f64,
    offered: Option<Beat<L>>,
}

impl<L: Lane, I: Iterator<Item = (L, bool)>> Source<L, I> {
    /// The beat on `s_axis` in cycle `cycle`, if any.
    fn offer(&mut self, cycle: u64, rng: &mut StdRng) -> Option<Beat<L>> {
        if self.offered.is_none() && self.bytes.peek().is_some() && self.side.ready(cycle, rng) {
            self.offered = Some(self.beat(rng));
        }
        self.offered
    }

    /// The next beat: each lane null at random (with tkeep) or the next
    /// byte; after a byte, the message ends where the input says, at
    /// random (the lanes after it null) or at the input's end. A beat that
    /// got no byte may end its message too: an empty one, when the
    /// previous beat ended its own.
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
                Some((byte, last)) => {
                    beat.lanes[lane] = byte;
                    beat.tkeep |= 1 << lane;
                    beat.tlast = last || self.bytes.peek().is_none() || ends(rng);
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
    harness: Harness<E>,
    bytes: I,
    stimulus: &Stimulus,
    on_unit: impl FnMut(&UnitOf<E::Core>) -> Result<(), Stop>,
    observe: &mut dyn FnMut(u64, Option<&Values>),
) -> Result<SummaryOf<E::Core>, Stop> {
    let items = bytes.map(|byte| (byte, false));
    run_items(harness, items, stimulus, on_unit, observe)
}

/// [`run_checked`] on `messages`, one after another: each message's last
/// item carries `s_axis_tlast` (and `stimulus` may end messages at random
/// besides). A message has at least one item.
pub fn run_checked_messages<E: Engine, Stop>(
    harness: Harness<E>,
    messages: &[Vec<<E::Core as Core>::Input>],
    stimulus: &Stimulus,
    on_unit: impl FnMut(&UnitOf<E::Core>) -> Result<(), Stop>,
    observe: &mut dyn FnMut(u64, Option<&Values>),
) -> Result<SummaryOf<E::Core>, Stop> {
    let items = messages.iter().flat_map(|message| {
        let end = message.len();
        message
            .iter()
            .enumerate()
            .map(move |(i, &item)| (item, i + 1 == end))
    });
    run_items(harness, items, stimulus, on_unit, observe)
}

fn run_items<E: Engine, I: Iterator<Item = (<E::Core as Core>::Input, bool)>, Stop>(
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
        harness.step(&inputs, observe);
        if let Some(rule) = harness.engine.fault() {
            break Some(Failure::Protocol(rule.to_string()));
        }
        let cycle = harness.last_cycle();
        if let Err(failure) = checker.check(number, &inputs, cycle, &mut on_unit)? {
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
        harness.step(&inputs, observe);
        if let Some(rule) = harness.engine.fault() {
            return Some(Failure::Protocol(rule.to_string()));
        }
        let cycle = harness.last_cycle();
        let Ok(checked) = checker.check(number, &inputs, cycle, &mut |_| Ok::<(), Infallible>(()));
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
