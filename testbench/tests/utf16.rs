//! The UTF-16 cores' RTL, run by the one checker against the reference
//! UTF-16 encoder and decoder, and their outputs against independent
//! sources: Rust's own UTF-16 (`char::encode_utf16`, `char::decode_utf16`),
//! CPython's codecs, and the other cores of the family in the RTL.
//!
//! The CPython checks need `python3` and are skipped (with a message)
//! without it, unless `UTF8HDL_REQUIRE_TOOLS=1`.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use utf8hdl_hdl::{ErrorKind, Profile};
use utf8hdl_sim::checker::{Stalls, Stimulus};
use utf8hdl_sim::core::{Beat, Core};
use utf8hdl_sim::cores::utf16_decoder;
use utf8hdl_sim::cores::utf16_encoder::{self, CodeUnit};
use utf8hdl_sim::cores::utf8_decoder::{Decoder, Word};
use utf8hdl_sim::harness::Harness;
use utf8hdl_sim::reference::REPLACEMENT;
use utf8hdl_synth::tools;
use utf8hdl_testbench::{random_message, run, FULL_RATE};

fn units(outputs: &[CodeUnit]) -> Vec<u16> {
    outputs.iter().map(|o| o.tdata).collect()
}

fn values(words: &[Word]) -> Vec<u32> {
    words.iter().map(|w| w.tdata).collect()
}

/// Big-endian bytes of code units, as CPython's `utf-16-be` reads them.
fn be_bytes(units: &[u16]) -> Vec<u8> {
    units.iter().flat_map(|u| u.to_be_bytes()).collect()
}

/// Fails with the first byte where the RTL's output and CPython's differ.
fn same(rtl: &[u8], cpython: &[u8]) {
    let at = rtl.iter().zip(cpython).position(|(a, b)| a != b);
    let at = at.unwrap_or(rtl.len().min(cpython.len()));
    let around = |bytes: &[u8]| {
        format!(
            "{:02X?}",
            &bytes[at.saturating_sub(8)..(at + 8).min(bytes.len())]
        )
    };
    assert!(
        rtl == cpython,
        "the RTL's {} bytes and CPython's {} differ at byte {at}: {} against {}",
        rtl.len(),
        cpython.len(),
        around(rtl),
        around(cpython)
    );
}

/// Stall patterns on both sides, and messages ending at random.
fn stalled(seed: u64) -> Stimulus {
    Stimulus {
        message_end: 0.03,
        ..Stimulus::stalls(Stalls::Random(0.3), Stalls::Bursty, seed)
    }
}

/// Every Unicode scalar value, in one message at full rate, leaves
/// `Utf16Encoder` as Rust's UTF-16 of the same characters, one code unit a
/// clock; and `Utf16Decoder` turns those units back into the same words.
#[test]
fn every_scalar_value_encodes_as_rust_does_and_decodes_back() {
    let chars: Vec<char> = (0..=0x10_FFFF).filter_map(char::from_u32).collect();
    let words: Vec<u32> = chars.iter().map(|&c| u32::from(c)).collect();
    let expected: Vec<u16> = chars
        .iter()
        .flat_map(|c| c.encode_utf16(&mut [0; 2]).to_vec())
        .collect();
    let (summary, outputs) = run(utf16_encoder::Encoder, &words, &FULL_RATE);
    assert_eq!(units(&outputs), expected);
    assert!(outputs.iter().all(|o| !o.error));
    assert_eq!(
        summary.cycles,
        expected.len() as u64 + utf16_encoder::Encoder::LATENCY,
        "not one code unit per clock"
    );
    let (summary, decoded) = run(utf16_decoder::Decoder, &expected, &FULL_RATE);
    assert_eq!(values(&decoded), words);
    assert!(decoded.iter().all(|w| w.tuser == 0));
    assert_eq!(
        summary.cycles,
        expected.len() as u64 + utf16_decoder::Decoder::LATENCY,
        "not one code unit per clock"
    );
}

/// Words UTF-16 cannot carry (surrogates, values above U+10FFFF) among
/// characters, under every pair of stall patterns: each leaves as one
/// flagged FFFD, and only those units are flagged.
#[test]
fn words_utf16_cannot_carry_become_flagged_replacements() {
    let mut rng = StdRng::seed_from_u64(0xD800);
    let words: Vec<u32> = (0..2000)
        .map(|_| match rng.gen_range(0..5) {
            0 => rng.gen_range(0xD800..=0xDFFF),
            1 => {
                let top = u32::MAX >> rng.gen_range(0..11);
                rng.gen_range(0x11_0000..=top)
            }
            2 => rng.gen_range(0..0x1_0000),
            _ => rng.gen_range(0x1_0000..=0x10_FFFF),
        })
        .collect();
    let (mut expected, mut flagged) = (Vec::new(), Vec::new());
    for &word in &words {
        let (code_units, error) = match char::from_u32(word) {
            Some(c) => (c.encode_utf16(&mut [0; 2]).to_vec(), false),
            None => (vec![0xFFFD], true),
        };
        flagged.extend(code_units.iter().map(|_| error));
        expected.extend(code_units);
    }
    for source in Stalls::ALL {
        for sink in Stalls::ALL {
            let stimulus = Stimulus {
                message_end: 0.05,
                ..Stimulus::stalls(source, sink, 11)
            };
            let (_, outputs) = run(utf16_encoder::Encoder, &words, &stimulus);
            let what = format!("source {source:?}, sink {sink:?}");
            assert_eq!(units(&outputs), expected, "{what}");
            let errors: Vec<bool> = outputs.iter().map(|o| o.error).collect();
            assert_eq!(errors, flagged, "{what}");
        }
    }
}

/// Random code units, surrogates half of them, under every pair of stall
/// patterns: `Utf16Decoder` sends what Rust's `char::decode_utf16` makes
/// of them, one U+FFFD per unpaired surrogate, each with the `Surrogate`
/// kind in `tuser`. Then the same units in messages that end at random,
/// where a high surrogate that ends a message is unpaired, against the
/// reference decoder.
#[test]
fn the_decoder_matches_rusts_decode_utf16_under_every_stall_pattern() {
    let mut rng = StdRng::seed_from_u64(0xDC00);
    let code_units: Vec<u16> = (0..3000)
        .map(|_| match rng.gen_range(0..4) {
            0 => rng.gen_range(0xD800..=0xDBFF),
            1 => rng.gen_range(0xDC00..=0xDFFF),
            _ => rng.gen(),
        })
        .collect();
    let expected: Vec<Word> = char::decode_utf16(code_units.iter().copied())
        .map(|r| match r {
            Ok(c) => Word {
                tdata: u32::from(c),
                tuser: 0,
            },
            Err(_) => Word {
                tdata: REPLACEMENT,
                tuser: ErrorKind::Surrogate.tuser(),
            },
        })
        .collect();
    for source in Stalls::ALL {
        for sink in Stalls::ALL {
            let stimulus = Stimulus::stalls(source, sink, 0x16);
            let (_, outputs) = run(utf16_decoder::Decoder, &code_units, &stimulus);
            assert_eq!(outputs, expected, "source {source:?}, sink {sink:?}");
        }
    }
    let (summary, _) = run(utf16_decoder::Decoder, &code_units, &stalled(7));
    assert!(summary.errors() > 0);
}

/// UTF-8 bytes of every kind of malformation through the RTL decoder and
/// then `Utf16Encoder`: CPython's `data.decode('utf-8', 'replace')
/// .encode('utf-16-be')`, with and without stalls.
#[test]
fn utf8_to_utf16_in_the_rtl_is_cpythons() {
    let mut rng = StdRng::seed_from_u64(0x2781);
    let bytes: Vec<u8> = (0..300)
        .flat_map(|_| random_message(&mut rng, 40))
        .chain("ok: é € 😀 𐍈".bytes())
        .collect();
    let Some(cpython) = tools::python3(
        "import sys; sys.stdout.buffer.write(sys.stdin.buffer.read()\
         .decode('utf-8', 'replace').encode('utf-16-be'))",
        &bytes,
    )
    .unwrap() else {
        return;
    };
    // One message: CPython's codecs see one string.
    for stimulus in [
        FULL_RATE,
        Stimulus::stalls(Stalls::Random(0.3), Stalls::Bursty, 3),
    ] {
        let (_, decoded) = run(Decoder(Profile::Rfc3629), &bytes, &stimulus);
        let (_, encoded) = run(utf16_encoder::Encoder, &values(&decoded), &stimulus);
        same(&be_bytes(&units(&encoded)), &cpython);
    }
}

/// Random code units through `Utf16Decoder` and then the UTF-8 encoder,
/// both in the RTL: CPython's `decode('utf-16-be', 'replace')
/// .encode('utf-8')`.
#[test]
fn utf16_to_utf8_in_the_rtl_is_cpythons() {
    let mut rng = StdRng::seed_from_u64(0x16BE);
    let code_units: Vec<u16> = (0..4000)
        .map(|_| match rng.gen_range(0..3) {
            0 => rng.gen_range(0xD800..=0xDFFF),
            _ => rng.gen(),
        })
        .collect();
    let Some(cpython) = tools::python3(
        "import sys; sys.stdout.buffer.write(sys.stdin.buffer.read()\
         .decode('utf-16-be', 'replace').encode('utf-8'))",
        &be_bytes(&code_units),
    )
    .unwrap() else {
        return;
    };
    let stimulus = Stimulus::stalls(Stalls::Bursty, Stalls::Random(0.3), 5);
    let (_, decoded) = run(utf16_decoder::Decoder, &code_units, &stimulus);
    let encoder = utf8hdl_sim::cores::utf8_encoder::Encoder(Profile::Rfc3629);
    let (_, encoded) = run(encoder, &values(&decoded), &stimulus);
    let octets: Vec<u8> = encoded.iter().map(|o| o.tdata).collect();
    same(&octets, &cpython);
}

/// The datasheets' cycle diagrams, cycle for cycle, the sink always ready:
/// `Utf16Encoder` on 41, 1F600, 42, 43 and `Utf16Decoder` on 0041, D83D,
/// DE00, DC00, 0042, offered back to back.
#[test]
fn the_datasheet_cycle_diagrams_are_what_the_rtl_does() {
    fn diagram<C: Core>(
        core: C,
        inputs: &[C::Input],
        cycles: usize,
        tdata: impl Fn(&C::Output) -> u32,
    ) -> (Vec<u8>, Vec<Option<u32>>) {
        let mut harness = Harness::new(core);
        let mut next = 0;
        let (mut ready, mut outputs) = (Vec::new(), Vec::new());
        for _ in 0..cycles {
            let offered = inputs
                .get(next)
                .map(|&input| Beat::one(input, next + 1 == inputs.len()));
            let cycle = harness.cycle(offered, true);
            next += usize::from(cycle.accepted);
            ready.push(u8::from(cycle.s_axis_tready()));
            outputs.push(cycle.delivered().map(|beat| tdata(&beat.lanes[0])));
        }
        (ready, outputs)
    }
    let (ready, outputs) = diagram(
        utf16_encoder::Encoder,
        &[0x41, 0x1F600, 0x42, 0x43],
        8,
        |u| u32::from(u.tdata),
    );
    assert_eq!(ready, [1, 1, 1, 1, 0, 1, 1, 1]);
    assert_eq!(
        outputs,
        [
            None,
            None,
            None,
            Some(0x41),
            Some(0xD83D),
            Some(0xDE00),
            Some(0x42),
            Some(0x43)
        ]
    );
    let inputs = [0x0041, 0xD83D, 0xDE00, 0xDC00, 0x0042];
    let (ready, outputs) = diagram(utf16_decoder::Decoder, &inputs, 8, |w| w.tdata);
    assert_eq!(ready, [1; 8]);
    assert_eq!(
        outputs,
        [
            None,
            None,
            None,
            Some(0x41),
            None,
            Some(0x1F600),
            Some(0xFFFD),
            Some(0x42)
        ]
    );
}
