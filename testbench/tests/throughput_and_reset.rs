//! One byte per clock on every input, the fixed latency, and reset.

use utf8hdl_hdl::Profile;
use utf8hdl_sim::core::Beat;
use utf8hdl_sim::cores::utf8_decoder::Decoder;
use utf8hdl_sim::harness::Harness;
use utf8hdl_sim::reference::decode;

/// Cycles from a word's last byte to the word on m_axis (the datasheet's
/// figure in `hdl/src/utf8_decoder/mod.rs`).
const LATENCY: u64 = 6;

/// Feeds `bytes` as one message with m_axis_tready high; returns the cycles
/// from the first byte to the last word, counting both, and checks the words.
fn cycles_for(profile: Profile, bytes: &[u8]) -> u64 {
    let mut harness = Harness::new(Decoder(profile));
    let expected = decode(bytes, profile);
    let mut words = Vec::new();
    let mut first = None;
    let mut last_word = 0;
    for (i, &tdata) in bytes.iter().enumerate() {
        let cycle = *harness.cycle(Some(Beat::one(tdata, i + 1 == bytes.len())), true);
        assert!(
            cycle.accepted,
            "byte {i} was not accepted: s_axis_tready fell"
        );
        first.get_or_insert(harness.cycles - 1);
        if let Some(beat) = cycle.delivered() {
            words.extend(beat.items());
            last_word = harness.cycles - 1;
        }
    }
    for _ in 0..8 {
        if let Some(beat) = harness.cycle(None, true).delivered() {
            words.extend(beat.items());
            last_word = harness.cycles - 1;
        }
    }
    let values: Vec<u32> = words.iter().map(|w| w.tdata).collect();
    let expected_values: Vec<u32> = expected.iter().map(|u| u.value).collect();
    assert_eq!(values, expected_values);
    last_word - first.unwrap() + 1
}

fn assert_full_rate(profile: Profile, name: &str, bytes: &[u8]) {
    assert_eq!(
        cycles_for(profile, bytes),
        bytes.len() as u64 + LATENCY,
        "{name}: not one byte per clock"
    );
}

#[test]
fn ascii_runs_at_one_byte_per_clock() {
    let text: Vec<u8> = (0..4096).map(|i| b' ' + (i % 95) as u8).collect();
    assert_full_rate(Profile::Rfc3629, "ASCII", &text);
}

#[test]
fn four_byte_text_runs_at_one_byte_per_clock() {
    let text: String = (0..1024)
        .map(|i| char::from_u32(0x1F600 + i % 64).unwrap())
        .collect();
    assert_full_rate(Profile::Rfc3629, "4-byte", text.as_bytes());
}

#[test]
fn all_error_streams_run_at_one_byte_per_clock() {
    let c2_41: Vec<u8> = b"\xC2A".repeat(2048);
    assert_full_rate(Profile::Rfc3629, "C2 41", &c2_41);
    assert_full_rate(Profile::Iso10646, "C2 41", &c2_41);
    let mut state = 0x2545F4914F6CDD1Du64;
    let random: Vec<u8> = (0..8192)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 32) as u8
        })
        .collect();
    assert_full_rate(Profile::Rfc3629, "random", &random);
    assert_full_rate(Profile::Iso10646, "random", &random);
    let leads: Vec<u8> = b"\xE0\xF0\xED\xFE\x80".repeat(1000);
    assert_full_rate(Profile::Rfc3629, "breaking leads", &leads);
}

/// A reset in the middle of a sequence drops it: what follows decodes as if
/// nothing came before.
#[test]
fn reset_in_the_middle_of_a_sequence() {
    let mut harness = Harness::new(Decoder(Profile::Rfc3629));
    for tdata in [0xE2, 0x82] {
        assert!(harness.cycle(Some(Beat::one(tdata, false)), true).accepted);
    }
    harness.reset(1);
    let mut words = Vec::new();
    let first = harness.cycle(Some(Beat::one(b'A', true)), true);
    assert!(first.accepted);
    for _ in 0..8 {
        words.extend(harness.cycle(None, true).delivered().copied());
    }
    let [beat] = words[..] else {
        panic!("one beat, not {words:?}");
    };
    assert_eq!(beat.items().map(|w| w.tdata).collect::<Vec<_>>(), [0x41]);
    assert!(beat.tlast && beat.items().all(|w| w.error() == Ok(None)));
}

/// A reset while words wait behind a stalled sink drops them all, and no
/// word is valid until new input arrives.
#[test]
fn reset_while_words_are_buffered() {
    let mut harness = Harness::new(Decoder(Profile::Rfc3629));
    for (i, tdata) in b"xyz\xC2".iter().enumerate() {
        harness.cycle(Some(Beat::one(*tdata, i == 3)), false);
    }
    // The first word reaches m_axis LATENCY cycles after its byte.
    for _ in 4..LATENCY {
        harness.cycle(None, false);
    }
    assert!(harness.outputs().m_axis.is_some(), "a word waits on m_axis");
    harness.reset(1);
    for _ in 0..8 {
        let cycle = harness.cycle(None, true);
        assert!(!cycle.m_axis_tvalid(), "a word survived the reset");
        assert!(cycle.s_axis_tready(), "s_axis_tready is high after reset");
    }
    let cycle = harness.cycle(Some(Beat::one(b'A', true)), true);
    assert!(cycle.accepted);
    let words: Vec<_> = (0..8)
        .filter_map(|_| harness.cycle(None, true).delivered().copied())
        .flat_map(|beat| beat.items().collect::<Vec<_>>())
        .collect();
    assert_eq!(words.len(), 1);
    assert_eq!(words[0].tdata, 0x41);
}
