//! A multi-message driver for the RTL tests: it feeds messages (each ending
//! with tlast) under a backpressure pattern, checks every word against the
//! reference decoder as it leaves, and checks the AXI4-Stream rules on every
//! cycle.

use std::collections::VecDeque;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use utf8hdl_hdl::Profile;
use utf8hdl_sim::harness::{Byte, Cycle, Harness, Word};
use utf8hdl_sim::reference::{decode, Unit};

/// How a side of the stream stalls.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Pattern {
    /// Never stalls.
    Always,
    /// Stalls on half the cycles, at random.
    Half,
    /// Alternates random runs of 1–16 ready and 1–16 stalled cycles.
    Bursty,
    /// Ready on one cycle in eight.
    OneInEight,
}

impl Pattern {
    pub const ALL: [Pattern; 4] = [
        Pattern::Always,
        Pattern::Half,
        Pattern::Bursty,
        Pattern::OneInEight,
    ];
}

/// The state of one side's stall pattern.
struct Side {
    pattern: Pattern,
    burst_left: u32,
    burst_ready: bool,
}

impl Side {
    fn new(pattern: Pattern) -> Self {
        Side {
            pattern,
            burst_left: 0,
            burst_ready: true,
        }
    }

    fn ready(&mut self, cycle: u64, rng: &mut StdRng) -> bool {
        match self.pattern {
            Pattern::Always => true,
            Pattern::Half => rng.gen_bool(0.5),
            Pattern::OneInEight => cycle % 8 == 0,
            Pattern::Bursty => {
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

/// Drives one decoder through many messages and checks everything it does.
pub struct Bench {
    pub harness: Harness,
    profile: Profile,
    rng: StdRng,
    source: Side,
    sink: Side,
    /// Words the design owes, oldest first, with their message's tlast.
    expected: VecDeque<(Unit, bool)>,
    /// The last cycle's stalled output, which must hold.
    stalled: Option<Word>,
    pub words: u64,
}

impl Bench {
    pub fn new(profile: Profile, source: Pattern, sink: Pattern, seed: u64) -> Self {
        Bench {
            harness: Harness::new(profile),
            profile,
            rng: StdRng::seed_from_u64(seed),
            source: Side::new(source),
            sink: Side::new(sink),
            expected: VecDeque::new(),
            stalled: None,
            words: 0,
        }
    }

    /// One cycle, with every check applied to what the design did.
    fn cycle(&mut self, byte: Option<Byte>) -> Result<Cycle, String> {
        let cycle_number = self.harness.cycles;
        let m_axis_tready = self.sink.ready(cycle_number, &mut self.rng);
        let cycle = self.harness.cycle(byte, m_axis_tready);
        let at = |what: String| format!("cycle {cycle_number}: {what}");
        if let Some(held) = self.stalled {
            if cycle.m_axis != Some(held) {
                return Err(at(format!(
                    "a stalled word changed or was dropped: {held:?} became {:?}",
                    cycle.m_axis
                )));
            }
        }
        self.stalled = cycle.m_axis.filter(|_| !m_axis_tready);
        if self.sink.pattern == Pattern::Always && !cycle.s_axis_tready {
            return Err(at(
                "s_axis_tready fell although m_axis_tready is always high".into(),
            ));
        }
        if let Some(word) = cycle.delivered {
            let Some((unit, last)) = self.expected.pop_front() else {
                return Err(at(format!("an extra word {word:?}")));
            };
            if word.tdata != unit.value || word.error() != Ok(unit.error) || word.tlast != last {
                return Err(at(format!("expected {unit:?} tlast={last}, got {word:?}")));
            }
            self.words += 1;
        }
        Ok(cycle)
    }

    /// Feeds one message (tlast on its last byte) under the source pattern.
    pub fn message(&mut self, message: &[u8]) -> Result<(), String> {
        let units = decode(message, self.profile);
        let count = units.len();
        self.expected.extend(
            units
                .into_iter()
                .enumerate()
                .map(|(i, u)| (u, i + 1 == count)),
        );
        let mut next = 0;
        while next < message.len() {
            let offer = self.source.ready(self.harness.cycles, &mut self.rng);
            let byte = offer.then(|| Byte {
                tdata: message[next],
                tlast: next + 1 == message.len(),
            });
            if self.cycle(byte)?.accepted {
                next += 1;
            }
        }
        Ok(())
    }

    /// Runs idle cycles until every owed word is out, then a few more to
    /// show nothing else comes.
    pub fn drain(&mut self) -> Result<(), String> {
        let limit = self.harness.cycles + 64 + 64 * self.expected.len() as u64;
        while !self.expected.is_empty() {
            if self.harness.cycles > limit {
                return Err(format!("words never came: {:?}", self.expected.front()));
            }
            self.cycle(None)?;
        }
        for _ in 0..8 {
            self.cycle(None)?;
        }
        Ok(())
    }
}

/// Every message of `len` bytes, in order, through one decoder.
pub fn all_messages(profile: Profile, len: u32) -> Result<u64, String> {
    let mut bench = Bench::new(profile, Pattern::Always, Pattern::Always, 0);
    let mut message = vec![0u8; len as usize];
    for n in 0..1u64 << (8 * len) {
        for (i, byte) in message.iter_mut().enumerate() {
            *byte = (n >> (8 * i)) as u8;
        }
        bench.message(&message)?;
    }
    bench.drain()?;
    Ok(bench.words)
}

/// A random message biased toward lead and continuation bytes.
pub fn random_message(rng: &mut StdRng, max_len: usize) -> Vec<u8> {
    let len = rng.gen_range(1..=max_len);
    (0..len)
        .map(|_| match rng.gen_range(0..8) {
            0 => rng.gen_range(0x00..=0x7F),
            1..=3 => rng.gen_range(0x80..=0xBF),
            4 => rng.gen_range(0xC0..=0xDF),
            5 => rng.gen_range(0xE0..=0xEF),
            6 => rng.gen_range(0xF0..=0xF7),
            _ => rng.gen_range(0xF8..=0xFF),
        })
        .collect()
}
