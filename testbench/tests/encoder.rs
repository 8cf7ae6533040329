//! The UTF-8 encoder's RTL, run by the one checker against the reference
//! encoder, and its octets against independent sources: Rust's own UTF-8
//! (`char::encode_utf8`, `String::from_utf8_lossy`) and the RTL decoder,
//! in round trips both ways.

use std::convert::Infallible;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use utf8hdl_hdl::{ErrorKind, Profile};
use utf8hdl_sim::checker::{run_checked, Stalls, Stimulus};
use utf8hdl_sim::core::Core;
use utf8hdl_sim::cores::utf8_decoder::Decoder;
use utf8hdl_sim::cores::utf8_encoder::{Encoder, Octet};
use utf8hdl_sim::harness::{Engine, Harness};
use utf8hdl_synth::tools;
use utf8hdl_synth::verilator;
use utf8hdl_testbench::{random_message, run, run_on, verilated, FULL_RATE};

fn octets(outputs: &[Octet]) -> Vec<u8> {
    outputs.iter().map(|o| o.tdata).collect()
}

/// `chars`, in one message at full rate, leave the encoder on `encoder` as
/// Rust's UTF-8 of the same characters, one octet a clock; and the decoder
/// on `decoder` turns those octets back into the same words (a round trip
/// in the RTL).
fn leave_as_rust_encodes_them_and_decode_back<E, D>(
    encoder: Harness<E>,
    decoder: Harness<D>,
    chars: &str,
) where
    E: Engine<Core = Encoder>,
    D: Engine<Core = Decoder>,
{
    let words: Vec<u32> = chars.chars().map(u32::from).collect();
    let (summary, outputs) = run_on(encoder, &words, &FULL_RATE);
    assert_eq!(octets(&outputs), chars.as_bytes());
    assert!(outputs.iter().all(|o| !o.error));
    // One octet a clock from the first word in: the latency, then no gap.
    assert_eq!(
        summary.cycles,
        chars.len() as u64 + Encoder::LATENCY,
        "not one octet per clock"
    );
    let (_, decoded) = run_on(decoder, chars.as_bytes(), &FULL_RATE);
    let values: Vec<u32> = decoded.iter().map(|w| w.tdata).collect();
    assert_eq!(values, words);
    assert!(decoded.iter().all(|w| w.tuser == 0));
}

/// The scalar values on both sides of every edge of RFC 3629 §3's table
/// (each length's first and last value, the surrogates' neighbours, the
/// last plane's end) and one in 97 of all others, on rust-hdl's engine:
/// the fast tier's share of the exhaustive round trip below.
#[test]
fn scalar_values_at_every_edge_leave_as_rust_encodes_them_and_decode_back() {
    const EDGES: [u32; 7] = [0, 0x80, 0x800, 0xD800, 0xE000, 0x1_0000, 0x10_FFFF];
    let near_an_edge = |c: u32| EDGES.iter().any(|&edge| c.abs_diff(edge) <= 64);
    let chars: String = (0..=0x10_FFFF)
        .filter(|&c| near_an_edge(c) || c % 97 == 0)
        .filter_map(char::from_u32)
        .collect();
    leave_as_rust_encodes_them_and_decode_back(
        Harness::new(Encoder(Profile::Rfc3629)),
        Harness::new(Decoder(Profile::Rfc3629)),
        &chars,
    );
}

/// Every Unicode scalar value round trips as above: 4.3 million cycles
/// through each core, on their Verilator models when the tools are there
/// (the encoder's model is shown to match rust-hdl's simulation cycle for
/// cycle in `cosim.rs`, the decoder's in `engines.rs`), and on rust-hdl's
/// engine, some minutes, when they are not.
#[test]
#[ignore = "slow: 4.3 million cycles through each of two 1-lane cores"]
fn every_scalar_value_leaves_as_rust_encodes_it_and_decodes_back() {
    let chars: String = (0..=0x10_FFFF).filter_map(char::from_u32).collect();
    let (encoder, decoder) = (Encoder(Profile::Rfc3629), Decoder(Profile::Rfc3629));
    if tools::require_all(&verilator::TOOLS) {
        leave_as_rust_encodes_them_and_decode_back(
            Harness::on(verilated(encoder)),
            Harness::on(verilated(decoder)),
            &chars,
        );
    } else {
        eprintln!("running on rust-hdl's engine instead: some minutes");
        leave_as_rust_encodes_them_and_decode_back(
            Harness::new(encoder),
            Harness::new(decoder),
            &chars,
        );
    }
}

/// What Rust says a word becomes: its UTF-8, or U+FFFD's, flagged.
fn expected(word: u32) -> (Vec<u8>, bool) {
    match char::from_u32(word) {
        Some(c) => (c.to_string().into_bytes(), false),
        None => ("\u{FFFD}".as_bytes().to_vec(), true),
    }
}

/// Words RFC 3629 cannot encode (surrogates, values past U+10FFFF) among
/// characters, under every pair of stall patterns and messages ending at
/// random: each leaves as EF BF BD with `tuser` set on all three octets,
/// and only those octets are flagged.
#[test]
fn unencodable_words_become_flagged_replacements_under_every_stall_pattern() {
    let mut rng = StdRng::seed_from_u64(0x20AC);
    let words: Vec<u32> = (0..3000)
        .map(|_| match rng.gen_range(0..6) {
            0 => rng.gen_range(0xD800..=0xDFFF),
            1 => rng.gen_range(0x11_0000..=u32::MAX),
            2 => rng.gen_range(0..0x80),
            3 => rng.gen_range(0x80..0x800),
            4 => rng.gen_range(0x800..0x1_0000),
            _ => rng.gen_range(0x1_0000..=0x10_FFFF),
        })
        .collect();
    let mut flagged = Vec::new();
    let mut bytes = Vec::new();
    for &word in &words {
        let (octets, error) = expected(word);
        flagged.extend(octets.iter().map(|_| error));
        bytes.extend(octets);
    }
    for source in Stalls::ALL {
        for sink in Stalls::ALL {
            let stimulus = Stimulus {
                message_end: 0.05,
                ..Stimulus::stalls(source, sink, 7)
            };
            let (summary, outputs) = run(Encoder(Profile::Rfc3629), &words, &stimulus);
            let what = format!("source {source:?}, sink {sink:?}");
            assert_eq!(octets(&outputs), bytes, "{what}");
            let errors: Vec<bool> = outputs.iter().map(|o| o.error).collect();
            assert_eq!(errors, flagged, "{what}");
            let surrogates = words.iter().filter(|w| (0xD800..=0xDFFF).contains(*w));
            assert_eq!(
                summary.errors_by_code[ErrorKind::Surrogate.code() as usize],
                surrogates.count() as u64,
                "{what}"
            );
        }
    }
}

/// iso10646: every length boundary of Annex R Table 4 (and the last value
/// of bit 31 clear), with random words of every length, round trip through
/// the iso10646 encoder and decoder, both in the RTL; words with bit 31
/// set become flagged U+FFFD.
#[test]
fn iso10646_words_of_every_length_round_trip() {
    let mut words = Vec::new();
    for bits in [7, 11, 16, 21, 26, 31] {
        let edge = 1u32 << bits;
        words.extend([edge - 2, edge - 1, edge, edge + 1]);
    }
    let mut rng = StdRng::seed_from_u64(26);
    words.extend((0..2000).map(|_| rng.gen::<u32>() >> rng.gen_range(0..32)));
    let stimulus = Stimulus::stalls(Stalls::Random(0.3), Stalls::Bursty, 3);
    let (summary, outputs) = run(Encoder(Profile::Iso10646), &words, &stimulus);
    let bad = |w: &u32| *w > 0x7FFF_FFFF || (0xD800..=0xDFFF).contains(w);
    assert_eq!(
        summary.errors(),
        words.iter().filter(|w| bad(w)).count() as u64
    );
    assert!(octets(&outputs).contains(&0xFD), "six-octet forms were met");
    let (_, decoded) = run(Decoder(Profile::Iso10646), &octets(&outputs), &stimulus);
    let values: Vec<u32> = decoded.iter().map(|w| w.tdata).collect();
    let expected: Vec<u32> = words
        .iter()
        .map(|w| if bad(w) { 0xFFFD } else { *w })
        .collect();
    assert_eq!(values, expected);
}

/// Decoder then encoder, both in the RTL, on random bytes: the UTF-8 of
/// `String::from_utf8_lossy` (one U+FFFD per maximal subpart, as the
/// decoder sends them).
#[test]
fn decoder_then_encoder_is_from_utf8_lossy() {
    let mut rng = StdRng::seed_from_u64(0xFFFD);
    let bytes: Vec<u8> = (0..200)
        .flat_map(|_| random_message(&mut rng, 40))
        .collect();
    let stimulus = Stimulus::stalls(Stalls::Random(0.2), Stalls::Random(0.2), 5);
    let (_, decoded) = run(Decoder(Profile::Rfc3629), &bytes, &stimulus);
    let words: Vec<u32> = decoded.iter().map(|w| w.tdata).collect();
    let (_, encoded) = run(Encoder(Profile::Rfc3629), &words, &stimulus);
    assert_eq!(octets(&encoded), String::from_utf8_lossy(&bytes).as_bytes());
}

/// The checker catches an encoder that is not what it claims: the
/// iso10646 block described as rfc3629's encodes U+110000 as F4 90 80 80
/// where EF BF BD is due, and the report names the word.
#[test]
fn an_encoder_that_disagrees_is_caught() {
    #[derive(Copy, Clone)]
    struct Mislabelled;
    impl Core for Mislabelled {
        const KIND: utf8hdl_sim::cores::Kind = utf8hdl_sim::cores::Kind::Encoder;
        type Block = utf8hdl_hdl::Utf8Encoder;
        type Input = u32;
        type Output = Octet;
        type Model = utf8hdl_sim::cores::utf8_encoder::Reference;
        const STATE: &'static [&'static str] = &[];
        const LATENCY: u64 = Encoder::LATENCY;
        const ERROR_KINDS: &'static [utf8hdl_sim::reference::ErrorKind] = Encoder::ERROR_KINDS;
        const RATE: utf8hdl_sim::core::Rate = Encoder::RATE;
        fn name(&self) -> String {
            "mislabelled_encoder".into()
        }
        fn profile(&self) -> Profile {
            Profile::Rfc3629
        }
        fn model(&self) -> Self::Model {
            utf8hdl_sim::cores::utf8_encoder::Reference(Profile::Rfc3629)
        }
        fn block(&self) -> Self::Block {
            Encoder(Profile::Iso10646).block()
        }
        utf8hdl_sim::axis_io!(utf8hdl_hdl::Utf8Encoder; m_tuser);
    }
    let Ok(summary) = run_checked(
        Harness::new(Mislabelled),
        [0x41, 0x20AC, 0x11_0000, 0x42].into_iter(),
        &FULL_RATE,
        |_| Ok::<(), Infallible>(()),
        &mut |_, _| {},
    );
    let mismatch = summary.mismatch.expect("the profiles differ");
    assert!(
        mismatch.to_string().contains(
            "word offset 2: expected 00110000 as EF BF BD out_of_range, got tdata=F4 tuser=0"
        ),
        "{mismatch}"
    );
}

/// The datasheet's cycle diagram (`hdl/src/utf8_encoder.rs`), cycle for
/// cycle: 41, 20AC, 42, 43, 44 and 45 offered back to back, the sink
/// always ready.
#[test]
fn the_datasheet_cycle_diagram_is_what_the_rtl_does() {
    use utf8hdl_sim::core::Beat;
    let mut harness = Harness::new(Encoder(Profile::Rfc3629));
    let words = [0x41u32, 0x20AC, 0x42, 0x43, 0x44, 0x45];
    let mut next = 0;
    let (mut ready, mut octets) = (Vec::new(), Vec::new());
    for _ in 0..12 {
        let offered = words
            .get(next)
            .map(|&w| Beat::one(w, next + 1 == words.len()));
        let cycle = harness.cycle(offered, true);
        next += usize::from(cycle.accepted);
        ready.push(u8::from(cycle.s_axis_tready()));
        octets.push(cycle.delivered().map(|beat| beat.lanes[0].tdata));
    }
    assert_eq!(ready, [1, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1]);
    assert_eq!(
        octets,
        [
            None,
            None,
            None,
            None,
            Some(0x41),
            Some(0xE2),
            Some(0x82),
            Some(0xAC),
            Some(0x42),
            Some(0x43),
            Some(0x44),
            Some(0x45)
        ]
    );
}
