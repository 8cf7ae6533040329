//! A multi-message driver for the RTL tests: it feeds messages (each ending
//! with tlast) under a stall pattern on each side, and checks them with the
//! one checker that `utf8hdl sim` uses: the AXI4-Stream rules on every cycle
//! ([`Protocol`]) and every word against the reference decoder as it leaves
//! ([`Word::of_unit`]).

use std::collections::VecDeque;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use utf8hdl_hdl::Profile;
use utf8hdl_sim::checker::{Protocol, Side, Stalls};
use utf8hdl_sim::core::Core;
use utf8hdl_sim::core::{Decoder, Inputs};
use utf8hdl_sim::harness::{Byte, Cycle, Engine, Harness, RustHdl, Word};
use utf8hdl_sim::reference::{decode, Unit};

/// Drives one decoder through many messages and checks everything it does.
pub struct Bench<E: Engine> {
    pub harness: Harness<E>,
    profile: Profile,
    rng: StdRng,
    source: Side,
    sink: Side,
    protocol: Protocol,
    /// Words the design owes, oldest first, with their message's tlast.
    expected: VecDeque<(Unit, bool)>,
    pub words: u64,
}

impl Bench<RustHdl<Decoder>> {
    /// The decoder of `profile` on rust-hdl's engine.
    pub fn new(profile: Profile, source: Stalls, sink: Stalls, seed: u64) -> Self {
        Bench::on(Harness::new(Decoder(profile)), source, sink, seed)
    }
}

impl<E: Engine> Bench<E> {
    /// The core in `harness`, on any engine.
    pub fn on(harness: Harness<E>, source: Stalls, sink: Stalls, seed: u64) -> Self {
        let profile = harness.engine.core().profile();
        Bench {
            harness,
            profile,
            rng: StdRng::seed_from_u64(seed),
            source: Side::new(source),
            sink: Side::new(sink),
            protocol: Protocol::default(),
            expected: VecDeque::new(),
            words: 0,
        }
    }

    /// One cycle, with every check applied to what the design did.
    fn cycle(&mut self, byte: Option<Byte>) -> Result<Cycle, String> {
        let cycle_number = self.harness.cycles;
        let inputs = Inputs {
            rst: false,
            s_axis: byte,
            m_axis_tready: self.sink.ready(cycle_number, &mut self.rng),
        };
        let cycle = self.harness.step(&inputs, &mut |_, _| {});
        let at = |what: String| format!("cycle {cycle_number}: {what}");
        self.protocol.check(&inputs, &cycle).map_err(at)?;
        if let Some(word) = cycle.delivered {
            let Some((unit, last)) = self.expected.pop_front() else {
                return Err(at(format!("an extra word {word}")));
            };
            if Word::of_unit(&unit, last) != word {
                return Err(at(format!("expected {unit:?} tlast={last}, got {word}")));
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

/// Every message of `len` bytes, in order, through the one core in
/// `harness`.
pub fn all_messages<E: Engine>(harness: Harness<E>, len: u32) -> Result<u64, String> {
    let mut bench = Bench::on(harness, Stalls::Never, Stalls::Never, 0);
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
