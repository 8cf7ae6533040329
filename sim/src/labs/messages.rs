//! The messages each lab is checked on ([`super::Lab::input`]), chosen
//! for what the lab teaches: every character its block must decode, and
//! the message ends, error kinds and open sequences it must meet.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Every ASCII byte, up and down, so that equal bytes meet (7F 7F).
fn ascii() -> Vec<u8> {
    (0..0x80u8).chain((0..0x80).rev()).collect()
}

/// `long` as one message, then each of `short`, a message of its own.
fn then_each(long: Vec<u8>, short: &[&str]) -> Vec<Vec<u8>> {
    let short = short.iter().map(|m| m.as_bytes().to_vec());
    std::iter::once(long).chain(short).collect()
}

/// The characters of `code_points` (those that are characters) in UTF-8,
/// by Rust's encoder.
fn utf8(code_points: impl Iterator<Item = u32>) -> Vec<u8> {
    code_points
        .filter_map(char::from_u32)
        .collect::<String>()
        .into_bytes()
}

/// `bytes` cut into messages of `lengths`, in turn (the last one shorter
/// where `bytes` run out).
fn cut(bytes: &[u8], mut lengths: impl FnMut() -> usize) -> Vec<Vec<u8>> {
    let mut messages = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        let length = lengths().min(rest.len());
        messages.push(rest[..length].to_vec());
        rest = &rest[length..];
    }
    messages
}

/// Lab 1's messages: [`ascii`], then short ones, down to a byte, so that
/// words with `m_axis_tlast` come in a row, and both ends of ASCII.
pub fn ascii_messages() -> Vec<Vec<u8>> {
    let short = ["A", "B", "CD", "\0", "\x7F", "EFG", "\x7F\0", "H"];
    then_each(ascii(), &short)
}

/// Every code point from U+0000 to U+07FF, in UTF-8 (Rust's encoder).
fn two_octets() -> Vec<u8> {
    utf8(0..0x800)
}

/// Lab 2's messages: [`two_octets`], then short ones that end and start
/// with two-octet characters, both ends of the range among them. Every
/// message is well formed: an end inside a character would make its lead
/// truncated, which lab 2's block is not asked to know (lab 4 is).
pub fn two_octet_messages() -> Vec<Vec<u8>> {
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
    then_each(two_octets(), &short)
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
pub fn two_octets_in_messages() -> Vec<Vec<u8>> {
    let short = [
        "é",
        "ab",
        "\u{80}\u{7FF}",
        "aéb",
        ".\u{7FF}.",
        "\u{7FF}",
        "\0\u{7F}",
    ];
    then_each(two_octets_both_alignments(), &short)
}

/// Every code point from U+0000 to U+FFFF but the surrogates, then every
/// 251st up to U+10FFFF (both ends of every length), in UTF-8.
fn every_length() -> Vec<u8> {
    utf8(
        (0..0x1_0000)
            .chain((0x1_0000..=0x10_FFFF).step_by(251))
            .chain([0x10_FFFF]),
    )
}

/// Lab 3's messages: [`every_length`], then short ones that end and start
/// with characters of three and four octets, the first and last of each
/// length and those beside the surrogates among them; all well formed, as
/// in lab 2.
pub fn every_length_messages() -> Vec<Vec<u8>> {
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
    then_each(every_length(), &short)
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

/// For each of [`OPEN_ENDS`], a message that ends inside the character,
/// one that starts with the rest of it (which a decoder that carries its
/// state across the end would complete), the open part alone, and one of
/// ASCII.
fn open_ends() -> impl Iterator<Item = Vec<u8>> {
    OPEN_ENDS.iter().flat_map(|(open, rest)| {
        [
            [b"a", *open].concat(),
            [*rest, b"b"].concat(),
            open.to_vec(),
            b"c".to_vec(),
        ]
    })
}

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
/// [`EDGE_CASES`] as one; then [`open_ends`]; then [`SHORT_MALFORMED`]; then a
/// fixed-seed random mix of characters of every length and fragments of
/// every error kind (which also meet at random), cut into messages of 1 to
/// 64 bytes at random, so that they end in every state again. The last
/// message ends in `E2 82 F0`: F0 breaks E2 82 and is left truncated by
/// the end of the message, two words from the last byte.
pub fn malformed_messages() -> Vec<Vec<u8>> {
    let mut messages = vec![EDGE_CASES.concat()];
    messages.extend(open_ends());
    messages.extend(SHORT_MALFORMED.iter().map(|m| m.to_vec()));
    let mut bytes = random_mix();
    bytes.extend(b"\xE2\x82\xF0");
    let mut rng = StdRng::seed_from_u64(40);
    messages.extend(cut(&bytes, || rng.gen_range(1..=64)));
    messages
}

/// A random character of `length` octets, in UTF-8.
fn character(rng: &mut StdRng, length: u32) -> Vec<u8> {
    let range = match length {
        1 => 0..0x80,
        2 => 0x80..0x800,
        3 => 0x800..0x1_0000,
        _ => 0x1_0000..0x11_0000,
    };
    loop {
        if let Some(c) = char::from_u32(rng.gen_range(range.clone())) {
            return c.to_string().into_bytes();
        }
    }
}

/// A random continuing octet.
fn continuing(rng: &mut StdRng) -> u8 {
    rng.gen_range(0x80..=0xBF)
}

/// A fixed-seed random mix of characters of every length and fragments of
/// every error kind.
fn random_mix() -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut rng = StdRng::seed_from_u64(4);
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
pub fn ascii_in_messages() -> Vec<Vec<u8>> {
    let mut messages = vec![ascii()];
    let mut lengths = [1, 1, 2, 3, 5, 8, 13].into_iter().cycle();
    messages.extend(cut(&ascii().repeat(2), || lengths.next().unwrap_or(1)));
    messages.push(ascii().repeat(5));
    messages
}

/// Sequences broken by a lead, one message: the lead opens its own
/// character, which completes (chapter 4's `E2 E2 82 AC`).
const BROKEN_BY_A_LEAD: &[&[u8]] = &[
    b"\xC3\xE2\x82\xAC",         // é after 1 of 2, then €
    b"\xE2\xE2\x82\xAC",         // € after 1 of 3, then €
    b"\xE2\x82\xC3\xA9",         // € after 2 of 3, then é
    b"\xF0\xF0\x9F\x98\x80",     // 😀 after 1 of 4, then 😀
    b"\xF0\x9F\xC2\xA9",         // 😀 after 2 of 4, then ©
    b"\xF0\x9F\x98\xE2\x82\xAC", // 😀 after 3 of 4, then €
];

/// Lab 3a's messages, whose bytes give one word each at the most: a
/// message of [`BROKEN_BY_A_LEAD`]; then [`open_ends`]; then a fixed-seed random
/// mix of characters of every length, lone continuing octets and
/// characters cut short, each cut-short one followed by a character of
/// two or more octets (whose lead breaks it), in messages of 1 to 8 of
/// these, so that messages also end inside a character.
pub fn open_sequence_messages() -> Vec<Vec<u8>> {
    let mut messages = vec![BROKEN_BY_A_LEAD.concat()];
    messages.extend(open_ends());
    let mut rng = StdRng::seed_from_u64(3);
    messages.extend(in_messages(&mut rng, |rng, message| {
        match rng.gen_range(0..6) {
            0..=2 => {
                let length = rng.gen_range(1..=4);
                message.extend(character(rng, length));
            }
            3 => {
                let count = rng.gen_range(1..=3);
                message.extend((0..count).map(|_| continuing(rng)));
            }
            _ => {
                let length = rng.gen_range(2..=4);
                let cut = character(rng, length);
                message.extend(&cut[..rng.gen_range(1..cut.len())]);
                if rng.gen_range(0..4) == 0 {
                    // The message ends inside the character.
                    return Fragment::EndsTheMessage;
                }
                let length = rng.gen_range(2..=4);
                message.extend(character(rng, length));
            }
        }
        Fragment::Added
    }));
    messages
}

/// What a fragment did to the message [`in_messages`] builds.
#[derive(PartialEq)]
enum Fragment {
    Added,
    /// The message ends after it, whatever its count of fragments.
    EndsTheMessage,
}

/// 3,000 fragments, each added to the message by `fragment`, in messages
/// of 1 to 8 fragments at random (or fewer, where a fragment ends its
/// message).
fn in_messages(
    rng: &mut StdRng,
    mut fragment: impl FnMut(&mut StdRng, &mut Vec<u8>) -> Fragment,
) -> Vec<Vec<u8>> {
    let mut messages = Vec::new();
    let mut message = Vec::new();
    let mut fragments = 0;
    for _ in 0..3000 {
        if fragment(rng, &mut message) == Fragment::EndsTheMessage {
            messages.push(std::mem::take(&mut message));
            fragments = 0;
            continue;
        }
        fragments += 1;
        if fragments >= rng.gen_range(1..=8) {
            messages.push(std::mem::take(&mut message));
            fragments = 0;
        }
    }
    if !message.is_empty() {
        messages.push(message);
    }
    messages
}

/// RFC 3629 §4's bounds, one message: for each lead of a character, the
/// lowest and the highest second byte it takes, as characters; for E0,
/// ED, F0 and F4, the second bytes just outside and furthest outside
/// their bounds (the lead alone is one U+FFFD, then the second byte is
/// read again where a unit starts: a lone continuing octet, as is any
/// continuing octet after it); and the leads outside C2–F4, each a U+FFFD
/// of its own. A second byte out of bounds gives two words; the bytes
/// after it, until a lead of a character, give U+FFFD
/// `unexpected_continuation` or nothing, so that the second word can wait
/// a cycle in one flop (any other word after it is lab 4's).
const BOUNDS: &[&[u8]] = &[
    b"\xE0\xA0\x80",         // U+0800: E0 takes A0-BF
    b"\xE0\x9F\xBF",         // overlong U+07FF: E0 alone, then 9F, BF
    b"\xE0\xBF\xBF",         // U+0FFF
    b"\xE0\x80\x80",         // overlong U+0000
    b"\xE1\x80\x80",         // U+1000: E1-EC take 80-BF
    b"\xEC\xBF\xBF",         // U+CFFF
    b"\xED\x80\x80",         // U+D000: ED takes 80-9F
    b"\xED\x9F\xBF",         // U+D7FF
    b"\xED\xA0\x80",         // surrogate U+D800: ED alone, then A0, 80
    b"\xEE\x80\x80",         // U+E000: EE-EF take 80-BF
    b"\xED\xBF\xBF",         // surrogate U+DFFF
    b"\xEF\xBF\xBF",         // U+FFFF
    b"\xF0\x90\x80\x80",     // U+10000: F0 takes 90-BF
    b"\xF0\x8F\xBF\xBF",     // overlong U+FFFF: F0 alone, then 3 more
    b"\xF0\xBF\xBF\xBF",     // U+3FFFF
    b"\xF0\x80\x80\x80",     // overlong U+0000
    b"\xF1\x80\x80\x80",     // U+40000: F1-F3 take 80-BF
    b"\xF3\xBF\xBF\xBF",     // U+FFFFF
    b"\xF4\x80\x80\x80",     // U+100000: F4 takes 80-8F
    b"\xF4\x8F\xBF\xBF",     // U+10FFFF
    b"\xF4\x90\x80\x80",     // U+110000: out of range, F4 alone
    b"\xC2\x80",             // U+0080: C2-DF take 80-BF
    b"\xF4\xBF\xBF\xBF",     // out of range
    b"\xDF\xBF",             // U+07FF
    b"\xC0\x80",             // overlong U+0000 (RFC 3629 §3): C0 alone
    b"\xC1\xBF",             // overlong U+007F
    b"\xF5\x80\x80\x80",     // F5-FD: out of range, each byte alone
    b"\xF7\xBF\xBF\xBF",     // (RFC 2279's last lead of four octets)
    b"\xF8\x88\x80\x80\x80", // (ISO/IEC 10646's five octets)
    b"\xFD\xBF",             // (and its six)
    b"\xFE\xFF",             // never in UTF-8
];

/// Messages that end where a second byte out of bounds has just given its
/// two words, the second with `m_axis_tlast`, each followed by one that
/// starts with a character; and bytes outside C2–F4 as messages of their
/// own.
const BOUNDS_AT_ENDS: &[&[u8]] = &[
    b"a\xE0\x80",
    b"\xC3\xA9b",
    b"\xED\xA0",
    b"\xF0\x9F\x98\x80",
    b"\xF0\x8F",
    b"\xE2\x82\xAC",
    b"\xF4\x90\xBF",
    b"\xC2\x80",
    b"\xC0",
    b"\xC1",
    b"\xF5",
    b"\xFD",
    b"\xFE",
    b"\xFF",
];

/// A second byte out of its lead's bounds and the continuing octets of the
/// character it would have made: E0 80-9F, ED A0-BF, F0 80-8F or F4 90-BF.
fn out_of_bounds(rng: &mut StdRng) -> Vec<u8> {
    let (lead, second, length) = match rng.gen_range(0..4) {
        0 => (0xE0, 0x80..=0x9F, 3),
        1 => (0xED, 0xA0..=0xBF, 3),
        2 => (0xF0, 0x80..=0x8F, 4),
        _ => (0xF4, 0x90..=0xBF, 4),
    };
    let mut bytes = vec![lead, rng.gen_range(second)];
    bytes.extend((2..rng.gen_range(2..=length)).map(|_| continuing(rng)));
    bytes
}

/// Lab 3b's messages: [`BOUNDS`] as one; then [`open_ends`];
/// then [`BOUNDS_AT_ENDS`]; then a fixed-seed random mix of characters of
/// every length, lone continuing octets, bytes outside C2–F4, characters
/// cut short by a lead, and second bytes out of bounds, each of these
/// followed by a character of two or more octets, in messages of 1 to 8 of
/// these, so that messages also end inside a character or after a second
/// byte out of bounds. As in lab 3a, no byte that is a unit by itself
/// breaks a sequence (lab 4).
pub fn bounds_messages() -> Vec<Vec<u8>> {
    let mut messages = vec![BOUNDS.concat()];
    messages.extend(open_ends());
    messages.extend(BOUNDS_AT_ENDS.iter().map(|m| m.to_vec()));
    let mut rng = StdRng::seed_from_u64(30);
    // A character of two or more octets must come next: after a second
    // byte out of bounds, and after a character cut short.
    let mut lead_due = false;
    messages.extend(in_messages(&mut rng, |rng, message| {
        if lead_due {
            let length = rng.gen_range(2..=4);
            message.extend(character(rng, length));
            lead_due = false;
        } else {
            match rng.gen_range(0..8) {
                0..=2 => {
                    let length = rng.gen_range(1..=4);
                    message.extend(character(rng, length));
                }
                3 => message.push(continuing(rng)),
                4 => message.push(rng.gen_range(0xF5..=0xFF)),
                5 => message.push(rng.gen_range(0xC0..=0xC1)),
                6 => {
                    let length = rng.gen_range(2..=4);
                    let cut = character(rng, length);
                    message.extend(&cut[..rng.gen_range(1..cut.len())]);
                    lead_due = true;
                }
                _ => {
                    message.extend(out_of_bounds(rng));
                    lead_due = true;
                }
            }
        }
        Fragment::Added
    }));
    messages
}
