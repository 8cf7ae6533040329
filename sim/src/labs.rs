//! The guide's labs as cores (`docs/labs.md`): each lab block is a [`Core`],
//! checked by the decoder's own checker against the reference decoder, on
//! messages chosen for what the lab teaches. `utf8hdl lab check N` prints
//! the checker's first difference, as for the decoder.
//!
//! A lab's block runs on [`Registered`], rust-hdl's engine with one more
//! check, which the decoder's harness cannot make from the outputs it
//! samples at each cycle's start: that every output is a register, so that
//! a wire from an input (`m_axis_tlast = s_axis_tlast`) fails instead of
//! looking like the flop it should be.
//!
//! The block that `lab check N` runs is the one compiled into the program,
//! while its verdict names the student's file: so the program keeps the
//! text of each lab file it was built from ([`Lab::built_from`]), and
//! [`source_on_disk`] tells whether the file is still that text. The file
//! is looked for in [`workspace`]: the current directory when it holds
//! `hdl/src/labs/` (the guide runs every command from the workspace's root,
//! and the verdict names the file from there), else the workspace this
//! program was built in.

use std::convert::Infallible;
use std::io;
use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rust_hdl::prelude::{generate_verilog, Block, Clock};
use utf8hdl_hdl::labs;

use crate::checker::{run_checked_messages, Stalls, Stimulus, Summary};
use crate::core::{Beat, Core, InputsOf, Lane, Outputs, OutputsOf, Values};
use crate::harness::{settle, Engine, Harness, RustHdl};
use crate::reference::Unit;

pub use crate::cores::utf8_decoder::{Reference, Word};
pub use utf8hdl_hdl::Profile;

/// One lab: what it teaches and the messages it is checked on.
pub struct Lab {
    pub number: usize,
    pub title: &'static str,
    /// Its file, the student's (`solutions/` has the same name), from
    /// the workspace's root.
    pub file: &'static str,
    /// The text of [`Lab::file`] that this program was built from: the
    /// block that [`Lab::start`] runs. [`source_on_disk`] compares it
    /// with the file as it is now.
    pub built_from: &'static str,
    /// The messages it is checked on, one after another (each one's last
    /// byte carries `s_axis_tlast`).
    pub input: fn() -> Vec<Vec<u8>>,
    /// How the source offers them and the sink takes the words.
    pub stimulus: Stimulus,
    /// Runs the student's block on messages.
    pub start: fn(&[Vec<u8>], &Stimulus) -> Summary<Unit>,
    /// Runs the solution's.
    pub solution: fn(&[Vec<u8>], &Stimulus) -> Summary<Unit>,
    /// The solution's Verilog (rust-hdl's `generate_verilog`, top module
    /// `top`).
    pub solution_verilog: fn() -> String,
}

/// The stimulus of labs 1 to 4, 6 and 8: a beat offered on every clock,
/// the sink always ready, and the messages as the lab gives them.
pub const ALWAYS_READY: Stimulus = Stimulus {
    source: Stalls::Never,
    sink: Stalls::Never,
    null_lanes: 0.0,
    message_end: 0.0,
    seed: 1,
};

/// Labs 5 and 7's: the source idles on a cycle in four and the sink
/// stalls on one in two, at random (a fixed seed, so every run is the same).
pub const RANDOM_STALLS: Stimulus = Stimulus {
    source: Stalls::Random(0.25),
    sink: Stalls::Random(0.5),
    null_lanes: 0.0,
    message_end: 0.0,
    seed: 5,
};

/// The labs, in order.
pub const LABS: &[Lab] = &[
    Lab {
        number: 1,
        title: "ASCII passthrough",
        file: "hdl/src/labs/lab1_ascii.rs",
        built_from: include_str!("../../hdl/src/labs/lab1_ascii.rs"),
        input: ascii_messages,
        stimulus: ALWAYS_READY,
        start: run::<Lab1>,
        solution: run::<Lab1Solution>,
        solution_verilog: verilog::<Lab1Solution>,
    },
    Lab {
        number: 2,
        title: "two-octet characters",
        file: "hdl/src/labs/lab2_two_bytes.rs",
        built_from: include_str!("../../hdl/src/labs/lab2_two_bytes.rs"),
        input: two_octet_messages,
        stimulus: ALWAYS_READY,
        start: run::<Lab2>,
        solution: run::<Lab2Solution>,
        solution_verilog: verilog::<Lab2Solution>,
    },
    Lab {
        number: 3,
        title: "three- and four-octet characters",
        file: "hdl/src/labs/lab3_long_characters.rs",
        built_from: include_str!("../../hdl/src/labs/lab3_long_characters.rs"),
        input: every_length_messages,
        stimulus: ALWAYS_READY,
        start: run::<Lab3>,
        solution: run::<Lab3Solution>,
        solution_verilog: verilog::<Lab3Solution>,
    },
    Lab {
        number: 4,
        title: "the error policy",
        file: "hdl/src/labs/lab4_error_policy.rs",
        built_from: include_str!("../../hdl/src/labs/lab4_error_policy.rs"),
        input: malformed_messages,
        stimulus: ALWAYS_READY,
        start: run::<Lab4>,
        solution: run::<Lab4Solution>,
        solution_verilog: verilog::<Lab4Solution>,
    },
    Lab {
        number: 5,
        title: "backpressure",
        file: "hdl/src/labs/lab5_backpressure.rs",
        built_from: include_str!("../../hdl/src/labs/lab5_backpressure.rs"),
        input: ascii_in_messages,
        stimulus: RANDOM_STALLS,
        start: run::<Lab5>,
        solution: run::<Lab5Solution>,
        solution_verilog: verilog::<Lab5Solution>,
    },
    Lab {
        number: 6,
        title: "the byte classifier",
        file: "hdl/src/labs/lab6_classifier.rs",
        built_from: include_str!("../../hdl/src/labs/lab6_classifier.rs"),
        input: malformed_messages,
        stimulus: ALWAYS_READY,
        start: run::<Lab6>,
        solution: run::<Lab6Solution>,
        solution_verilog: verilog::<Lab6Solution>,
    },
    Lab {
        number: 7,
        title: "the full decoder",
        file: "hdl/src/labs/lab7_full_decoder.rs",
        built_from: include_str!("../../hdl/src/labs/lab7_full_decoder.rs"),
        input: malformed_messages,
        stimulus: RANDOM_STALLS,
        start: run::<Lab7>,
        solution: run::<Lab7Solution>,
        solution_verilog: verilog::<Lab7Solution>,
    },
    Lab {
        number: 8,
        title: "one wide step",
        file: "hdl/src/labs/lab8_wide_step.rs",
        built_from: include_str!("../../hdl/src/labs/lab8_wide_step.rs"),
        input: two_octets_in_messages,
        stimulus: ALWAYS_READY,
        start: run::<Lab8>,
        solution: run::<Lab8Solution>,
        solution_verilog: verilog::<Lab8Solution>,
    },
];

/// Every ASCII byte, up and down, so that equal bytes meet (7F 7F).
fn ascii() -> Vec<u8> {
    (0..0x80u8).chain((0..0x80).rev()).collect()
}

/// Each string, a message of its own.
fn each<'a>(messages: &'a [&str]) -> impl Iterator<Item = Vec<u8>> + 'a {
    messages.iter().map(|m| m.as_bytes().to_vec())
}

/// Lab 1's messages: [`ascii`], then short ones, down to a byte, so that
/// words with `m_axis_tlast` come in a row, and both ends of ASCII.
fn ascii_messages() -> Vec<Vec<u8>> {
    let short = ["A", "B", "CD", "\0", "\x7F", "EFG", "\x7F\0", "H"];
    std::iter::once(ascii()).chain(each(&short)).collect()
}

/// Every code point from U+0000 to U+07FF, in UTF-8 (Rust's encoder).
fn two_octets() -> Vec<u8> {
    (0..0x800u32)
        .filter_map(char::from_u32)
        .collect::<String>()
        .into_bytes()
}

/// Lab 2's messages: [`two_octets`], then short ones that end and start
/// with two-octet characters, both ends of the range among them. Every
/// message is well formed: an end inside a character would make its lead
/// truncated, which lab 2's block is not asked to know (lab 4 is).
fn two_octet_messages() -> Vec<Vec<u8>> {
    let short = [
        "\u{80}",
        "A",
        "\u{7FF}",
        "\u{80}\u{7FF}",
        "\u{7F}\u{80}",
        "é",
        "Aé",
        "éA",
        "\0",
    ];
    std::iter::once(two_octets()).chain(each(&short)).collect()
}

/// Every code point from U+0000 to U+07FF in UTF-8, a "." after every
/// seventh, so that two-octet characters start in either lane of a
/// two-lane beat (4,260 bytes: every beat full).
fn two_octets_both_alignments() -> Vec<u8> {
    (0..0x800u32)
        .filter_map(char::from_u32)
        .enumerate()
        .flat_map(|(i, c)| std::iter::once(c).chain((i % 7 == 6).then_some('.')))
        .collect::<String>()
        .into_bytes()
}

/// Lab 8's messages: [`two_octets_both_alignments`], then short ones of an
/// even length (every lane kept, as the lab states), whose two-octet
/// characters sit in either lane, across beats too (`aéb`).
fn two_octets_in_messages() -> Vec<Vec<u8>> {
    let short = [
        "é",
        "ab",
        "\u{80}\u{7FF}",
        "aéb",
        ".\u{7FF}.",
        "\u{7FF}",
        "\0\u{7F}",
    ];
    std::iter::once(two_octets_both_alignments())
        .chain(each(&short))
        .collect()
}

/// Every code point from U+0000 to U+FFFF but the surrogates, then every
/// 251st up to U+10FFFF (both ends of every length), in UTF-8.
fn every_length() -> Vec<u8> {
    (0..0x1_0000u32)
        .chain((0x1_0000..=0x10_FFFF).step_by(251))
        .chain([0x10_FFFF])
        .filter_map(char::from_u32)
        .collect::<String>()
        .into_bytes()
}

/// Lab 3's messages: [`every_length`], then short ones that end and start
/// with characters of three and four octets, the first and last of each
/// length and those beside the surrogates among them; all well formed, as
/// in lab 2.
fn every_length_messages() -> Vec<Vec<u8>> {
    let short = [
        "\u{800}",
        "\u{FFFF}",
        "\u{10000}",
        "\u{10FFFF}",
        "\u{D7FF}",
        "\u{E000}",
        "A€",
        "€A",
        "😀",
        "A😀",
        "😀A",
        "€😀é",
        "\u{7FF}\u{800}",
    ];
    std::iter::once(every_length())
        .chain(each(&short))
        .collect()
}

/// Chapter 4's cases, one after another: the RFC 3629 §3 and §10
/// examples, the second-byte bounds of E0, ED, F0 and F4 on both sides,
/// Kuhn's overlong forms and impossible bytes, lone continuing octets, and
/// sequences broken by a byte that is a unit of its own or starts the next
/// one.
const EDGE_CASES: &[&[u8]] = &[
    b"\xC0\x80",                     // overlong U+0000 (RFC 3629 §3)
    b"/\xC0\xAE./",                  // an overlong "." in "/../" (§10)
    b"\xC1\xBF",                     // overlong U+007F
    b"\xE0\x80\x80",                 // overlong, then 2 continuing octets
    b"\xE0\x9F\xBF",                 // overlong U+07FF
    b"\xE0\xA0\x80",                 // U+0800
    b"\xED\x9F\xBF",                 // U+D7FF
    b"\xED\xA0\x80",                 // surrogate U+D800: 3 units
    b"\xED\xBF\xBF",                 // surrogate U+DFFF
    b"\xEE\x80\x80",                 // U+E000
    b"\xF0\x80\x80\x80",             // overlong U+0000 in four
    b"\xF0\x8F\xBF\xBF",             // overlong U+FFFF
    b"\xF0\x90\x80\x80",             // U+10000
    b"\xF4\x8F\xBF\xBF",             // U+10FFFF
    b"\xF4\x90\x80\x80",             // U+110000: out of range
    b"\xF5\xF7\xBF\xBF\xFD",         // leads beyond F4
    b"\xFE\xFF",                     // never in UTF-8
    b"\x80\xBF\x80",                 // lone continuing octets
    b"\xC2A",                        // truncated by ASCII
    b"\xE2\x82A",                    // (chapter 4's E2 82 41)
    b"\xF0\x9F\x98A",                // truncated after 3 of 4
    b"\xE2\xE2\x82\xAC",             // a lead broken by a lead, then €
    b"\xF0\x9F\xC2\xA9",             // truncated by a lead, then ©
    b"\xDF\xEF\xBF\xF4\x8F\xBF\xFF", // truncated three times, then FF
    b"\xE1\x80\xE2\x82\xAC\xED\xA0", // truncated by a lead, €, a surrogate
];

/// A message that ends inside a character, in each state a decoder can be
/// left in (after 1 of 2 bytes; 1 or 2 of 3; 1, 2 or 3 of 4; and after
/// the bounded second bytes of E0, ED, F0 and F4), with the bytes that
/// would have completed the character.
const OPEN_ENDS: &[(&[u8], &[u8])] = &[
    (b"\xC3", b"\xA9"),         // é, after 1 of 2
    (b"\xE2", b"\x82\xAC"),     // €, after 1 of 3
    (b"\xE2\x82", b"\xAC"),     // €, after 2 of 3
    (b"\xF0", b"\x9F\x98\x80"), // 😀, after 1 of 4
    (b"\xF0\x9F", b"\x98\x80"), // 😀, after 2 of 4
    (b"\xF0\x9F\x98", b"\x80"), // 😀, after 3 of 4
    (b"\xE0\xA0", b"\x80"),     // U+0800
    (b"\xED\x9F", b"\xBF"),     // U+D7FF
    (b"\xF0\x90\x80", b"\x80"), // U+10000
    (b"\xF4\x8F\xBF", b"\xBF"), // U+10FFFF
];

/// Messages of one byte that cannot start a character, then a lone
/// surrogate and an overlong as messages of their own.
const SHORT_MALFORMED: &[&[u8]] = &[
    b"\x80",
    b"\xBF",
    b"\xC0",
    b"\xC1",
    b"\xF5",
    b"\xFE",
    b"\xFF",
    b"\xED\xA0\x80",
    b"\xE0\x80\x80",
];

/// Malformed input of every kind among valid characters, in messages:
/// [`EDGE_CASES`] as one; then, for each of [`OPEN_ENDS`], a message that
/// ends inside the character, one that starts with the rest of it (which
/// a decoder that carries its state across the end would complete), the
/// open part alone, and one of ASCII; then [`SHORT_MALFORMED`]; then a
/// fixed-seed random mix of characters of every length and fragments of
/// every error kind (which also meet at random), cut into messages of 1 to
/// 64 bytes at random, so that they end in every state again. The last
/// message ends in `E2 82 F0`: F0 breaks E2 82 and is left truncated by
/// the end of the message, two words from the last byte.
fn malformed_messages() -> Vec<Vec<u8>> {
    let mut messages = vec![EDGE_CASES.concat()];
    for (open, rest) in OPEN_ENDS {
        messages.push([b"a", *open].concat());
        messages.push([*rest, b"b"].concat());
        messages.push(open.to_vec());
        messages.push(b"c".to_vec());
    }
    messages.extend(SHORT_MALFORMED.iter().map(|m| m.to_vec()));
    let mut bytes = random_mix();
    bytes.extend(b"\xE2\x82\xF0");
    let mut rng = StdRng::seed_from_u64(40);
    let mut rest = &bytes[..];
    while !rest.is_empty() {
        let length = rng.gen_range(1..=64).min(rest.len());
        messages.push(rest[..length].to_vec());
        rest = &rest[length..];
    }
    messages
}

/// A fixed-seed random mix of characters of every length and fragments of
/// every error kind.
fn random_mix() -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut rng = StdRng::seed_from_u64(4);
    let character = |rng: &mut StdRng, length: u32| loop {
        let range = match length {
            1 => 0..0x80,
            2 => 0x80..0x800,
            3 => 0x800..0x1_0000,
            _ => 0x1_0000..0x11_0000,
        };
        if let Some(c) = char::from_u32(rng.gen_range(range)) {
            break c.to_string().into_bytes();
        }
    };
    let continuing = |rng: &mut StdRng| rng.gen_range(0x80..=0xBFu8);
    for _ in 0..4000 {
        let fragment = match rng.gen_range(0..12) {
            0..=4 => {
                let length = rng.gen_range(1..=4);
                character(&mut rng, length)
            }
            5 => vec![rng.gen_range(0xFE..=0xFF)],
            6 => vec![continuing(&mut rng)],
            7 => {
                // A character of two to four octets, cut short.
                let length = rng.gen_range(2..=4);
                let mut whole = character(&mut rng, length);
                whole.truncate(rng.gen_range(1..whole.len()));
                whole
            }
            8 => match rng.gen_range(0..3) {
                0 => vec![rng.gen_range(0xC0..=0xC1), continuing(&mut rng)],
                1 => vec![0xE0, rng.gen_range(0x80..=0x9F), continuing(&mut rng)],
                _ => vec![
                    0xF0,
                    rng.gen_range(0x80..=0x8F),
                    continuing(&mut rng),
                    continuing(&mut rng),
                ],
            },
            9 => vec![0xED, rng.gen_range(0xA0..=0xBF), continuing(&mut rng)],
            10 => vec![rng.gen_range(0xF5..=0xFD)],
            _ => vec![
                0xF4,
                rng.gen_range(0x90..=0xBF),
                continuing(&mut rng),
                continuing(&mut rng),
            ],
        };
        bytes.extend(fragment);
    }
    bytes
}

/// Lab 5's messages, 2,048 bytes in all: [`ascii`]; two more of it cut
/// into messages of 1 to 13 bytes, so that message ends meet the stalls
/// of both sides; then five more as one message.
fn ascii_in_messages() -> Vec<Vec<u8>> {
    let mut messages = vec![ascii()];
    let short = ascii().repeat(2);
    let mut rest = &short[..];
    for length in [1, 1, 2, 3, 5, 8, 13].iter().cycle() {
        if rest.is_empty() {
            break;
        }
        let length = (*length).min(rest.len());
        messages.push(rest[..length].to_vec());
        rest = &rest[length..];
    }
    messages.push(ascii().repeat(5));
    messages
}

/// A lab's block as a core of the latency its lab states, checked against
/// the reference decoder (rfc3629): `lab_core!(Name, Block, "module",
/// latency)`, with `; tkeep` for a block of many lanes. No state is shown
/// beyond the ports. Run it with [`run`].
#[macro_export]
macro_rules! lab_core {
    ($name:ident, $block:ty, $module:expr, $latency:literal $(; $tkeep:ident)?) => {
        #[derive(Copy, Clone, Debug, Default)]
        pub struct $name;

        impl $crate::core::Core for $name {
            const KIND: $crate::cores::Kind = $crate::cores::Kind::Decoder;
            type Block = $block;
            type Input = u8;
            type Output = $crate::labs::Word;
            type Model = $crate::labs::Reference;
            const STATE: &'static [&'static str] = &[];
            const LATENCY: u64 = $latency;
            const ERROR_KINDS: &'static [$crate::reference::ErrorKind] = &$crate::reference::ErrorKind::ALL;

            fn name(&self) -> String {
                $module.into()
            }

            fn profile(&self) -> $crate::labs::Profile {
                $crate::labs::Profile::Rfc3629
            }

            fn model(&self) -> $crate::labs::Reference {
                $crate::labs::Reference($crate::labs::Profile::Rfc3629)
            }

            fn block(&self) -> $block {
                Default::default()
            }

            $crate::axis_io!($block; m_tuser $($tkeep)?);
        }
    };
}

/// A lab's two cores, its student's block and its solution's: the block
/// `$block` of `labs::$module` and of `labs::solutions::$module`.
macro_rules! lab_cores {
    ($start:ident, $solution:ident, $module:ident::$block:ident, $latency:literal $(; $tkeep:ident)?) => {
        lab_core!($start, labs::$module::$block, stringify!($module), $latency $(; $tkeep)?);
        lab_core!(
            $solution,
            labs::solutions::$module::$block,
            stringify!($module),
            $latency
            $(; $tkeep)?
        );
    };
}

lab_cores!(Lab1, Lab1Solution, lab1_ascii::AsciiPassthrough, 1);
lab_cores!(Lab2, Lab2Solution, lab2_two_bytes::TwoByteDecoder, 1);
lab_cores!(
    Lab3,
    Lab3Solution,
    lab3_long_characters::LongCharacterDecoder,
    1
);
lab_cores!(Lab4, Lab4Solution, lab4_error_policy::ErrorPolicyDecoder, 1);
lab_cores!(
    Lab5,
    Lab5Solution,
    lab5_backpressure::BackpressurePassthrough,
    1
);
lab_cores!(Lab6, Lab6Solution, lab6_classifier::ClassifiedDecoder, 2);
lab_cores!(Lab7, Lab7Solution, lab7_full_decoder::FullDecoder, 2);
lab_cores!(Lab8, Lab8Solution, lab8_wide_step::WideStepDecoder, 1; tkeep);

/// Looks a lab up by number.
pub fn find(number: usize) -> Result<&'static Lab> {
    match LABS.iter().find(|lab| lab.number == number) {
        Some(lab) => Ok(lab),
        None => bail!("no lab {number} (labs: 1 to {})", LABS.len()),
    }
}

/// The directory whose `hdl/src/labs/` holds the lab files that `lab
/// check` compares with the texts it was built from: the current
/// directory when it has `hdl/src/labs/` (shown as `.`, so that a file is
/// named as the guide names it), else the workspace this program was
/// built in (for a run from a subdirectory, or of an installed binary).
pub fn workspace() -> PathBuf {
    if Path::new("hdl/src/labs").is_dir() {
        return PathBuf::from(".");
    }
    // This crate's manifest is `sim/Cargo.toml`, one below the root.
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_path_buf()
}

/// How a lab file on disk compares with the text the program was built
/// from.
#[derive(Debug, PartialEq, Eq)]
pub enum Source {
    /// The same text: the verdict is about the file.
    Built,
    /// Another text: the program runs a block the file no longer holds.
    Changed,
    /// No file to read (the error says why).
    Missing(String),
}

/// Compares `built_from`, a lab file's text when the program was built,
/// with the file's content now, or the error of reading it. Byte for byte:
/// whether a change matters to the block is for the compiler to say.
pub fn compare(built_from: &str, on_disk: io::Result<Vec<u8>>) -> Source {
    match on_disk {
        Ok(bytes) if bytes == built_from.as_bytes() => Source::Built,
        Ok(_) => Source::Changed,
        Err(e) => Source::Missing(e.to_string()),
    }
}

/// Lab `lab`'s file in `workspace` (as [`workspace`] gives it), and how
/// it compares with the text this program was built from.
pub fn source_on_disk(lab: &Lab, workspace: &Path) -> (PathBuf, Source) {
    let path = match workspace == Path::new(".") {
        true => PathBuf::from(lab.file),
        false => workspace.join(lab.file),
    };
    let source = compare(lab.built_from, std::fs::read(&path));
    (path, source)
}

/// Runs lab `number`'s block (the student's file, or with `solution` its
/// solution) on the lab's messages with the lab's stimulus, and checks
/// every word against the reference and that every output is a register.
pub fn check(number: usize, solution: bool) -> Result<Summary<Unit>> {
    let lab = find(number)?;
    check_on(number, solution, &(lab.input)(), &lab.stimulus)
}

/// Runs lab `number`'s block (or its solution) on any messages, as
/// `stimulus` offers them, and checks every word against the reference.
pub fn check_on(
    number: usize,
    solution: bool,
    messages: &[Vec<u8>],
    stimulus: &Stimulus,
) -> Result<Summary<Unit>> {
    let lab = find(number)?;
    let run = if solution { lab.solution } else { lab.start };
    Ok(run(messages, stimulus))
}

fn verilog<C: Core + Default>() -> String {
    let mut block = C::default().block();
    block.connect_all();
    generate_verilog(&block)
}

/// Runs core `C`, a lab's block ([`lab_core!`]), on `messages` as
/// `stimulus` offers them, on [`Registered`], and checks every word
/// against the reference: the first difference, or the first output that
/// is not a register.
pub fn run<C: Core<Input = u8, Model = Reference> + Default>(
    messages: &[Vec<u8>],
    stimulus: &Stimulus,
) -> Summary<Unit> {
    let checked = run_checked_messages(
        Harness::on(Registered::new(C::default())),
        messages,
        stimulus,
        |_| Ok::<(), Infallible>(()),
        &mut |_, _| {},
    );
    match checked {
        Ok(summary) => summary,
        Err(never) => match never {},
    }
}

/// rust-hdl's simulation of a lab's block ([`RustHdl`]), which also checks
/// that every output is a register. A cycle runs as in the decoder's
/// harness: the inputs are driven and the logic settles while the clock is
/// low, then the clock rises. Here the outputs are also compared after the
/// first half with those the cycle began with: no clock edge came between,
/// so an output that moved follows an input through logic alone, as a
/// wire would (the decoder's harness samples each cycle's outputs before
/// it drives the inputs, so a wire from an input looks like a register).
/// [`Engine::fault`] then names the output and the input, found by driving
/// the cycle's changes one input port at a time.
pub struct Registered<C: Core> {
    engine: RustHdl<C>,
    /// What the ports were driven with in the cycle before: `tvalid`, and
    /// the lines of the last beat offered, which hold while none is.
    rst: bool,
    tvalid: bool,
    lines: Beat<C::Input>,
    m_axis_tready: bool,
    fault: Option<String>,
}

impl<C: Core> Registered<C> {
    /// The core's block, settled with every input low, as before a reset.
    pub fn new(core: C) -> Self {
        let mut engine =
            RustHdl::new(core).expect("the design passes rust-hdl's structural checks");
        settle(&mut engine.uut);
        Registered {
            engine,
            rst: false,
            tvalid: false,
            lines: Beat::new(&[], false),
            m_axis_tready: false,
            fault: None,
        }
    }

    /// The input port whose change moved an output in this cycle, and the
    /// output ports it moved, as [`Engine::fault`] tells them.
    fn blame(&mut self, before: &OutputsOf<C>, inputs: &InputsOf<C>) -> String {
        let mut now = InputsOf::<C> {
            rst: self.rst,
            s_axis: self.tvalid.then_some(self.lines),
            m_axis_tready: self.m_axis_tready,
        };
        let mut lines = self.lines;
        let mut changes = Vec::new();
        now.rst = inputs.rst;
        changes.push(("rst", now));
        now.m_axis_tready = inputs.m_axis_tready;
        changes.push(("m_axis_tready", now));
        now.s_axis = inputs.s_axis.map(|_| lines);
        changes.push(("s_axis_tvalid", now));
        if let Some(beat) = inputs.s_axis {
            lines.tlast = beat.tlast;
            now.s_axis = Some(lines);
            changes.push(("s_axis_tlast", now));
            lines.tkeep = beat.tkeep;
            now.s_axis = Some(lines);
            changes.push(("s_axis_tkeep", now));
            lines.lanes = beat.lanes;
            now.s_axis = Some(lines);
            changes.push(("s_axis_tdata", now));
        }
        let uut = &mut self.engine.uut;
        let mut blamed = None;
        for (input, step) in changes {
            C::drive(uut, &step);
            settle(uut);
            let ports = moved(before, &C::sample(uut));
            if !ports.is_empty() {
                blamed = Some((input, ports));
                break;
            }
        }
        // Back to the cycle's inputs.
        C::drive(uut, inputs);
        settle(uut);
        let (input, ports) = blamed.unwrap_or_else(|| ("an input", moved(before, &C::sample(uut))));
        match ports.as_slice() {
            [port] => format!(
                "{port} follows {input} combinationally: it changed with {input}, before the \
                 clock's rising edge; {port} must be a register"
            ),
            _ => format!(
                "{} follow {input} combinationally: they changed with {input}, before the \
                 clock's rising edge; every output must be a register",
                ports.join(" and ")
            ),
        }
    }
}

/// The output ports whose values differ from `a` to `b` (the lines of
/// `m_axis` only while `m_axis_tvalid` is high in both).
fn moved<O: Lane>(a: &Outputs<O>, b: &Outputs<O>) -> Vec<&'static str> {
    let mut ports = Vec::new();
    if a.s_axis_tready != b.s_axis_tready {
        ports.push("s_axis_tready");
    }
    match (&a.m_axis, &b.m_axis) {
        (Some(a), Some(b)) => {
            let differ = |lane: fn(&O) -> u32| {
                a.lanes
                    .iter()
                    .zip(&b.lanes)
                    .any(|(x, y)| lane(x) != lane(y))
            };
            if differ(O::tdata) {
                ports.push("m_axis_tdata");
            }
            if differ(O::tuser) {
                ports.push("m_axis_tuser");
            }
            if a.tkeep != b.tkeep {
                ports.push("m_axis_tkeep");
            }
            if a.tlast != b.tlast {
                ports.push("m_axis_tlast");
            }
        }
        (None, None) => {}
        _ => ports.push("m_axis_tvalid"),
    }
    ports
}

impl<C: Core> Engine for Registered<C> {
    type Core = C;

    fn core(&self) -> &C {
        self.engine.core()
    }

    fn outputs(&self) -> OutputsOf<C> {
        self.engine.outputs()
    }

    fn step(
        &mut self,
        inputs: &InputsOf<C>,
        probes: Option<&mut Values>,
        outputs: &mut OutputsOf<C>,
    ) {
        assert!(probes.is_none(), "a lab's block shows no probes");
        let uut = &mut self.engine.uut;
        *outputs = C::sample(uut);
        C::drive(uut, inputs);
        C::clock(uut).next = Clock::from(false);
        settle(uut);
        if self.fault.is_none() && C::sample(uut) != *outputs {
            self.fault = Some(self.blame(outputs, inputs));
        }
        let uut = &mut self.engine.uut;
        C::clock(uut).next = Clock::from(true);
        settle(uut);
        self.rst = inputs.rst;
        self.tvalid = inputs.s_axis.is_some();
        if let Some(beat) = inputs.s_axis {
            self.lines = beat;
        }
        self.m_axis_tready = inputs.m_axis_tready;
    }

    fn fault(&self) -> Option<&str> {
        self.fault.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file is current only when it is the very text the program was
    /// built from; an edit anywhere, or no file, is not.
    #[test]
    fn a_lab_file_is_compared_with_the_text_it_was_built_from() {
        let built = "pub struct Block;\n";
        assert_eq!(compare(built, Ok(built.as_bytes().to_vec())), Source::Built);
        let edited = "pub struct Block; // solved\n";
        assert_eq!(
            compare(built, Ok(edited.as_bytes().to_vec())),
            Source::Changed
        );
        assert_eq!(compare(built, Ok(Vec::new())), Source::Changed);
        let gone = io::Error::from(io::ErrorKind::NotFound);
        assert!(matches!(compare(built, Err(gone)), Source::Missing(_)));
    }

    /// Each lab's embedded text is its own file's: a test build has just
    /// compiled every file, so they are the same, unless a `built_from`
    /// names another lab's file than its `file`.
    #[test]
    fn each_lab_embeds_its_own_file() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        for lab in LABS {
            let (path, source) = source_on_disk(lab, root);
            assert_eq!(
                source,
                Source::Built,
                "lab {}: {}",
                lab.number,
                path.display()
            );
        }
    }
}
