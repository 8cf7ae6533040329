//! `utf8hdl bench`: simulated speed with and without a waveform, waveform
//! size, and peak memory on a long input.

use std::convert::Infallible;
use std::io::{self, Write};
use std::time::Instant;

use anyhow::Result;

use crate::checker::{run_checked, Stalls, Stimulus, Summary};
use crate::core::{Core, Unit, Values};
use crate::harness::{Engine, Harness};
use crate::sample::sample;
use crate::waveform::{TimescaleUnit, VcdRecorder};

/// A deterministic mixed corpus: the sample's scripts and errors, plain
/// ASCII prose, and pseudo-random bytes, repeated to `len` bytes.
pub fn mixed_corpus(len: usize) -> impl Iterator<Item = u8> {
    let mut block = sample();
    block.extend_from_slice(
        b"The quick brown fox jumps over the lazy dog. "
            .repeat(8)
            .as_slice(),
    );
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    block.extend((0..256).map(|_| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 24) as u8
    }));
    block.into_iter().cycle().take(len)
}

/// Counts the bytes written through it.
struct Counter(u64);

impl Write for Counter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The figures `utf8hdl bench` reports.
#[derive(Debug)]
pub struct Figures {
    pub corpus_bytes: usize,
    pub cycles_per_second: f64,
    pub vcd_cycles_per_second: f64,
    pub vcd_bytes_per_cycle: f64,
    pub memory_input_bytes: usize,
    pub memory_peak_rss_bytes: Option<u64>,
    pub memory_cycles_per_second: f64,
    pub memory_seconds: f64,
}

/// The benchmark drives the core at full rate: full beats, no stalls.
const STIMULUS: Stimulus = Stimulus {
    source: Stalls::Never,
    sink: Stalls::Never,
    null_lanes: 0.0,
    message_end: 0.0,
    seed: 1,
};

fn checked<U: Unit>(summary: Summary<U>) -> Result<Summary<U>> {
    match &summary.mismatch {
        None => Ok(summary),
        Some(m) => anyhow::bail!("{m}"),
    }
}

/// Peak resident memory of this process (Linux), in bytes.
fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Runs the benchmark on the engine and core that `harness` makes:
/// `corpus_bytes` of mixed input with and without a VCD, then
/// `memory_bytes` streamed through for peak memory. `progress` is told the
/// bytes done so far, out of `2 * corpus_bytes + memory_bytes`.
pub fn run<E: Engine<Core: Core<Input = u8>>>(
    harness: impl Fn() -> Result<Harness<E>>,
    corpus_bytes: usize,
    memory_bytes: usize,
    progress: &mut dyn FnMut(u64),
) -> Result<Figures> {
    let mut done_before = 0;
    let mut run =
        |harness: Harness<E>, len: usize, observe: &mut dyn FnMut(u64, Option<&Values>)| {
            let Ok(summary) = run_checked(
                harness,
                mixed_corpus(len),
                &STIMULUS,
                |unit| {
                    progress(done_before + unit.span().end as u64);
                    Ok::<(), Infallible>(())
                },
                observe,
            );
            done_before += len as u64;
            checked(summary)
        };
    let plain = run(harness()?, corpus_bytes, &mut |_, _| {})?;
    let mut recorded = harness()?;
    let core = recorded.engine.core();
    let mut recorder = VcdRecorder::new(Counter(0), core, 0..u64::MAX, 10, TimescaleUnit::NS)?;
    recorded.probe_window = recorder.window();
    let start = Instant::now();
    let with_vcd = run(recorded, corpus_bytes, &mut |c, values| {
        if let Some(values) = values {
            recorder.record(c, values).expect("counting never fails");
        }
    })?;
    let vcd_seconds = start.elapsed().as_secs_f64();
    let vcd_bytes = recorder.finish()?.0;
    let long = run(harness()?, memory_bytes, &mut |_, _| {})?;
    Ok(Figures {
        corpus_bytes,
        cycles_per_second: plain.cycles_per_second(),
        vcd_cycles_per_second: with_vcd.simulated_cycles as f64 / vcd_seconds,
        vcd_bytes_per_cycle: vcd_bytes as f64 / with_vcd.simulated_cycles as f64,
        memory_input_bytes: memory_bytes,
        memory_peak_rss_bytes: peak_rss(),
        memory_cycles_per_second: long.cycles_per_second(),
        memory_seconds: long.elapsed.as_secs_f64(),
    })
}
