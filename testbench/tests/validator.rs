//! The validator's RTL against the reference validator, through the one
//! checker (every kept lane's byte and mark, in order, with stalls on both
//! sides, null lanes and message ends anywhere), and beat by beat against
//! its input: the same beats out, `tdata`, `tkeep` and `tlast` unchanged,
//! less the null beats without `tlast`.
//!
//! The marks are also compared with CPython's: the start of every span that
//! `bytes.decode('utf-8', errors=handler)` hands its error handler. That
//! check needs `python3` and is skipped (with a message) without it,
//! unless `UTF8HDL_REQUIRE_TOOLS=1`.

use std::convert::Infallible;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use utf8hdl_hdl::Profile;
use utf8hdl_sim::checker::{run_checked, Stimulus};
use utf8hdl_sim::core::{Beat, Core, Inputs};
use utf8hdl_sim::cores::utf8_validator::{Marked, Validator};
use utf8hdl_sim::harness::Harness;
use utf8hdl_sim::reference::validate;
use utf8hdl_synth::tools;
use utf8hdl_testbench::{random_bytes, random_message, wide_stimuli};

/// Kuhn's UTF-8 decoder capability and stress test (testbench/data).
const KUHN: &[u8] = include_bytes!("../data/UTF-8-test.txt");

/// `core` on `input` under every stimulus agrees with the reference.
fn agrees<C: Core<Input = u8, Output = Marked> + Copy>(core: C, input: &[u8]) {
    agrees_under(core, input, &wide_stimuli(0x5A + input.len() as u64));
}

/// `core` on `input` under each of `stimuli` agrees with the reference.
fn agrees_under<C: Core<Input = u8, Output = Marked> + Copy>(
    core: C,
    input: &[u8],
    stimuli: &[Stimulus],
) {
    for (i, stimulus) in stimuli.iter().enumerate() {
        let name = core.name();
        let Ok(summary) = run_checked(
            Harness::new(core),
            input.iter().copied(),
            stimulus,
            |_| Ok::<(), Infallible>(()),
            &mut |_, _| {},
        );
        assert!(
            summary.agree(),
            "{name}, stimulus {i} {stimulus:?}: {}",
            summary
                .mismatch
                .map_or("no mismatch".into(), |m| m.to_string())
        );
    }
}

#[test]
fn x4_agrees_with_the_reference_on_kuhns_stress_test() {
    let [_, stalled, _] = wide_stimuli(0x5A);
    for profile in Profile::ALL {
        agrees_under(Validator::<4>(profile), KUHN, &[stalled]);
    }
}

#[test]
fn x1_x2_and_x4_agree_with_the_reference_on_random_bytes() {
    for profile in Profile::ALL {
        agrees(Validator::<1>(profile), &random_bytes(1, 2000));
        agrees(Validator::<2>(profile), &random_bytes(2, 2000));
        agrees(Validator::<4>(profile), &random_bytes(4, 2000));
    }
}

#[test]
#[ignore = "slow: the 1-, 2- and 4-lane validators under the checker, on the corpus and more random bytes"]
fn x1_x2_and_x4_agree_with_the_reference_on_the_corpus() {
    for profile in Profile::ALL {
        agrees(Validator::<1>(profile), KUHN);
        agrees(Validator::<2>(profile), KUHN);
        agrees(Validator::<4>(profile), &random_bytes(40, 8000));
    }
}

#[test]
#[ignore = "slow: the 8- and 16-lane validators under the checker, on the corpus and random bytes"]
fn x8_and_x16_agree_with_the_reference() {
    for profile in Profile::ALL {
        agrees(Validator::<8>(profile), KUHN);
        agrees(Validator::<16>(profile), &random_bytes(16, 4000));
    }
}

#[test]
#[ignore = "slow: the 32-lane validator under the checker, on random bytes"]
fn x32_agrees_with_the_reference() {
    for profile in Profile::ALL {
        agrees(Validator::<32>(profile), &random_bytes(32, 4000));
    }
}

/// One beat offered: its lanes (`None` null) and `tlast`.
type Offered = (Vec<Option<u8>>, bool);

/// How often a beat is offered, and `m_axis_tready` high: random stalls
/// on both sides.
const STALLS: (f64, f64) = (0.7, 0.6);

/// Runs the beats through `core`, each offered on a cycle with
/// probability `rates.0` and `m_axis_tready` high with `rates.1`; the
/// beats that leave, in order.
fn beats_out<C: Core<Input = u8, Output = Marked>>(
    core: C,
    beats: &[Offered],
    seed: u64,
    rates: (f64, f64),
) -> Vec<Beat<Marked>> {
    let mut harness = Harness::new(core);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut next = 0;
    let mut idle = 0;
    let reset = Inputs {
        rst: true,
        s_axis: None,
        m_axis_tready: false,
    };
    harness.step(&reset, &mut |_, _| {});
    // A core that stops taking beats fails the caller's count of beats
    // out instead of running forever.
    let limit = 40 * beats.len() as u64 + 1000;
    while idle < 200 && harness.cycles < limit {
        let offer = (next < beats.len() && rng.gen_bool(rates.0)).then(|| {
            let (lanes, tlast) = &beats[next];
            let lanes: Vec<Option<u8>> = lanes.clone();
            Beat::new(&lanes, *tlast)
        });
        let inputs = Inputs {
            rst: false,
            s_axis: offer,
            m_axis_tready: rng.gen_bool(rates.1),
        };
        let cycle = harness.step(&inputs, &mut |_, _| {});
        if cycle.accepted {
            next += 1;
        }
        if let (true, Some(beat)) = (inputs.m_axis_tready, cycle.m_axis()) {
            out.push(*beat);
            idle = 0;
        } else if next == beats.len() {
            idle += 1;
        }
    }
    out
}

/// Random beats of `lanes` lanes: bytes of random messages, null lanes
/// anywhere, null beats with and without `tlast`.
fn random_beats(lanes: usize, seed: u64, count: usize) -> Vec<Offered> {
    let mut rng = StdRng::seed_from_u64(seed);
    let source = random_bytes(seed, count * lanes);
    let mut at = 0;
    (0..count)
        .map(|_| {
            let lanes = (0..lanes)
                .map(|_| match rng.gen_bool(0.25) {
                    true => None,
                    false => {
                        at += 1;
                        Some(source[at - 1])
                    }
                })
                .collect();
            (lanes, rng.gen_bool(0.08))
        })
        .collect()
}

/// Random beats leave as they came ([`passes_on`]).
fn passes_beats_on<C: Core<Input = u8, Output = Marked> + Copy>(core: C, lanes: usize, seed: u64) {
    let mut beats = random_beats(lanes, seed, 400);
    beats.last_mut().unwrap().1 = true;
    passes_on(core, &beats, seed, STALLS);
}

/// `beats` (the last with `tlast`) leave `core` as they came, less the
/// null beats without `tlast`, and each message's marks are the reference
/// validator's errors.
fn passes_on<C: Core<Input = u8, Output = Marked> + Copy>(
    core: C,
    beats: &[Offered],
    seed: u64,
    rates: (f64, f64),
) {
    let out = beats_out(core, beats, seed, rates);
    let kept: Vec<&Offered> = beats
        .iter()
        .filter(|(lanes, tlast)| *tlast || lanes.iter().any(Option::is_some))
        .collect();
    assert_eq!(out.len(), kept.len(), "{}: beats out", core.name());
    let mut message = Vec::new();
    let mut marks = Vec::new();
    for (i, (beat, (lanes_in, tlast))) in out.iter().zip(&kept).enumerate() {
        let offered = Beat::<u8>::new(lanes_in, *tlast);
        assert_eq!(
            beat.tkeep,
            offered.tkeep,
            "{}: beat {i}'s tkeep",
            core.name()
        );
        assert_eq!(
            beat.tlast,
            offered.tlast,
            "{}: beat {i}'s tlast",
            core.name()
        );
        for (lane, byte) in lanes_in.iter().enumerate() {
            if let Some(byte) = *byte {
                assert_eq!(
                    beat.lanes[lane].tdata,
                    byte,
                    "{}: beat {i} lane {lane}",
                    core.name()
                );
                message.push(byte);
                marks.push(beat.lanes[lane].tuser);
            }
        }
        if *tlast {
            let expected: Vec<(usize, u8)> = validate(&message, core.profile())
                .into_iter()
                .map(|m| (m.offset, m.kind.tuser()))
                .collect();
            let found: Vec<(usize, u8)> = marks
                .iter()
                .enumerate()
                .filter(|(_, &t)| t != 0)
                .map(|(offset, &t)| (offset, t))
                .collect();
            assert_eq!(
                found,
                expected,
                "{}: the marks of {message:02X?}",
                core.name()
            );
            message.clear();
            marks.clear();
        }
    }
}

#[test]
fn the_beats_leave_as_they_came_with_the_references_marks() {
    for profile in Profile::ALL {
        passes_beats_on(Validator::<1>(profile), 1, 11);
        passes_beats_on(Validator::<2>(profile), 2, 21);
        passes_beats_on(Validator::<4>(profile), 4, 41);
    }
}

/// Beats of one byte, in the top lane, each of the profile's longest
/// sequences in as many beats as it has octets, back to back: whole, cut
/// short by `tlast`, and broken by an ASCII byte. At full rate they put a
/// beat in every place of the hold at once (it has a place per octet of
/// the longest sequence).
fn longest_sequences_a_byte_a_beat(lanes: usize, profile: Profile) -> Vec<Offered> {
    let mut longest = vec![profile.last_lead(), *profile.second_after_f4().end()];
    longest.resize(profile.longest_sequence(), 0xBF);
    let cut = &longest[..longest.len() - 1];
    let messages = [
        [&longest[..], &longest, &longest, cut].concat(),
        [&longest[..], cut, b"A", &longest, &longest].concat(),
        cut.to_vec(),
    ];
    let beat = |byte: u8, tlast: bool| {
        let mut beat = vec![None; lanes];
        beat[lanes - 1] = Some(byte);
        (beat, tlast)
    };
    messages
        .iter()
        .flat_map(|m| (0..m.len()).map(move |i| beat(m[i], i + 1 == m.len())))
        .collect()
}

#[test]
fn the_longest_sequences_a_byte_a_beat_fill_the_hold() {
    for profile in Profile::ALL {
        let beats = [1, 2, 4].map(|lanes| longest_sequences_a_byte_a_beat(lanes, profile));
        for (seed, rates) in [(1, (1.0, 1.0)), (2, STALLS), (3, (1.0, 0.9))] {
            passes_on(Validator::<1>(profile), &beats[0], seed, rates);
            passes_on(Validator::<2>(profile), &beats[1], seed, rates);
            passes_on(Validator::<4>(profile), &beats[2], seed, rates);
        }
    }
}

#[test]
#[ignore = "slow: x8 to x32 beat by beat"]
fn wide_beats_leave_as_they_came_with_the_references_marks() {
    for profile in Profile::ALL {
        passes_beats_on(Validator::<8>(profile), 8, 81);
        passes_beats_on(Validator::<16>(profile), 16, 161);
        passes_beats_on(Validator::<32>(profile), 32, 321);
    }
}

/// The start offset of every span CPython's UTF-8 decoder replaces, for
/// each message of `messages`, or `None` when python3 is missing and not
/// required.
fn cpython_error_starts(messages: &[Vec<u8>]) -> Option<Vec<Vec<usize>>> {
    let script = "
import codecs, sys
starts = []
def record(e):
    starts.append(e.start)
    return ('\\ufffd', e.end)
codecs.register_error('record', record)
for line in sys.stdin.buffer.read().split(b'\\n'):
    if not line:
        continue
    starts.clear()
    bytes.fromhex(line.decode()).decode('utf-8', 'record')
    print(' '.join(map(str, starts)))
";
    let mut input = String::new();
    for message in messages {
        input.extend(message.iter().map(|b| format!("{b:02x}")));
        input.push('\n');
    }
    let output = tools::python3(script, input.as_bytes()).unwrap()?;
    Some(
        String::from_utf8(output)
            .unwrap()
            .lines()
            .map(|line| {
                line.split_whitespace()
                    .map(|n| n.parse().unwrap())
                    .collect()
            })
            .collect(),
    )
}

/// The RTL's marks are where CPython starts each U+FFFD, on Kuhn's stress
/// test line by line and on random messages (rfc3629: CPython's UTF-8 is
/// RFC 3629's).
#[test]
fn the_marks_are_where_cpython_replaces() {
    let corpus = KUHN;
    let mut messages: Vec<Vec<u8>> = corpus.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
    let mut rng = StdRng::seed_from_u64(7);
    messages.extend((0..200).map(|_| random_message(&mut rng, 40)));
    messages.retain(|m| !m.is_empty());
    let Some(cpython) = cpython_error_starts(&messages) else {
        return;
    };
    // One run, one message per line: the RTL's marks, message by message.
    let beats: Vec<Offered> = messages
        .iter()
        .flat_map(|m| {
            let chunks: Vec<Vec<u8>> = m.chunks(4).map(<[u8]>::to_vec).collect();
            let count = chunks.len();
            chunks
                .into_iter()
                .enumerate()
                .map(move |(i, c)| (c.into_iter().map(Some).collect(), i + 1 == count))
        })
        .collect();
    let out = beats_out(Validator::<4>(Profile::Rfc3629), &beats, 3, STALLS);
    let mut starts = Vec::new();
    let mut offset = 0;
    let mut message = 0;
    for beat in &out {
        for lane in beat.items() {
            if lane.tuser != 0 {
                starts.push(offset);
            }
            offset += 1;
        }
        if beat.tlast {
            assert_eq!(starts, cpython[message], "{:02X?}", messages[message]);
            starts.clear();
            offset = 0;
            message += 1;
        }
    }
    assert_eq!(message, messages.len());
}

/// The cycles from a beat's acceptance to its leaving on `m_axis`, in a
/// validator just reset, with `m_axis_tready` high: a beat of ASCII with
/// `tlast` (no first octet open at its end, none waiting before it).
fn latency_of<C: Core<Input = u8, Output = Marked>>(core: C, lanes: usize) -> u64 {
    let name = core.name();
    let mut harness = Harness::new(core);
    harness.step(
        &Inputs {
            rst: true,
            s_axis: None,
            m_axis_tready: false,
        },
        &mut |_, _| {},
    );
    let ascii: Vec<Option<u8>> = vec![Some(b'A'); lanes];
    let mut accepted_at = None;
    for cycle in 0..64 {
        let inputs = Inputs {
            rst: false,
            s_axis: accepted_at.is_none().then(|| Beat::new(&ascii, true)),
            m_axis_tready: true,
        };
        let step = harness.step(&inputs, &mut |_, _| {});
        if step.accepted {
            accepted_at = Some(cycle);
        }
        if step.m_axis().is_some() {
            return cycle - accepted_at.expect("a beat out before one came in");
        }
    }
    panic!("{name}: no beat out in 64 cycles");
}

/// The datasheet's latency is the one measured, counted as the 1-lane
/// decoder's is: the cycles from the acceptance to the beat on `m_axis`.
#[test]
fn the_latency_is_the_datasheets() {
    for profile in Profile::ALL {
        let measured = [
            (
                1,
                latency_of(Validator::<1>(profile), 1),
                Validator::<1>::LATENCY,
            ),
            (
                2,
                latency_of(Validator::<2>(profile), 2),
                Validator::<2>::LATENCY,
            ),
            (
                4,
                latency_of(Validator::<4>(profile), 4),
                Validator::<4>::LATENCY,
            ),
        ];
        for (lanes, measured, stated) in measured {
            assert_eq!(
                measured, stated,
                "x{lanes} {profile:?}: measured against stated"
            );
        }
    }
}
