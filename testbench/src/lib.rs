//! A multi-message driver for the RTL tests: it feeds messages (each ending
//! with tlast, in beats of the core's lanes) under a stall pattern on each
//! side, and checks them with the one checker that `utf8hdl sim` uses
//! ([`Checker`]): the AXI4-Stream rules on every cycle and every word
//! against the reference decoder as it leaves.

use std::convert::Infallible;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use utf8hdl_hdl::Profile;
use utf8hdl_sim::checker::{run_checked, Checker, Mismatch, Side, Stalls, Stimulus, SummaryOf};
use utf8hdl_sim::core::Unit;
use utf8hdl_sim::core::{to_hex, Beat, Core, InputsOf, Lane, Values};
use utf8hdl_sim::cores::utf8_decoder::Decoder;
use utf8hdl_sim::harness::{CycleOf, Engine, Harness, RustHdl};
use utf8hdl_synth::verilator::Verilated;

/// Every input offered at once and every output taken at once.
pub const FULL_RATE: Stimulus = Stimulus {
    source: Stalls::Never,
    sink: Stalls::Never,
    null_lanes: 0.0,
    message_end: 0.0,
    seed: 1,
};

/// Runs `inputs` through `core` on rust-hdl's engine as `stimulus` offers
/// them, checked on every cycle; the summary and every output, in order
/// (the model's, which the checker found equal to the RTL's).
pub fn run<C: Core>(
    core: C,
    inputs: &[C::Input],
    stimulus: &Stimulus,
) -> (SummaryOf<C>, Vec<C::Output>) {
    run_on(Harness::new(core), inputs, stimulus)
}

/// The Verilator model of `core`'s exported Verilog (built once, then
/// loaded from the model cache); its build's progress lines on stderr.
pub fn verilated<C: Core>(core: C) -> Verilated<C> {
    let verilog = utf8hdl_synth::core_verilog(&core).unwrap();
    Verilated::new(core, &verilog, &|m| eprintln!("{m}")).unwrap()
}

/// [`run`] on the engine of `harness`.
pub fn run_on<E: Engine>(
    harness: Harness<E>,
    inputs: &[<E::Core as Core>::Input],
    stimulus: &Stimulus,
) -> (SummaryOf<E::Core>, Vec<<E::Core as Core>::Output>) {
    let name = harness.engine.core().name();
    let mut outputs = Vec::new();
    let Ok(summary) = run_checked(
        harness,
        inputs.iter().copied(),
        stimulus,
        |unit| {
            outputs.extend(unit.outputs());
            Ok::<(), Infallible>(())
        },
        &mut |_, _| {},
    );
    if let Some(mismatch) = &summary.mismatch {
        panic!("{name}: {mismatch}");
    }
    (summary, outputs)
}

/// Drives one core through many messages and checks everything it does.
pub struct Bench<E: Engine> {
    pub harness: Harness<E>,
    checker: Checker<<E::Core as Core>::Model>,
    rng: StdRng,
    source: Side,
    sink: Side,
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
        Bench {
            checker: Checker::new(harness.engine.core()),
            harness,
            rng: StdRng::seed_from_u64(seed),
            source: Side::new(source),
            sink: Side::new(sink),
        }
    }

    /// Units delivered and checked so far.
    pub fn words(&self) -> u64 {
        self.checker.summary.units
    }

    /// One cycle, with every check applied to what the design did.
    fn cycle(
        &mut self,
        beat: Option<Beat<<E::Core as Core>::Input>>,
    ) -> Result<&CycleOf<E::Core>, String> {
        let number = self.harness.cycles;
        let inputs = InputsOf::<E::Core> {
            rst: false,
            s_axis: beat,
            m_axis_tready: self.sink.ready(number, &mut self.rng),
        };
        let cycle = self.harness.step(&inputs, &mut |_, _| {});
        let Ok(checked) = self
            .checker
            .check(number, &inputs, cycle, &mut |_| Ok::<(), Infallible>(()));
        checked.map_err(|failure| {
            Mismatch {
                cycle: number,
                failure,
                inputs: <<E::Core as Core>::Input as Lane>::NAME,
            }
            .to_string()
        })?;
        Ok(cycle)
    }

    /// Feeds one message (tlast on its last beat), in full beats, each
    /// offered when the source pattern says and held until it is taken. A
    /// core with tkeep gets an empty message as one null beat.
    pub fn message(&mut self, message: &[<E::Core as Core>::Input]) -> Result<(), String> {
        let lanes = self.harness.lanes();
        let mut beats: Vec<Beat<_>> = message
            .chunks(lanes.count)
            .map(|chunk| Beat::new(&chunk.iter().map(|&b| Some(b)).collect::<Vec<_>>(), false))
            .collect();
        if beats.is_empty() {
            if !lanes.tkeep {
                return Err("a core without tkeep cannot carry an empty message".into());
            }
            beats.push(Beat::new(&[], false));
        }
        beats.last_mut().expect("a beat at least").tlast = true;
        for beat in beats {
            while !self.source.ready(self.harness.cycles, &mut self.rng) {
                self.cycle(None)?;
            }
            while !self.cycle(Some(beat))?.accepted {}
        }
        Ok(())
    }

    /// Runs idle cycles until every message is out, then a few more to show
    /// nothing else comes.
    pub fn drain(&mut self) -> Result<(), String> {
        let limit = self.harness.cycles + 64 + 64 * self.checker.summary.inputs;
        while !self.checker.is_idle() {
            if self.harness.cycles > limit {
                return Err(format!("the design stopped: {:?}", self.checker.owed()));
            }
            self.cycle(None)?;
        }
        for _ in 0..8 {
            self.cycle(None)?;
        }
        Ok(())
    }
}

/// One cycle of `inputs` (the harness's probe window must hold it), and
/// all it showed as text: the cycle's handshakes and beats, and every
/// probe's value in hexadecimal. Two engines agree when these lines do.
pub fn traced_step<'h, E: Engine>(
    harness: &'h mut Harness<E>,
    inputs: &InputsOf<E::Core>,
) -> (&'h CycleOf<E::Core>, String) {
    let mut seen = String::new();
    let cycle = harness.step(inputs, &mut |_, values: Option<&Values>| {
        let values = values.expect("the cycle is in the probe window");
        seen = (0..values.len())
            .map(|i| to_hex(values.get(i)))
            .collect::<Vec<_>>()
            .join(" ");
    });
    let line = format!("{cycle:?} {seen}");
    (cycle, line)
}

/// Every message of `len` bytes, in order, through the one core in
/// `harness`.
pub fn all_messages<E: Engine<Core: Core<Input = u8>>>(
    harness: Harness<E>,
    len: u32,
) -> Result<u64, String> {
    let mut bench = Bench::on(harness, Stalls::Never, Stalls::Never, 0);
    let mut message = vec![0u8; len as usize];
    for n in 0..1u64 << (8 * len) {
        for (i, byte) in message.iter_mut().enumerate() {
            *byte = (n >> (8 * i)) as u8;
        }
        bench.message(&message)?;
    }
    bench.drain()?;
    Ok(bench.words())
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

/// Random messages of `random_message`, concatenated, cut to `len` bytes:
/// every kind of error, many times over.
pub fn random_bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut bytes = Vec::with_capacity(len + 24);
    while bytes.len() < len {
        bytes.extend(random_message(&mut rng, 24));
    }
    bytes.truncate(len);
    bytes
}

/// The stimuli a wide core goes through: full beats at full rate, then null
/// lanes, message ends and stalls of every pattern.
pub fn wide_stimuli(seed: u64) -> [Stimulus; 3] {
    [
        Stimulus::stalls(Stalls::Never, Stalls::Never, seed),
        Stimulus {
            null_lanes: 0.3,
            message_end: 0.03,
            ..Stimulus::stalls(Stalls::Random(0.5), Stalls::Bursty, seed)
        },
        Stimulus {
            null_lanes: 0.6,
            message_end: 0.1,
            ..Stimulus::stalls(Stalls::Bursty, Stalls::OneInEight, seed)
        },
    ]
}
