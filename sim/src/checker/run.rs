//! [`run_checked`]: a whole run of a core, its beats made from the input
//! items as the source pattern offers them, checked on every cycle.

use std::convert::Infallible;
use std::iter::Peekable;
use std::ops::ControlFlow;
use std::time::Instant;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::*;
use crate::core::{Beat, Core, Inputs, Lane, Lanes, Values};
use crate::harness::{Batch, Engine, Harness, MAY_OFFER, SINK_READY};

/// Cycles in which the design could move but did not, since it last
/// moved, before the run is declared stuck. A correct design never waits
/// more than 2.
const STUCK_LIMIT: u32 = 64;

/// Cycles a batch of the run has, at most (see [`Batch`]): enough that
/// a compiled model's call costs little per cycle, few enough that its
/// outputs stay in cache.
const BATCH_CYCLES: usize = 1024;

/// The source side of a run: beats made from the input items, each with
/// whether it ends a message.
struct Source<L: Lane, I: Iterator<Item = (L, bool)>> {
    bytes: Peekable<I>,
    lanes: Lanes,
    null_lanes: f64,
    message_end: f64,
}

impl<L: Lane, I: Iterator<Item = (L, bool)>> Source<L, I> {
    /// The next beat, if any input is left: each lane null at random (with
    /// tkeep) or the next byte; after a byte, the message ends where the
    /// input says, at random (the lanes after it null) or at the input's
    /// end. A beat that got no byte may end its message too: an empty one,
    /// when the previous beat ended its own.
    fn beat(&mut self, rng: &mut StdRng) -> Option<Beat<L>> {
        self.bytes.peek()?;
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
        Some(beat)
    }

    /// Every beat has been made.
    fn is_empty(&mut self) -> bool {
        self.bytes.peek().is_none()
    }
}

/// The stall patterns of both sides, cycle by cycle, each drawn from its
/// own stream of the seed: like the beats, which come from a third, they
/// are the seed's alone, whatever the design does, so that the cycles of a
/// batch are known before it runs.
struct Pattern {
    source: Side,
    sink: Side,
    source_rng: StdRng,
    sink_rng: StdRng,
}

impl Pattern {
    /// The flags of cycle `cycle` (see [`Batch`]).
    fn flags(&mut self, cycle: u64) -> u8 {
        let offer = self.source.ready(cycle, &mut self.source_rng);
        let ready = self.sink.ready(cycle, &mut self.sink_rng);
        (offer as u8 * MAY_OFFER) | (ready as u8 * SINK_READY)
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
    let mut seeds = StdRng::seed_from_u64(stimulus.seed);
    let mut beat_rng = StdRng::seed_from_u64(seeds.gen());
    let mut pattern = Pattern {
        source: Side::new(stimulus.source),
        sink: Side::new(stimulus.sink),
        source_rng: StdRng::seed_from_u64(seeds.gen()),
        sink_rng: StdRng::seed_from_u64(seeds.gen()),
    };
    let mut source = Source {
        bytes: bytes.peekable(),
        lanes: harness.lanes(),
        null_lanes: stimulus.null_lanes,
        message_end: stimulus.message_end,
    };
    // The flags of the cycles drawn and not yet run, and the beats made
    // and not yet accepted (the first one held when `holding`).
    let (mut flags, mut beats, mut holding) = (Vec::new(), Vec::new(), false);
    let mut stuck = 0;
    let start = Instant::now();
    let failure = loop {
        // Once every beat is in, a cycle at a time: the run ends in the
        // cycle where the last word is out, and the engine must stand there.
        let all_in = beats.is_empty() && source.is_empty();
        let len = match all_in {
            true => 1,
            false => harness.batch_len(BATCH_CYCLES),
        };
        while flags.len() < len {
            flags.push(pattern.flags(harness.cycles + flags.len() as u64));
        }
        let offers = holding as usize + flags[..len].iter().filter(|&f| f & MAY_OFFER != 0).count();
        while beats.len() < offers {
            match source.beat(&mut beat_rng) {
                Some(beat) => {
                    checker.foresee(&beat);
                    beats.push(beat);
                }
                None => break,
            }
        }
        let input_left = !source.is_empty();
        let batch = Batch {
            flags: &flags[..len],
            beats: &beats,
            holding,
        };
        let (mut accepted, mut ended, mut stopped) = (0, None, None);
        let ran = harness.run(&batch, &mut |ran| {
            observe(ran.number, ran.probes);
            if let Some(rule) = ran.fault {
                ended = Some(Some(Failure::Protocol(rule.to_string())));
                return ControlFlow::Break(());
            }
            let (inputs, cycle) = (ran.inputs, ran.cycle);
            match checker.check(ran.number, inputs, cycle, &mut on_unit) {
                Err(stop) => {
                    stopped = Some(stop);
                    return ControlFlow::Break(());
                }
                Ok(Err(failure)) => {
                    ended = Some(Some(failure));
                    return ControlFlow::Break(());
                }
                Ok(Ok(())) => {}
            }
            accepted += cycle.accepted as usize;
            holding = inputs.s_axis.is_some() && !cycle.accepted;
            let source_done = !input_left && accepted == beats.len();
            if source_done && checker.is_idle() {
                ended = Some(None);
                return ControlFlow::Break(());
            }
            // The design could move (the sink is ready, and a beat is
            // offered or all beats are in) but did nothing. Only a move
            // resets the count: a cycle where the sink stalls is neither,
            // or a design that has stopped would never be caught under
            // random stalls.
            let could_move = inputs.m_axis_tready && (inputs.s_axis.is_some() || source_done);
            if cycle.accepted || cycle.delivered().is_some() {
                stuck = 0;
            } else if could_move {
                stuck += 1;
            }
            if stuck > STUCK_LIMIT {
                ended = Some(Some(checker.owed()));
                return ControlFlow::Break(());
            }
            ControlFlow::Continue(())
        });
        if let Some(stop) = stopped {
            return Err(stop);
        }
        match ended {
            Some(None) => break drain_extra_beats(&mut harness, &mut checker, latency, observe),
            Some(failure) => break failure,
            None => {
                flags.drain(..ran);
                beats.drain(..accepted);
            }
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
