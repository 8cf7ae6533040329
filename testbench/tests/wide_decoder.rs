//! The wide decoder's RTL against the reference, driven directly.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rust_hdl::prelude::*;
use utf8hdl_hdl::wide::{Utf8WideDecoder, LATENCY};
use utf8hdl_hdl::Profile;
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
}

/// Runs `beats` through a wide decoder.
fn run<const N: usize, const TI: usize, const TB: usize, const TO: usize, const TU: usize>(
    profile: Profile,
    beats: &[Beat],
    seed: u64,
    source_stall: f64,
    sink_stall: f64,
) -> Run {
    let mut uut = Utf8WideDecoder::<N, TI, TB, TO, TU>::new(profile);
    uut.connect_all();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut out_cycles = Vec::new();
    let mut in_cycles = Vec::new();
    let mut always_ready = true;
    let mut next = 0;
    let mut cycles = 0;
    let mut idle = 0;
    let mut offering = false;
    let settle = |uut: &mut Utf8WideDecoder<N, TI, TB, TO, TU>| assert!(simulate(uut, 1000));
    uut.rst.next = true;
    for _ in 0..2 {
        uut.clk.next = false.into();
        settle(&mut uut);
        uut.clk.next = true.into();
        settle(&mut uut);
    }
    uut.rst.next = false;
    loop {
        let ready = !rng.gen_bool(sink_stall);
        // outputs, sampled before the edge
        if uut.m_axis_tvalid.val() && ready {
            let keep = uut.m_axis_tkeep.val().to_u64();
            let k = keep.count_ones() as usize;
            assert_eq!(keep, (1u64 << k) - 1, "m_axis_tkeep is packed");
            let tdata = uut.m_axis_tdata.val();
            let tuser = uut.m_axis_tuser.val();
            let words = (0..k)
                .map(|i| {
                    (
                        tdata.get_bits::<32>(32 * i).to_u64() as u32,
                        tuser.get_bits::<4>(4 * i).to_u64() as u8,
                    )
                })
                .collect();
            out.push((words, uut.m_axis_tlast.val()));
            out_cycles.push(cycles);
            idle = 0;
        }
        always_ready &= uut.s_axis_tready.val();
        // A beat offered stays offered until taken (AXI4-Stream).
        offering = next < beats.len() && (offering || !rng.gen_bool(source_stall));
        if offering {
            let (lanes, tlast) = &beats[next];
            let mut tdata = Bits::<TI>::default();
            let mut tkeep = Bits::<N>::default();
            for (i, lane) in lanes.iter().enumerate() {
                tdata.set_bits::<8>(8 * i, u64::from(lane.unwrap_or(0xEE)).into());
                tkeep = tkeep.replace_bit(i, lane.is_some());
            }
            uut.s_axis_tdata.next = tdata;
            uut.s_axis_tkeep.next = tkeep;
            uut.s_axis_tlast.next = *tlast;
        }
        let accepted = offering && uut.s_axis_tready.val();
        if accepted {
            in_cycles.push(cycles);
            next += 1;
        }
        uut.s_axis_tvalid.next = offering;
        uut.m_axis_tready.next = ready;
        offering &= !accepted;
        uut.clk.next = false.into();
        settle(&mut uut);
        uut.clk.next = true.into();
        settle(&mut uut);
        cycles += 1;
        idle += 1;
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
    ($name:ident, $n:literal, $ti:literal, $tb:literal, $to:literal, $tu:literal) => {
        #[test]
        fn $name() {
            for profile in Profile::ALL {
                for seed in 0..6u64 {
                    let mut rng = StdRng::seed_from_u64(seed);
                    let hole = [0.0, 0.2, 0.6][seed as usize % 3];
                    let last = [0.05, 0.3][seed as usize % 2];
                    let beats = random_beats::<$n>(&mut rng, 400, hole, last);
                    let stall = if seed < 2 { 0.0 } else { 0.3 };
                    let run = run::<$n, $ti, $tb, $to, $tu>(profile, &beats, seed, stall, stall);
                    check(profile, &beats, &run.out);
                }
            }
        }
    };
}

random_test!(random_beats_x2, 2, 16, 18, 64, 8);
random_test!(random_beats_x4, 4, 32, 36, 128, 16);
random_test!(random_beats_x8, 8, 64, 72, 256, 32);

macro_rules! short_test {
    ($name:ident, $n:literal, $ti:literal, $tb:literal, $to:literal, $tu:literal) => {
        #[test]
        fn $name() {
            let beats = short_messages($n);
            for profile in Profile::ALL {
                let run = run::<$n, $ti, $tb, $to, $tu>(profile, &beats, 1, 0.0, 0.0);
                check(profile, &beats, &run.out);
                assert!(run.always_ready);
            }
        }
    };
}

short_test!(every_short_message_x2, 2, 16, 18, 64, 8);
short_test!(every_short_message_x4, 4, 32, 36, 128, 16);
short_test!(every_short_message_x8, 8, 64, 72, 256, 32);

/// With beats on every cycle and `m_axis_tready` high, a stream of B beats
/// leaves in B + LATENCY cycles, `s_axis_tready` never falls, and each output
/// beat comes LATENCY cycles after its input beat, even where a beat breaks a
/// sequence and completes N + 1 units.
macro_rules! throughput_test {
    ($name:ident, $n:literal, $ti:literal, $tb:literal, $to:literal, $tu:literal) => {
        #[test]
        fn $name() {
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
                    let run = run::<$n, $ti, $tb, $to, $tu>(profile, &beats, 0, 0.0, 0.0);
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

throughput_test!(full_rate_x2, 2, 16, 18, 64, 8);
throughput_test!(full_rate_x4, 4, 32, 36, 128, 16);
throughput_test!(full_rate_x8, 8, 64, 72, 256, 32);
