//! The guide's labs (docs/labs.md): every solution passes its check, with
//! exactly the reference's units. Labs 4 to 8 also check their input's
//! coverage or their solution beyond it; `mistakes.rs` checks that the
//! mistakes a teacher expects fail. (The starting files' crate checks that
//! each starting file fails for the reason its lab states.)

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use utf8hdl_hdl::{ErrorKind, Profile};
use utf8hdl_lab_solutions::BLOCKS;
use utf8hdl_sim::checker::{Stalls, Stimulus, Summary};
use utf8hdl_sim::labs::{LabBlock, ALWAYS_READY, LABS, RANDOM_STALLS};
use utf8hdl_sim::reference::{decode, Unit};

#[test]
fn every_solution_passes() {
    assert_eq!(BLOCKS.len(), LABS.len(), "a solution of every lab");
    for block in BLOCKS {
        let lab = block.lab;
        let summary = block.check();
        assert!(
            summary.agree(),
            "lab {}: {}",
            lab.id,
            summary.mismatch.unwrap()
        );
        let messages = (lab.input)();
        assert!(messages.len() > 1, "lab {}: one message", lab.id);
        assert_eq!(summary.inputs as usize, messages.concat().len());
        let units: usize = messages
            .iter()
            .map(|m| decode(m, Profile::Rfc3629).len())
            .sum();
        assert_eq!(summary.units as usize, units);
    }
}

/// Lab 3b's messages have what the lab is about, as the reference decodes
/// them, and as `String::from_utf8_lossy` counts their U+FFFD: for each
/// lead of a character, its lowest and highest second byte give a
/// character; for E0, ED, F0 and F4, the second bytes just outside and
/// furthest outside their bounds give the lead alone as one U+FFFD of the
/// bound's kind, then the second byte read again, a U+FFFD
/// `unexpected_continuation` of its own; every byte outside C2–F4 is a
/// U+FFFD alone; and messages end just after a second byte out of bounds.
/// The lab's promise holds too: after a second byte out of bounds, every
/// unit up to the next lead of a character is U+FFFD
/// `unexpected_continuation`, and no sequence is broken by a byte that is
/// a unit by itself (lab 4's).
#[test]
fn lab3b_meets_every_bound_and_reads_the_rejected_byte_again() {
    use ErrorKind::*;
    let messages = (block("3b").lab.input)();
    let first = &messages[0];
    let contains = |bytes: &[u8]| first.windows(bytes.len()).any(|w| w == bytes);
    // For each bounded lead: its lowest and highest second byte, in
    // characters; its second bytes just and furthest outside, and their
    // kind.
    type Bounded = ([&'static [u8]; 2], [&'static [u8]; 2], ErrorKind);
    let bounded: [Bounded; 4] = [
        (
            [b"\xE0\xA0\x80", b"\xE0\xBF\xBF"],
            [b"\xE0\x9F\xBF", b"\xE0\x80\x80"],
            Overlong,
        ),
        (
            [b"\xED\x80\x80", b"\xED\x9F\xBF"],
            [b"\xED\xA0\x80", b"\xED\xBF\xBF"],
            Surrogate,
        ),
        (
            [b"\xF0\x90\x80\x80", b"\xF0\xBF\xBF\xBF"],
            [b"\xF0\x8F\xBF\xBF", b"\xF0\x80\x80\x80"],
            Overlong,
        ),
        (
            [b"\xF4\x80\x80\x80", b"\xF4\x8F\xBF\xBF"],
            [b"\xF4\x90\x80\x80", b"\xF4\xBF\xBF\xBF"],
            OutOfRange,
        ),
    ];
    // The other leads take 80-BF.
    let unbounded: [&[u8]; 8] = [
        b"\xC2\x80",
        b"\xDF\xBF",
        b"\xE1\x80\x80",
        b"\xEC\xBF\xBF",
        b"\xEE\x80\x80",
        b"\xEF\xBF\xBF",
        b"\xF1\x80\x80\x80",
        b"\xF3\xBF\xBF\xBF",
    ];
    let inside = bounded
        .iter()
        .flat_map(|(inside, ..)| inside)
        .chain(&unbounded);
    for bytes in inside {
        assert!(contains(bytes), "{bytes:02X?}");
        let units = decode(bytes, Profile::Rfc3629);
        assert_eq!(units.len(), 1, "{bytes:02X?}");
        assert_eq!(units[0].error, None, "{bytes:02X?}");
        assert_eq!(String::from_utf8_lossy(bytes).chars().count(), 1);
    }
    for (_, outside, kind) in bounded {
        for bytes in outside {
            assert!(contains(bytes), "{bytes:02X?}");
            let units = decode(bytes, Profile::Rfc3629);
            let kinds: Vec<_> = units.iter().map(|u| (u.span.clone(), u.error)).collect();
            let mut expected = vec![(0..1, Some(kind))];
            expected.extend((1..bytes.len()).map(|i| (i..i + 1, Some(UnexpectedContinuation))));
            assert_eq!(kinds, expected, "{bytes:02X?}");
            let lossy = String::from_utf8_lossy(bytes);
            assert_eq!(
                lossy.matches('\u{FFFD}').count(),
                bytes.len(),
                "{bytes:02X?}"
            );
        }
    }
    let units: Vec<_> = messages
        .iter()
        .flat_map(|m| {
            let units = decode(m, Profile::Rfc3629);
            let count = units.len();
            units
                .into_iter()
                .enumerate()
                .map(move |(i, u)| (m[u.span.start], u.span.len(), u.error, i + 1 == count))
        })
        .collect();
    for byte in [0xC0, 0xC1].into_iter().chain(0xF5..=0xFF) {
        assert!(
            units
                .iter()
                .any(|&(b, len, error, _)| b == byte && len == 1 && error.is_some()),
            "{byte:02X} alone"
        );
    }
    let rejected = |&(lead, len, error, _): &(u8, usize, Option<ErrorKind>, bool)| {
        [0xE0, 0xED, 0xF0, 0xF4].contains(&lead)
            && len == 1
            && matches!(error, Some(Overlong | Surrogate | OutOfRange))
    };
    let is_lead = |b: u8| (0xC2..=0xF4).contains(&b);
    let mut ends_after_rejected = 0;
    for (i, unit) in units.iter().enumerate() {
        if rejected(unit) {
            assert_eq!(units[i + 1].2, Some(UnexpectedContinuation));
            ends_after_rejected += usize::from(units[i + 1].3);
            let next_lead = units[i + 1..]
                .iter()
                .position(|&(b, ..)| is_lead(b))
                .map_or(units.len(), |at| i + 1 + at);
            assert!(
                units[i + 1..next_lead]
                    .iter()
                    .all(|u| u.2 == Some(UnexpectedContinuation)),
                "unit {i}: a word of another kind after a second byte out of bounds"
            );
            // The lead is not alone at its message's end.
            assert!(next_lead < units.len() && units[next_lead].1 > 1);
        }
        // A sequence broken before its message's end: by a lead.
        if unit.2 == Some(Truncated) && !unit.3 {
            assert!(
                is_lead(units[i + 1].0),
                "unit {i}: broken by a unit of its own"
            );
        }
    }
    assert!(ends_after_rejected >= 4, "{ends_after_rejected}");
    let summary = block("3b").check();
    assert!(summary.agree(), "{}", summary.mismatch.unwrap());
    for kind in ErrorKind::ALL {
        assert!(
            summary.errors_by_code[kind.code() as usize] > 0,
            "no {}",
            kind.name()
        );
    }
}

/// Lab 4's messages (lab 6's and 7's too) have what the lab is about:
/// every error kind; messages that end inside a character in every state
/// (after 1 of 2 bytes, 1 or 2 of 3, 1, 2 or 3 of 4), each followed by a
/// message that starts with a continuing octet, which a decoder that
/// carries its state across the end would take for the rest of the
/// character; and a last byte that gives two units (F0 breaks `E2 82` and
/// is left truncated by the end of the message). The solution's errors,
/// kind by kind, are the reference's.
#[test]
fn lab4_meets_every_error_kind_and_every_open_end() {
    let messages = (block("4").lab.input)();
    assert_eq!((block("6").lab.input)(), messages);
    assert_eq!((block("7").lab.input)(), messages);
    let mut by_code = [0u64; 7];
    let mut open_ends = std::collections::BTreeSet::new();
    for (i, message) in messages.iter().enumerate() {
        let units = decode(message, Profile::Rfc3629);
        for unit in &units {
            if let Some(kind) = unit.error {
                by_code[kind.code() as usize] += 1;
            }
        }
        // The bytes of a character that the end left open: (its length,
        // the bytes it got).
        let last = units.last().unwrap();
        let next_continues = messages
            .get(i + 1)
            .is_some_and(|next| (0x80..0xC0).contains(&next[0]));
        if last.error == Some(ErrorKind::Truncated)
            && last.span.end == message.len()
            && next_continues
        {
            let length = match message[last.span.start] {
                0xC2..=0xDF => 2,
                0xE0..=0xEF => 3,
                _ => 4,
            };
            open_ends.insert((length, last.span.len()));
        }
    }
    for kind in ErrorKind::ALL {
        assert!(by_code[kind.code() as usize] > 0, "no {}", kind.name());
    }
    let every = [(2, 1), (3, 1), (3, 2), (4, 1), (4, 2), (4, 3)];
    assert_eq!(open_ends.into_iter().collect::<Vec<_>>(), every);
    let message = messages.last().unwrap();
    let units = decode(message, Profile::Rfc3629);
    let end = message.len();
    let last_two: Vec<_> = units[units.len() - 2..]
        .iter()
        .map(|u| (u.span.clone(), u.error))
        .collect();
    assert_eq!(
        last_two,
        [
            (end - 3..end - 1, Some(ErrorKind::Truncated)),
            (end - 1..end, Some(ErrorKind::Truncated))
        ]
    );
    let summary = block("4").check();
    assert!(summary.agree(), "{}", summary.mismatch.unwrap());
    assert_eq!(summary.errors_by_code, by_code);
}

/// The solutions of labs 4 and 6 (the same decoder, in one stage and in
/// two) beyond their input: Kuhn's stress test as one message (378 U+FFFD
/// in rfc3629, README), and random bytes in many messages with the source
/// idling at random (the sink is always ready in these labs).
#[test]
fn lab4_and_lab6_solutions_decode_kuhn_and_random_messages() {
    for lab in ["4", "6"] {
        decodes_kuhn_and_random_messages(lab);
    }
}

fn decodes_kuhn_and_random_messages(lab: &str) {
    let kuhn = std::fs::read(format!(
        "{}/../../../testbench/data/UTF-8-test.txt",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let summary = check_on(lab, std::slice::from_ref(&kuhn), &ALWAYS_READY);
    assert!(summary.agree(), "lab {lab}: {}", summary.mismatch.unwrap());
    assert_eq!(summary.inputs as usize, kuhn.len());
    assert_eq!(summary.errors(), 378);

    for seed in 0..8 {
        let input = random_bytes(seed, 2000);
        let stimulus = Stimulus {
            source: Stalls::Random(0.3),
            message_end: 0.05,
            seed,
            ..ALWAYS_READY
        };
        let summary = check_on(lab, std::slice::from_ref(&input), &stimulus);
        assert!(
            summary.agree(),
            "lab {lab}, seed {seed}: {}",
            summary.mismatch.unwrap()
        );
        assert_eq!(summary.inputs as usize, input.len());
    }
}

/// Lab `lab`'s solution on `messages`, as
/// `stimulus` offers them.
fn check_on(lab: &str, messages: &[Vec<u8>], stimulus: &Stimulus) -> Summary<Unit> {
    (block(lab).run)(messages, stimulus, 0..0).summary
}

/// Lab `id`'s solution.
fn block(id: &str) -> &'static LabBlock {
    BLOCKS.iter().find(|block| block.lab.id == id).unwrap()
}

/// Random bytes: a quarter ASCII, half continuing octets, a quarter
/// leads and bytes that are never UTF-8, so that every error kind meets
/// every other.
fn random_bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..len)
        .map(|_| match rng.gen_range(0..4) {
            0 => rng.gen_range(0x00..=0x7F),
            1 | 2 => rng.gen_range(0x80..=0xBF),
            _ => rng.gen_range(0xC0..=0xFF),
        })
        .collect()
}

/// Runs lab `lab`'s solution on `input` under every pair of stall
/// patterns (source, sink), the input cut into messages at random, and
/// checks that every run agrees with the reference and takes every byte.
fn under_every_stall_pattern(lab: &str, input: &[u8]) -> Vec<(Stalls, Stalls, Summary<Unit>)> {
    let mut runs = Vec::new();
    for source in Stalls::ALL {
        for sink in Stalls::ALL {
            let stimulus = Stimulus {
                source,
                sink,
                message_end: 0.02,
                ..RANDOM_STALLS
            };
            let summary = check_on(lab, &[input.to_vec()], &stimulus);
            assert!(
                summary.agree(),
                "lab {lab}, source {source:?}, sink {sink:?}: {}",
                summary.mismatch.unwrap()
            );
            assert_eq!(summary.inputs as usize, input.len());
            runs.push((source, sink, summary));
        }
    }
    runs
}

/// Lab 5's solution under every stall pattern on each side, its input cut
/// into messages at random: every word and tlast as sent, none lost or
/// duplicated; and one byte per clock when neither side stalls.
#[test]
fn lab5_solution_holds_under_every_stall_pattern() {
    let input = (block("5").lab.input)().concat();
    for (source, sink, summary) in under_every_stall_pattern("5", &input) {
        assert_eq!(summary.units as usize, input.len());
        if (source, sink) == (Stalls::Never, Stalls::Never) {
            assert_eq!(summary.cycles as usize, input.len() + 1);
        }
    }
}

/// Lab 7's solution (the full decoder) under every stall pattern on each
/// side, on random bytes of every class cut into messages at random: every
/// unit and tlast as the reference says, none lost or duplicated.
#[test]
fn lab7_solution_holds_under_every_stall_pattern() {
    under_every_stall_pattern("7", &random_bytes(7, 3000));
}

/// Lab 8's input meets both alignments: two-octet characters start in
/// lane 0 and in lane 1, and every beat is full. Its solution decodes
/// random text of ASCII and two-octet characters (of even length, every
/// lane kept, as the lab states) with the source idling at random.
#[test]
fn lab8_input_meets_both_alignments_and_its_solution_any_such_text() {
    let messages = (block("8").lab.input)();
    assert!(messages.iter().all(|m| m.len() % 2 == 0), "every lane kept");
    let input = &messages[0];
    let leads = |parity| {
        (0..input.len())
            .filter(|&i| i % 2 == parity && input[i] >= 0xC0)
            .count()
    };
    assert!(
        leads(0) > 100 && leads(1) > 100,
        "{} {}",
        leads(0),
        leads(1)
    );

    for seed in 0..8 {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut text = String::new();
        while text.len() < 2000 || text.len() % 2 == 1 {
            let c = match rng.gen_bool(0.5) {
                true => rng.gen_range(0..0x80u32),
                false => rng.gen_range(0x80..0x800u32),
            };
            text.push(char::from_u32(c).unwrap());
        }
        let stimulus = Stimulus {
            source: Stalls::Random(0.3),
            seed,
            ..ALWAYS_READY
        };
        let summary = check_on("8", &[text.clone().into_bytes()], &stimulus);
        assert!(
            summary.agree(),
            "seed {seed}: {}",
            summary.mismatch.unwrap()
        );
        assert_eq!(summary.units as usize, text.chars().count());
    }
}

/// Every solution's Verilog (rust-hdl's `generate_verilog`) is accepted by
/// Verilator: a student's solution is a real design, not only a
/// simulation. (Names that are Verilog keywords, such as `byte`, are what
/// this catches.)
#[test]
fn every_solution_exports_verilog_that_verilator_accepts() {
    if !utf8hdl_synth::tools::require("verilator") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for block in BLOCKS {
        let lab = block.lab;
        let path = dir.path().join(format!("lab{}.v", lab.id));
        std::fs::write(&path, (block.verilog)()).unwrap();
        let out = std::process::Command::new("verilator")
            .args([
                "--lint-only",
                "-Wno-fatal",
                "-Wno-lint",
                "-Wno-style",
                "--top-module",
                "top",
            ])
            .arg(&path)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "lab {}: {}",
            lab.id,
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
