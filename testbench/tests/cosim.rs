//! Co-simulation: the exported Verilog, run in Icarus Verilog and in
//! Verilator, against the rust-hdl design run in the cycle harness, cycle for
//! cycle and output for output.
//!
//! The stimulus is random but AXI4-Stream-legal: for a decoder, bytes biased
//! towards leads and continuing octets (and whole well-formed sequences of
//! the profile); for the encoders, words of every length, surrogates and
//! values past the profile's range; for the UTF-16 decoder, code units,
//! half of them surrogates;
//! random `tlast`, random gaps on `s_axis_tvalid` (an offered byte is held
//! until taken), random `m_axis_tready` back-pressure, in phases from
//! saturated to sparse, and an occasional reset in mid-stream. It is made
//! while the harness runs, since whether a byte was taken depends on the
//! design.
//!
//! Every output is compared in every cycle, including `m_axis_tdata` while
//! `m_axis_tvalid` is low: both models start every flop at 0.
//!
//! Each test needs its simulator on `PATH` and is skipped (with a message)
//! without it, unless `UTF8HDL_REQUIRE_TOOLS=1`. `UTF8HDL_COSIM_SEED` and
//! `UTF8HDL_COSIM_CYCLES` override the seed and the length.

use std::collections::BTreeMap;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use utf8hdl_hdl::{ErrorKind, Profile};
use utf8hdl_sim::core::{ports, Beat, Core, Dir, Inputs, Port};
use utf8hdl_sim::cores::char_properties::{Flags, Properties};
use utf8hdl_sim::cores::utf16_decoder;
use utf8hdl_sim::cores::utf16_encoder::{self, CodeUnit};
use utf8hdl_sim::cores::utf8_decoder::{Decoder, WideDecoder, Word};
use utf8hdl_sim::cores::utf8_encoder::{Encoder, Octet};
use utf8hdl_sim::harness::Harness;
use utf8hdl_sim::reference::encode;
use utf8hdl_synth::cosim::{simulate, Simulator, Tracer};
use utf8hdl_synth::tools;
use utf8hdl_synth::write_core_verilog;

const DEFAULT_CYCLES: usize = 200_000;

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A source of bytes that looks like UTF-8 going wrong in every way.
struct ByteSource {
    queue: Vec<u8>,
    profile: Profile,
}

impl ByteSource {
    fn next(&mut self, rng: &mut StdRng) -> u8 {
        while self.queue.is_empty() {
            self.refill(rng);
        }
        self.queue.remove(0)
    }

    fn refill(&mut self, rng: &mut StdRng) {
        let max = self.profile.max_value();
        match rng.gen_range(0..10) {
            // A well-formed sequence, of every length the profile has.
            0..=3 => {
                let top =
                    [0x7F, 0x7FF, 0xFFFF, 0x1F_FFFF, 0x3FF_FFFF, 0x7FFF_FFFF][rng.gen_range(0..6)];
                let value = rng.gen_range(0..=top.min(max));
                if let Some(bytes) = encode(value, self.profile) {
                    self.queue.extend(bytes);
                } else {
                    self.queue.push(0x41);
                }
            }
            // A well-formed sequence cut short.
            4 => {
                let value = rng.gen_range(0x80..=max);
                if let Some(bytes) = encode(value, self.profile) {
                    let keep = rng.gen_range(1..bytes.len());
                    self.queue.extend(&bytes[..keep]);
                }
            }
            // A lead on a boundary followed by a second byte near its bound
            // (ED and F4 twice as often: surrogates and the rfc3629 limit).
            5 => {
                let leads = [
                    0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xED, 0xEF, 0xF0, 0xF4, 0xF4, 0xF5, 0xF7,
                    0xF8, 0xFB, 0xFC, 0xFD,
                ];
                let lead = leads[rng.gen_range(0..leads.len())];
                let second = [0x80, 0x83, 0x84, 0x87, 0x88, 0x8F, 0x90, 0x9F, 0xA0, 0xBF]
                    [rng.gen_range(0..10)];
                self.queue.push(lead);
                self.queue.push(second);
            }
            // Continuing octets.
            6 | 7 => self.queue.push(rng.gen_range(0x80..=0xBF)),
            // Leads.
            8 => self.queue.push(rng.gen_range(0xC0..=0xFF)),
            // Anything.
            _ => self.queue.push(rng.gen()),
        }
    }
}

/// A source of words: every length of the profile, its edges, surrogates
/// and values past its range.
struct WordSource(Profile);

impl WordSource {
    fn next(&mut self, rng: &mut StdRng) -> u32 {
        let top = [
            0x7F,
            0x7FF,
            0xFFFF,
            0x1F_FFFF,
            0x3FF_FFFF,
            0x7FFF_FFFF,
            u32::MAX,
        ];
        match rng.gen_range(0..8) {
            0 => rng.gen_range(0xD800..=0xDFFF),
            1 => self.0.max_value() + rng.gen_range(0..=3),
            2 => top[rng.gen_range(0..top.len())] - rng.gen_range(0..=1),
            _ => {
                let top = top[rng.gen_range(0..top.len())];
                rng.gen_range(0..=top)
            }
        }
    }
}

/// What a core's input lanes are made of, and which of its outputs are
/// errors.
trait Traffic: Core {
    /// The next input lane of random traffic for a core of `profile`.
    fn source(profile: Profile) -> impl FnMut(&mut StdRng) -> Self::Input;
    /// The error code an output carries, if any.
    fn error_code(output: &Self::Output) -> Option<u8>;
    /// Every code a core of `profile` can send.
    fn error_codes(profile: Profile) -> Vec<u8>;
}

/// Every decoder reads bytes and sends words whose `tuser` holds the kind.
macro_rules! decoder_traffic {
    ($($core:ty),*) => {$(
        impl Traffic for $core {
            fn source(profile: Profile) -> impl FnMut(&mut StdRng) -> u8 {
                let mut source = ByteSource {
                    queue: Vec::new(),
                    profile,
                };
                move |rng| source.next(rng)
            }
            fn error_code(word: &Word) -> Option<u8> {
                (word.tuser & 1 == 1).then_some(word.tuser >> 1)
            }
            /// Each kind; iso10646 has no value out of range.
            fn error_codes(profile: Profile) -> Vec<u8> {
                ErrorKind::ALL
                    .into_iter()
                    .filter(|&k| !(k == ErrorKind::OutOfRange && profile == Profile::Iso10646))
                    .map(ErrorKind::code)
                    .collect()
            }
        }
    )*};
}

decoder_traffic!(Decoder, WideDecoder<4>, WideDecoder<16>);

/// The encoder flags an error's octets with one bit, whatever the kind:
/// code 0 stands for all.
impl Traffic for Encoder {
    fn source(profile: Profile) -> impl FnMut(&mut StdRng) -> u32 {
        let mut source = WordSource(profile);
        move |rng| source.next(rng)
    }
    fn error_code(octet: &Octet) -> Option<u8> {
        octet.error.then_some(0)
    }
    fn error_codes(_profile: Profile) -> Vec<u8> {
        vec![0]
    }
}

/// The UTF-16 encoder reads the same words, and flags its FFFD with one
/// bit.
impl Traffic for utf16_encoder::Encoder {
    fn source(profile: Profile) -> impl FnMut(&mut StdRng) -> u32 {
        Encoder::source(profile)
    }
    fn error_code(unit: &CodeUnit) -> Option<u8> {
        unit.error.then_some(0)
    }
    fn error_codes(_profile: Profile) -> Vec<u8> {
        vec![0]
    }
}

/// The UTF-16 decoder reads code units, surrogates half of them (so that
/// pairs, lone halves and halves at a message's end all come), and sends
/// words whose `tuser` holds the one kind it finds.
impl Traffic for utf16_decoder::Decoder {
    fn source(_profile: Profile) -> impl FnMut(&mut StdRng) -> u16 {
        |rng| match rng.gen_range(0..4) {
            0 => rng.gen_range(0xD800..=0xDBFF),
            1 => rng.gen_range(0xDC00..=0xDFFF),
            _ => rng.gen(),
        }
    }
    fn error_code(word: &Word) -> Option<u8> {
        (word.tuser & 1 == 1).then_some(word.tuser >> 1)
    }
    fn error_codes(_profile: Profile) -> Vec<u8> {
        vec![ErrorKind::Surrogate.code()]
    }
}

/// The properties core reads the same words; it has no error, so code 0
/// stands for a word with any flag.
impl Traffic for Properties {
    fn source(profile: Profile) -> impl FnMut(&mut StdRng) -> u32 {
        Encoder::source(profile)
    }
    fn error_code(word: &Flags) -> Option<u8> {
        (word.tuser != 0).then_some(0)
    }
    fn error_codes(_profile: Profile) -> Vec<u8> {
        vec![0]
    }
}

/// What a run went through, to show the stimulus reached the interesting
/// places.
#[derive(Default, Debug)]
struct Coverage {
    /// Output lanes delivered.
    words: usize,
    lasts: usize,
    errors: BTreeMap<u8, usize>,
    input_stalls: usize,
    output_stalls: usize,
    resets: usize,
}

/// Runs the harness for `cycles` cycles of random traffic; returns every
/// cycle's input line and the output line the harness saw.
fn harness_run<C: Traffic>(
    core: C,
    ports: &[Port],
    seed: u64,
    cycles: usize,
) -> (Vec<String>, Vec<String>, Coverage) {
    let profile = core.profile();
    let mut rng = StdRng::seed_from_u64(seed);
    let tracer = Tracer::new(ports);
    let mut harness = Harness::new(core);
    harness.probe_window = 0..u64::MAX;
    let lanes = harness.lanes();
    let mut source = C::source(profile);
    let mut inputs = Vec::with_capacity(cycles);
    let mut seen = Vec::with_capacity(cycles);
    let mut coverage = Coverage::default();
    let mut pending: Option<Beat<C::Input>> = None;
    let (mut p_valid, mut p_ready) = (1.0, 1.0);
    let mut reset_left = 0;
    for cycle in 0..cycles {
        if cycle % 500 == 0 {
            let rates = [1.0, 1.0, 0.9, 0.5, 0.1];
            p_valid = rates[rng.gen_range(0..rates.len())];
            p_ready = rates[rng.gen_range(0..rates.len())];
        }
        // About 50 resets a run, but no more often than one in 400 cycles.
        if reset_left == 0 && rng.gen_ratio(1, (cycles / 50).max(400) as u32) {
            reset_left = rng.gen_range(1..=3);
            coverage.resets += 1;
        }
        let stimulus = if reset_left > 0 {
            reset_left -= 1;
            pending = None;
            Inputs {
                rst: true,
                ..Inputs::default()
            }
        } else {
            if pending.is_none() && rng.gen_bool(p_valid) {
                // A null lane now and then, for a core with tkeep.
                let items: Vec<Option<C::Input>> = (0..lanes.count)
                    .map(|_| (!lanes.tkeep || rng.gen_ratio(4, 5)).then(|| source(&mut rng)))
                    .collect();
                pending = Some(Beat::new(&items, rng.gen_ratio(1, 25)));
            }
            Inputs {
                rst: false,
                s_axis: pending,
                m_axis_tready: rng.gen_bool(p_ready),
            }
        };
        // The outputs are flops: once the cycle's inputs have settled they
        // still show what they showed as the cycle began.
        let c = harness.step(&stimulus, &mut |_, values| {
            let values = values.expect("every cycle is probed");
            inputs.push(tracer.line(Dir::In, values));
            seen.push(tracer.line(Dir::Out, values));
        });
        if stimulus.rst {
            continue;
        }
        if c.accepted {
            pending = None;
        } else if pending.is_some() {
            coverage.input_stalls += 1;
        }
        if c.m_axis_tvalid() && !stimulus.m_axis_tready {
            coverage.output_stalls += 1;
        }
        if let Some(beat) = c.delivered() {
            coverage.lasts += beat.tlast as usize;
            for output in beat.items() {
                coverage.words += 1;
                if let Some(code) = C::error_code(&output) {
                    *coverage.errors.entry(code).or_default() += 1;
                }
            }
        }
    }
    (inputs, seen, coverage)
}

fn cosim(simulator: Simulator, profile: Profile) {
    let cycles = env_or("UTF8HDL_COSIM_CYCLES", DEFAULT_CYCLES as u64) as usize;
    cosim_of(simulator, Decoder(profile), cycles);
}

/// Co-simulates `core` for `cycles` cycles of random traffic and compares
/// every output on every cycle.
fn cosim_of<C: Traffic + Copy>(simulator: Simulator, core: C, cycles: usize) {
    if !tools::require_all(simulator.tools()) {
        return;
    }
    let profile = core.profile();
    let seed = env_or("UTF8HDL_COSIM_SEED", 0x5eed_0000 + profile as u64);
    let ports = ports(&core.block()).unwrap();
    let (inputs, expected, coverage) = harness_run(core, &ports, seed, cycles);

    // The stimulus reached what it should.
    let name = core.name();
    eprintln!("{simulator:?} {name} seed {seed:#x}: {coverage:?}");
    let some = cycles / 2000;
    assert!(coverage.words > cycles / 8, "{coverage:?}");
    assert!(
        coverage.lasts > some && coverage.input_stalls > some && coverage.output_stalls > some,
        "{coverage:?}"
    );
    assert!(coverage.resets > 0, "{coverage:?}");
    for code in C::error_codes(profile) {
        assert!(
            coverage.errors.get(&code).copied().unwrap_or(0) > some / 10,
            "error code {code} barely seen: {coverage:?}"
        );
    }

    let dir = tempfile::Builder::new()
        .prefix(&format!("utf8hdl-cosim-{simulator:?}-{name}-"))
        .tempdir()
        .unwrap();
    let design = write_core_verilog(&core, dir.path()).unwrap();
    let actual = match simulate(simulator, &design, &name, &ports, &inputs, dir.path()) {
        Ok((actual, _)) => actual,
        Err(e) => {
            let kept = dir.keep();
            panic!(
                "{simulator:?} failed (files kept in {}): {e:#}",
                kept.display()
            );
        }
    };
    if let Some(cycle) = (0..inputs.len()).find(|&i| actual[i] != expected[i]) {
        let kept = dir.keep();
        let from = cycle.saturating_sub(8);
        let mut context = String::new();
        for i in from..=cycle {
            context += &format!(
                "  cycle {i:6}: in {:?}\n    rust-hdl: {}\n    {simulator:?}: {}\n",
                inputs[i], expected[i], actual[i]
            );
        }
        panic!(
            "{simulator:?} and rust-hdl differ on {name} at cycle {cycle} of {} (seed {seed:#x}; files in {}):\n{context}",
            inputs.len(),
            kept.display()
        );
    }
}

#[test]
#[ignore = "slow: Icarus co-simulation of the 1-lane decoder, rfc3629"]
fn icarus_matches_rust_hdl_rfc3629() {
    cosim(Simulator::Icarus, Profile::Rfc3629);
}

#[test]
#[ignore = "slow: Icarus co-simulation of the 1-lane decoder, iso10646"]
fn icarus_matches_rust_hdl_iso10646() {
    cosim(Simulator::Icarus, Profile::Iso10646);
}

#[test]
fn verilator_matches_rust_hdl_rfc3629() {
    cosim(Simulator::Verilator, Profile::Rfc3629);
}

#[test]
#[ignore = "slow: Verilator co-simulation of the 1-lane decoder, iso10646"]
fn verilator_matches_rust_hdl_iso10646() {
    cosim(Simulator::Verilator, Profile::Iso10646);
}

/// The wide cores, on a shorter run: rust-hdl simulates them some hundred
/// times slower than the 1-lane core. 16 lanes: 128- and 512-bit ports.
const WIDE_CYCLES: usize = 4_000;

#[test]
#[ignore = "slow: Icarus co-simulation of the 4-lane decoder"]
fn icarus_matches_rust_hdl_x4() {
    cosim_of(
        Simulator::Icarus,
        WideDecoder::<4>(Profile::Rfc3629),
        WIDE_CYCLES,
    );
}

#[test]
#[ignore = "slow: Icarus co-simulation of the 16-lane decoder"]
fn icarus_matches_rust_hdl_x16_iso10646() {
    cosim_of(
        Simulator::Icarus,
        WideDecoder::<16>(Profile::Iso10646),
        WIDE_CYCLES / 2,
    );
}

#[test]
#[ignore = "slow: Verilator co-simulation of the 4-lane decoder"]
fn verilator_matches_rust_hdl_x4_iso10646() {
    cosim_of(
        Simulator::Verilator,
        WideDecoder::<4>(Profile::Iso10646),
        WIDE_CYCLES,
    );
}

/// The encoder, both profiles, in both simulators: at one octet a clock it
/// runs as fast as the 1-lane decoder.
#[test]
#[ignore = "slow: Icarus and Verilator co-simulations of the encoder"]
fn icarus_and_verilator_match_rust_hdl_on_the_encoder() {
    let cycles = env_or("UTF8HDL_COSIM_CYCLES", DEFAULT_CYCLES as u64) as usize / 4;
    for simulator in [Simulator::Icarus, Simulator::Verilator] {
        for profile in Profile::ALL {
            cosim_of(simulator, Encoder(profile), cycles);
        }
    }
}

/// The UTF-16 encoder and decoder and the properties core, in both
/// simulators.
#[test]
#[ignore = "slow: Icarus and Verilator co-simulations of the UTF-16 and properties cores"]
fn icarus_and_verilator_match_rust_hdl_on_the_utf16_and_properties_cores() {
    let cycles = env_or("UTF8HDL_COSIM_CYCLES", DEFAULT_CYCLES as u64) as usize / 4;
    for simulator in [Simulator::Icarus, Simulator::Verilator] {
        cosim_of(simulator, utf16_encoder::Encoder, cycles);
        cosim_of(simulator, utf16_decoder::Decoder, cycles);
        cosim_of(simulator, Properties, cycles);
    }
}
