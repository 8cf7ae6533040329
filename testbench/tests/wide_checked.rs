//! The wide decoders through the one checker, as `utf8hdl sim --lanes N`
//! runs them (`run_checked`): bytes biased toward leads and continuing
//! octets, random null lanes, messages that end mid-beat and empty ones,
//! and backpressure on both sides, for N = 2, 4 and 8 in both profiles.
//! Every word is checked against the reference decoder, every `tlast`
//! against the message ends, and every cycle against the AXI4-Stream rules.
//! Short streams on rust-hdl's engine (it simulates a wide core slowly);
//! long ones on the Verilator engine, when its tools are there.

use std::convert::Infallible;

use utf8hdl_hdl::utf8_decoder_wide::Utf8DecoderX4;
use utf8hdl_hdl::Profile;
use utf8hdl_sim::checker::{run_checked, Failure, Stimulus, SummaryOf};
use utf8hdl_sim::core::Core;
use utf8hdl_sim::cores::utf8_decoder::{Reference, WideDecoder, Word};
use utf8hdl_sim::harness::{Engine, Harness};
use utf8hdl_synth::tools;
use utf8hdl_synth::verilator::TOOLS;
use utf8hdl_testbench::{random_bytes, verilated, wide_stimuli};

fn checked<E: Engine<Core: Core<Input = u8>>>(
    harness: Harness<E>,
    input: &[u8],
    stimulus: &Stimulus,
) -> SummaryOf<E::Core> {
    let Ok(summary) = run_checked(
        harness,
        input.iter().copied(),
        stimulus,
        |_| Ok::<(), Infallible>(()),
        &mut |_, _| {},
    );
    summary
}

/// Runs `input` through `core` on `engine` under every stimulus, and
/// checks the run agreed and saw what it should.
fn agree<C: Core<Input = u8> + Copy, E: Engine<Core = C>>(
    core: C,
    engine: impl Fn() -> E,
    input: &[u8],
) {
    for (i, stimulus) in wide_stimuli(0x3D + input.len() as u64).iter().enumerate() {
        let summary = checked(Harness::on(engine()), input, stimulus);
        let name = core.name();
        assert!(
            summary.agree(),
            "{name}, stimulus {i} {stimulus:?}: {}",
            summary.mismatch.unwrap()
        );
        assert_eq!(
            summary.inputs,
            input.len() as u64,
            "{name}: every byte went in"
        );
        assert!(
            summary.errors() > 0 && summary.units > summary.inputs / 4,
            "{name}: {summary:?}"
        );
        if i == 0 {
            // Full beats at full rate: N bytes a cycle but for the latency
            // (and the cycle of the last handshake).
            let lanes = core.lanes().unwrap().count as f64;
            let beats = (input.len() as f64 / lanes).ceil();
            assert!(
                summary.inputs_per_cycle()
                    >= input.len() as f64 / (beats + C::LATENCY as f64 + 2.0),
                "{name}: {summary:?}"
            );
        }
    }
}

#[test]
fn two_lanes_agree_with_the_reference() {
    for profile in Profile::ALL {
        let core = WideDecoder::<2>(profile);
        agree(core, || Harness::new(core).engine, &random_bytes(2, 600));
    }
}

#[test]
fn four_lanes_agree_with_the_reference() {
    for profile in Profile::ALL {
        let core = WideDecoder::<4>(profile);
        agree(core, || Harness::new(core).engine, &random_bytes(4, 800));
    }
}

#[test]
#[ignore = "slow: the 8-lane decoder in rust-hdl's simulator"]
fn eight_lanes_agree_with_the_reference() {
    for profile in Profile::ALL {
        let core = WideDecoder::<8>(profile);
        agree(core, || Harness::new(core).engine, &random_bytes(8, 1000));
    }
}

/// Long streams, on the Verilator engine.
#[test]
#[ignore = "slow: Verilator models of the 2-, 4- and 8-lane decoders, long streams"]
fn long_streams_agree_on_verilator() {
    if !tools::require_all(&TOOLS) {
        return;
    }
    fn long<C: Core<Input = u8> + Copy>(core: C) {
        agree(core, || verilated(core), &random_bytes(0x10, 200_000));
    }
    for profile in Profile::ALL {
        long(WideDecoder::<2>(profile));
        long(WideDecoder::<4>(profile));
        long(WideDecoder::<8>(profile));
    }
}

/// The checker bites on a wide core: the 4-lane iso10646 design described
/// as rfc3629's differs at the first 5-octet form (one character against
/// five U+FFFD), which it reports with its byte offset.
#[test]
fn a_wide_core_that_disagrees_is_caught() {
    #[derive(Copy, Clone)]
    struct Mislabelled;
    impl Core for Mislabelled {
        const KIND: utf8hdl_sim::cores::Kind = utf8hdl_sim::cores::Kind::Decoder;
        type Block = Utf8DecoderX4;
        type Input = u8;
        type Output = Word;
        type Model = Reference;
        const STATE: &'static [&'static str] = &[];
        const LATENCY: u64 = WideDecoder::<4>::LATENCY;
        const ERROR_KINDS: &'static [utf8hdl_sim::reference::ErrorKind] =
            WideDecoder::<4>::ERROR_KINDS;
        fn name(&self) -> String {
            "mislabelled_x4".into()
        }
        fn profile(&self) -> Profile {
            Profile::Rfc3629
        }
        fn model(&self) -> Reference {
            Reference(Profile::Rfc3629)
        }
        fn block(&self) -> Utf8DecoderX4 {
            WideDecoder::<4>(Profile::Iso10646).block()
        }
        utf8hdl_sim::axis_io!(Utf8DecoderX4; m_tuser tkeep);
    }
    let input = b"ABCDEFG\xF8\x88\x80\x80\x80 and more";
    // Null lanes and stalls, but no message ending at random: one may
    // split the 5-byte sequence, and then the profiles differ elsewhere.
    let stimulus = Stimulus {
        message_end: 0.0,
        ..wide_stimuli(1)[1]
    };
    let summary = checked(Harness::new(Mislabelled), input, &stimulus);
    let mismatch = summary.mismatch.expect("the profiles differ");
    let Failure::Word { expected, actual } = &mismatch.failure else {
        panic!("{mismatch}");
    };
    assert_eq!(actual.map(|w| w.tdata), Some(0x20_0000));
    assert_eq!(
        expected.as_ref().map(|u| (u.value, u.span.start)),
        Some((0xFFFD, 7))
    );
}

/// Every 1-byte and 2-byte message at every starting lane, with and
/// without a null lane between its bytes (the lanes before its first byte
/// are null, and so are those after its last), one message after another,
/// in both profiles, on the Verilator engine: 4 × 65,536 × N + 256 × N
/// messages for N = 2, 4 and 8, with `m_axis_tready` high and
/// `s_axis_tready` high on every cycle. (Without the tools, `wide_decoder.rs`
/// runs every pair at one starting lane on rust-hdl's engine, at 2 lanes.)
#[test]
#[ignore = "slow: Verilator models of the 2-, 4- and 8-lane decoders, every short message at every lane"]
fn every_short_message_at_every_lane_on_verilator() {
    use utf8hdl_sim::core::Beat;
    if !tools::require_all(&TOOLS) {
        return;
    }
    fn run<C: Core<Input = u8, Output = Word> + Copy>(core: C, n: usize) {
        let mut harness = Harness::on(verilated(core));
        harness.reset(2);
        let mut sent: Vec<Vec<u8>> = Vec::new();
        let mut words: Vec<Word> = Vec::new();
        let mut got: Vec<Vec<Word>> = Vec::new();
        let mut collect = |cycle: &utf8hdl_sim::harness::Cycle<Word>| {
            if let Some(beat) = cycle.delivered() {
                words.extend(beat.items());
                if beat.tlast {
                    got.push(std::mem::take(&mut words));
                }
            }
        };
        let mut send = |harness: &mut Harness<_>, bytes: &[u8], start: usize, gap: bool| {
            let mut lanes = vec![None; start];
            for (i, &b) in bytes.iter().enumerate() {
                if i > 0 && gap {
                    lanes.push(None);
                }
                lanes.push(Some(b));
            }
            lanes.resize(lanes.len().div_ceil(n) * n, None);
            let beats = lanes.len() / n;
            for (i, chunk) in lanes.chunks(n).enumerate() {
                let beat = Beat::new(chunk, i + 1 == beats);
                let cycle = harness.cycle(Some(beat), true);
                collect(cycle);
                assert!(cycle.accepted, "s_axis_tready low ({})", core.name());
            }
            sent.push(bytes.to_vec());
        };
        for b in 0..=255u8 {
            for start in 0..n {
                send(&mut harness, &[b], start, false);
            }
        }
        for pair in 0..=u16::MAX {
            for start in 0..n {
                for gap in [false, true] {
                    send(&mut harness, &pair.to_be_bytes(), start, gap);
                }
            }
        }
        // The last message's units leave LATENCY cycles after its last
        // beat.
        for _ in 0..=C::LATENCY {
            let cycle = harness.cycle(None, true);
            collect(cycle);
        }
        assert_eq!(got.len(), sent.len(), "one tlast per message");
        for (bytes, words) in sent.iter().zip(&got) {
            let want: Vec<Word> = utf8hdl_sim::reference::decode(bytes, core.profile())
                .iter()
                .map(Word::of_unit)
                .collect();
            assert_eq!(words, &want, "{bytes:02X?} ({})", core.name());
        }
    }
    for profile in Profile::ALL {
        run(WideDecoder::<2>(profile), 2);
        run(WideDecoder::<4>(profile), 4);
        run(WideDecoder::<8>(profile), 8);
    }
}
