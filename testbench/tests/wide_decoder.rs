//! The wide decoder's RTL against the reference, beat by beat on rust-hdl's
//! engine: message boundaries, cycle counts and `s_axis_tready` as they are.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use utf8hdl_hdl::Profile;
use utf8hdl_sim::core::{self, Core};
use utf8hdl_sim::cores::utf8_decoder::{WideDecoder, Word};
use utf8hdl_sim::harness::Harness;
use utf8hdl_sim::reference::decode;

/// One input beat: each lane's byte, or None for a null lane; and tlast.
type Beat = (Vec<Option<u8>>, bool);

/// What a run saw: each output beat's (tdata, tuser) words and tlast, the
/// cycle of each output beat and of each accepted input beat, and whether
/// `s_axis_tready` was high on every cycle after reset.
struct Run {
    out: Vec<(Vec<(u32, u8)>, bool)>,
    out_cycles: Vec<u64>,
    in_cycles: Vec<u64>,
    always_ready: bool,
    /// The most beats accepted and not yet delivered, over the run.
    most_inside: usize,
}

/// Runs `beats` through `core` on rust-hdl's engine, by the project's one
/// harness (which drives and samples the ports from the core's description),
/// with random stalls on both sides.
fn run<C: Core<Input = u8, Output = Word>>(
    core: C,
    beats: &[Beat],
    seed: u64,
    source_stall: f64,
    sink_stall: f64,
) -> Run {
    let mut sink_rng = StdRng::seed_from_u64(!seed);
    run_with(core, beats, seed, source_stall, |_| {
        !sink_rng.gen_bool(sink_stall)
    })
}

/// As [`run`], with `m_axis_tready` in each cycle (counted from the first
/// after reset) given by `sink_ready`.
fn run_with<C: Core<Input = u8, Output = Word>>(
    core: C,
    beats: &[Beat],
    seed: u64,
    source_stall: f64,
    mut sink_ready: impl FnMut(u64) -> bool,
) -> Run {
    let mut harness = Harness::new(core);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut out_cycles = Vec::new();
    let mut in_cycles = Vec::new();
    let mut always_ready = true;
    let mut most_inside = 0;
    let mut next = 0;
    let mut idle = 0;
    let mut offering = false;
    let start = harness.cycles;
    loop {
        let ready = sink_ready(harness.cycles - start);
        // A beat offered stays offered until taken (AXI4-Stream).
        offering = next < beats.len() && (offering || !rng.gen_bool(source_stall));
        let beat = offering.then(|| core::Beat::new(&beats[next].0, beats[next].1));
        let cycle_number = harness.cycles - start;
        let cycle = harness.cycle(beat, ready);
        always_ready &= cycle.s_axis_tready();
        if let Some(beat) = cycle.delivered() {
            let k = beat.tkeep.count_ones();
            assert_eq!(beat.tkeep, (1u32 << k) - 1, "m_axis_tkeep is packed");
            let words = beat.items().map(|w| (w.tdata, w.tuser)).collect();
            out.push((words, beat.tlast));
            out_cycles.push(cycle_number);
            idle = 0;
        }
        most_inside = most_inside.max(in_cycles.len() + usize::from(cycle.accepted) - out.len());
        if cycle.accepted {
            in_cycles.push(cycle_number);
            next += 1;
            offering = false;
        }
        // Quiet cycles count while the sink takes beats: a core that has
        // nothing more to send stays quiet.
        idle += u32::from(ready);
        if next == beats.len() && idle > 50 {
            break;
        }
        assert!(idle < 10_000, "no progress");
    }
    Run {
        out,
        out_cycles,
        in_cycles,
        always_ready,
        most_inside,
    }
}

/// The messages of `beats`: the non-null bytes up to each tlast.
fn messages(beats: &[Beat]) -> Vec<Vec<u8>> {
    let mut all = vec![];
    let mut cur = vec![];
    for (lanes, tlast) in beats {
        cur.extend(lanes.iter().flatten());
        if *tlast {
            all.push(std::mem::take(&mut cur));
        }
    }
    all
}

fn check(profile: Profile, beats: &[Beat], out: &[(Vec<(u32, u8)>, bool)]) {
    let mut got: Vec<Vec<(u32, u8)>> = vec![];
    let mut cur = vec![];
    for (words, tlast) in out {
        cur.extend(words.iter().copied());
        if *tlast {
            got.push(std::mem::take(&mut cur));
        }
    }
    assert!(cur.is_empty(), "words after the last tlast: {cur:X?}");
    let msgs = messages(beats);
    assert_eq!(got.len(), msgs.len(), "one tlast per message");
    for (m, (msg, words)) in msgs.iter().zip(&got).enumerate() {
        let want: Vec<(u32, u8)> = decode(msg, profile)
            .iter()
            .map(|u| (u.value, u.error.map_or(0, |k| k.code() << 1 | 1)))
            .collect();
        assert_eq!(words, &want, "message {m}: {msg:02X?} ({profile})");
    }
}

fn random_beats<const N: usize>(rng: &mut StdRng, count: usize, hole: f64, last: f64) -> Vec<Beat> {
    const ALPHABET: &[u8] = &[
        0x41, 0x00, 0x7F, 0x80, 0x84, 0x88, 0x90, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xE1, 0xED,
        0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xF7, 0xF8, 0xFB, 0xFC, 0xFD, 0xFE, 0xFF,
    ];
    (0..count)
        .map(|_| {
            let lanes = (0..N)
                .map(|_| {
                    (!rng.gen_bool(hole)).then(|| {
                        if rng.gen_bool(0.5) {
                            ALPHABET[rng.gen_range(0..ALPHABET.len())]
                        } else {
                            rng.gen()
                        }
                    })
                })
                .collect();
            (lanes, rng.gen_bool(last))
        })
        .chain(std::iter::once((vec![None; N], true)))
        .collect()
}

/// Beats of `bytes`, N to a beat, in one message.
fn full_beats(bytes: &[u8], n: usize) -> Vec<Beat> {
    let chunks: Vec<&[u8]> = bytes.chunks(n).collect();
    chunks
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let mut lanes: Vec<Option<u8>> = c.iter().map(|&b| Some(b)).collect();
            lanes.resize(n, None);
            (lanes, i + 1 == chunks.len())
        })
        .collect()
}

/// The beats of every 1-byte message at every starting lane, and of every
/// 2-byte message, each at a starting lane and with or without a null lane
/// between its bytes, in turn (the lanes before the first byte are null).
fn short_messages(n: usize) -> Vec<Beat> {
    let mut beats = Vec::new();
    let mut place = |bytes: &[u8], start: usize, gap: bool| {
        let mut lanes = vec![None; start];
        for (i, &b) in bytes.iter().enumerate() {
            if i > 0 && gap {
                lanes.push(None);
            }
            lanes.push(Some(b));
        }
        let count = lanes.len().div_ceil(n);
        lanes.resize(count * n, None);
        for (i, beat) in lanes.chunks(n).enumerate() {
            beats.push((beat.to_vec(), i + 1 == count));
        }
    };
    for b in 0..=255u8 {
        for start in 0..n {
            place(&[b], start, false);
        }
    }
    for pair in 0..=u16::MAX {
        let [a, b] = pair.to_be_bytes();
        let turn = usize::from(a ^ b);
        place(&[a, b], turn % n, turn / n % 2 == 1);
    }
    beats
}

macro_rules! random_test {
    ($(#[$attr:meta])* $name:ident, $n:literal) => {
        #[test]
        $(#[$attr])*
        fn $name() {
            for profile in Profile::ALL {
                for seed in 0..6u64 {
                    let mut rng = StdRng::seed_from_u64(seed);
                    let hole = [0.0, 0.2, 0.6][seed as usize % 3];
                    let last = [0.05, 0.3][seed as usize % 2];
                    let beats = random_beats::<$n>(&mut rng, 400, hole, last);
                    let stall = if seed < 2 { 0.0 } else { 0.3 };
                    let run = run(WideDecoder::<$n>(profile), &beats, seed, stall, stall);
                    check(profile, &beats, &run.out);
                }
            }
        }
    };
}

random_test!(random_beats_x2, 2);
random_test!(random_beats_x4, 4);
random_test!(
    #[ignore = "slow: the 8-lane decoder in rust-hdl's simulator"]
    random_beats_x8,
    8
);

/// Every short message through the 2-lane decoder, in both profiles, with
/// `s_axis_tready` high throughout. The 4- and 8-lane decoders take every
/// short message, at every starting lane, on the Verilator engine
/// (`wide_checked.rs`), whose models run the same Verilog as rust-hdl's
/// simulation (`engines.rs` checks them cycle for cycle).
#[test]
fn every_short_message_x2() {
    let beats = short_messages(2);
    for profile in Profile::ALL {
        let run = run(WideDecoder::<2>(profile), &beats, 1, 0.0, 0.0);
        check(profile, &beats, &run.out);
        assert!(run.always_ready);
    }
}

/// With beats on every cycle and `m_axis_tready` high, a stream of B beats
/// leaves in B + LATENCY cycles, `s_axis_tready` never falls, and each output
/// beat comes LATENCY cycles after its input beat, even where a beat breaks a
/// sequence and completes N + 1 units.
macro_rules! throughput_test {
    ($(#[$attr:meta])* $name:ident, $n:literal) => {
        #[test]
        $(#[$attr])*
        fn $name() {
            const LATENCY: u64 = WideDecoder::<$n>::LATENCY;
            let mut rng = StdRng::seed_from_u64(7);
            let mut streams: Vec<(String, Vec<u8>)> = vec![
                ("ascii".into(), b"The quick brown fox ".repeat(30)),
                (
                    "4-byte".into(),
                    "\u{1F600}\u{10FFFF}".repeat(40).into_bytes(),
                ),
                ("random".into(), (0..600).map(|_| rng.gen()).collect()),
                ("all errors".into(), vec![0x80; 600]),
            ];
            for pad in 0..$n {
                let mut bytes = vec![b'a'; pad];
                bytes.extend([0xC2, 0x41].repeat(300));
                streams.push((format!("C2 41 at lane {pad}"), bytes));
            }
            for profile in Profile::ALL {
                for (what, bytes) in &streams {
                    let beats = full_beats(bytes, $n);
                    let run = run(WideDecoder::<$n>(profile), &beats, 0, 0.0, 0.0);
                    check(profile, &beats, &run.out);
                    assert!(run.always_ready, "{what}: s_axis_tready fell");
                    let first = run.in_cycles[0];
                    let last = *run.out_cycles.last().unwrap();
                    assert_eq!(
                        last - first + 1,
                        beats.len() as u64 + LATENCY,
                        "{what} ({profile}): {} beats",
                        beats.len()
                    );
                    // Each output beat leaves LATENCY cycles after the input beat
                    // that ends its units (a beat inside a long character
                    // ends none).
                    for o in &run.out_cycles {
                        assert!(run.in_cycles.contains(&(o - LATENCY)), "{what}: cycle {o}");
                    }
                }
            }
        }
    };
}

throughput_test!(full_rate_x2, 2);
throughput_test!(full_rate_x4, 4);
throughput_test!(
    #[ignore = "slow: the 8-lane decoder in rust-hdl's simulator"]
    full_rate_x8,
    8
);

/// The output queue's corner: `m_axis_tready` low for long runs, then high.
/// The beats inside the core (accepted, not delivered) reach the queue's
/// size and never pass it, `s_axis_tready` falls while the sink waits, and
/// no word is lost or repeated when it resumes.
macro_rules! queue_full_test {
    ($(#[$attr:meta])* $name:ident, $n:literal) => {
        #[test]
        $(#[$attr])*
        fn $name() {
            // Units of one or two bytes, valid and not: every beat of two
            // or more lanes ends a unit, so no beat is dropped on the way
            // and the beats inside are exactly those the credits count.
            const UNITS: &[&[u8]] = &[
                b"A",
                &[0x80],
                &[0xFF],
                &[0xC2, 0x80],
                &[0xDF, 0xBF],
                &[0xC2],
            ];
            let mut rng = StdRng::seed_from_u64(11);
            let mut bytes = Vec::new();
            while bytes.len() < $n * 300 {
                bytes.extend(UNITS[rng.gen_range(0..UNITS.len())]);
            }
            let beats = full_beats(&bytes, $n);
            // 100 cycles waiting, then 40 taking, over and over.
            let run = run_with(
                WideDecoder::<$n>(Profile::Rfc3629),
                &beats,
                3,
                0.0,
                |cycle| cycle % 140 >= 100,
            );
            check(Profile::Rfc3629, &beats, &run.out);
            assert!(!run.always_ready, "s_axis_tready never fell");
            assert_eq!(
                run.most_inside,
                <WideDecoder<$n> as Core>::Block::QUEUE_BEATS,
                "the most beats inside the core"
            );
        }
    };
}

queue_full_test!(queue_full_x2, 2);
queue_full_test!(
    #[ignore = "slow: the 8-lane decoder in rust-hdl's simulator"]
    queue_full_x8,
    8
);

/// A long stream of nothing but errors, of every kind, at full rate: every
/// byte or maximal subpart is a unit, and the core neither slows down nor
/// loses one.
macro_rules! all_errors_test {
    ($(#[$attr:meta])* $name:ident, $n:literal) => {
        #[test]
        $(#[$attr])*
        fn $name() {
            // One maximal subpart of each kind; the rfc3629 kinds, and
            // all but out_of_range in iso10646.
            const SUBPARTS: &[&[u8]] = &[
                &[0xFF],
                &[0x80],
                &[0xE2, 0x82],
                &[0xC0],
                &[0xE0, 0x80],
                &[0xED, 0xA0],
                &[0xF4, 0x90],
                &[0xF8],
            ];
            let mut rng = StdRng::seed_from_u64(5);
            let mut bytes = Vec::new();
            while bytes.len() < $n * 2000 {
                bytes.extend(SUBPARTS[rng.gen_range(0..SUBPARTS.len())]);
            }
            let beats = full_beats(&bytes, $n);
            const LATENCY: u64 = WideDecoder::<$n>::LATENCY;
            for profile in Profile::ALL {
                let run = run(WideDecoder::<$n>(profile), &beats, 0, 0.0, 0.0);
                check(profile, &beats, &run.out);
                assert!(run.always_ready, "s_axis_tready fell");
                let last = *run.out_cycles.last().unwrap();
                assert_eq!(last - run.in_cycles[0] + 1, beats.len() as u64 + LATENCY);
            }
        }
    };
}

all_errors_test!(long_all_errors_x2, 2);
all_errors_test!(
    #[ignore = "slow: the 8-lane decoder in rust-hdl's simulator"]
    long_all_errors_x8,
    8
);
