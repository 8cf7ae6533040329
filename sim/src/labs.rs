//! The guide's labs as cores (`docs/labs.md`): each lab block is a [`Core`],
//! checked by the decoder's own harness and checker against the reference
//! decoder, on an input chosen for what the lab teaches. `utf8hdl lab
//! check N` prints the checker's first difference, as for the decoder.

use std::convert::Infallible;

use anyhow::{bail, Result};
use utf8hdl_hdl::labs;
use utf8hdl_hdl::Profile;

use crate::checker::{run_checked, Stalls, Stimulus, Summary};
use crate::core::Core;
use crate::harness::Harness;

/// One lab: what it teaches and the input it is checked on.
pub struct Lab {
    pub number: usize,
    pub title: &'static str,
    /// Its file, the student's (`solutions/` has the same name).
    pub file: &'static str,
    /// The bytes it is checked on, as one message.
    pub input: fn() -> Vec<u8>,
    /// How the source offers them and the sink takes the words.
    pub stimulus: Stimulus,
    /// Runs the student's block on an input.
    pub start: fn(&[u8], &Stimulus) -> Summary,
    /// Runs the solution's.
    pub solution: fn(&[u8], &Stimulus) -> Summary,
}

/// Every lab's stimulus so far: a byte offered on every clock, the sink
/// always ready, and the input as one message (an end inside a two-octet
/// character would make its lead truncated, which lab 2's block is not
/// asked to know).
pub const ALWAYS_READY: Stimulus = Stimulus {
    source: Stalls::Never,
    sink: Stalls::Never,
    null_lanes: 0.0,
    message_end: 0.0,
    seed: 1,
};

/// The labs, in order.
pub const LABS: &[Lab] = &[
    Lab {
        number: 1,
        title: "ASCII passthrough",
        file: "hdl/src/labs/lab1_ascii.rs",
        input: ascii,
        stimulus: ALWAYS_READY,
        start: run::<Lab1>,
        solution: run::<Lab1Solution>,
    },
    Lab {
        number: 2,
        title: "two-octet characters",
        file: "hdl/src/labs/lab2_two_bytes.rs",
        input: two_octets,
        stimulus: ALWAYS_READY,
        start: run::<Lab2>,
        solution: run::<Lab2Solution>,
    },
    Lab {
        number: 3,
        title: "three- and four-octet characters",
        file: "hdl/src/labs/lab3_long_characters.rs",
        input: every_length,
        stimulus: ALWAYS_READY,
        start: run::<Lab3>,
        solution: run::<Lab3Solution>,
    },
];

/// Every ASCII byte, up and down, so that equal bytes meet (7F 7F).
fn ascii() -> Vec<u8> {
    (0..0x80u8).chain((0..0x80).rev()).collect()
}

/// Every code point from U+0000 to U+07FF, in UTF-8 (Rust's encoder).
fn two_octets() -> Vec<u8> {
    (0..0x800u32)
        .filter_map(char::from_u32)
        .collect::<String>()
        .into_bytes()
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

/// A lab's block as a core: no state shown beyond the ports, the latency
/// of a one-register design.
macro_rules! lab_core {
    ($name:ident, $block:ty, $module:literal) => {
        #[derive(Copy, Clone, Debug, Default)]
        pub struct $name;

        impl Core for $name {
            type Block = $block;
            const STATE: &'static [&'static str] = &[];
            const LATENCY: u64 = 1;

            fn name(&self) -> String {
                $module.into()
            }

            fn profile(&self) -> Profile {
                Profile::Rfc3629
            }

            fn block(&self) -> $block {
                Default::default()
            }

            $crate::axis_io!($block);
        }
    };
}

lab_core!(Lab1, labs::lab1_ascii::AsciiPassthrough, "lab1_ascii");
lab_core!(
    Lab1Solution,
    labs::solutions::lab1_ascii::AsciiPassthrough,
    "lab1_ascii"
);
lab_core!(Lab2, labs::lab2_two_bytes::TwoByteDecoder, "lab2_two_bytes");
lab_core!(
    Lab2Solution,
    labs::solutions::lab2_two_bytes::TwoByteDecoder,
    "lab2_two_bytes"
);
lab_core!(
    Lab3,
    labs::lab3_long_characters::LongCharacterDecoder,
    "lab3_long_characters"
);
lab_core!(
    Lab3Solution,
    labs::solutions::lab3_long_characters::LongCharacterDecoder,
    "lab3_long_characters"
);

/// Looks a lab up by number.
pub fn find(number: usize) -> Result<&'static Lab> {
    match LABS.iter().find(|lab| lab.number == number) {
        Some(lab) => Ok(lab),
        None => bail!("no lab {number} (labs: 1 to {})", LABS.len()),
    }
}

/// Runs lab `number`'s block (the student's file, or with `solution` its
/// solution) on the lab's input with the lab's stimulus, and checks every
/// word against the reference.
pub fn check(number: usize, solution: bool) -> Result<Summary> {
    let lab = find(number)?;
    check_on(number, solution, &(lab.input)(), &lab.stimulus)
}

/// Runs lab `number`'s block (or its solution) on any input, as `stimulus`
/// offers it, and checks every word against the reference.
pub fn check_on(
    number: usize,
    solution: bool,
    input: &[u8],
    stimulus: &Stimulus,
) -> Result<Summary> {
    let lab = find(number)?;
    let run = if solution { lab.solution } else { lab.start };
    Ok(run(input, stimulus))
}

fn run<C: Core + Default>(input: &[u8], stimulus: &Stimulus) -> Summary {
    let checked = run_checked(
        Harness::new(C::default()),
        input.iter().copied(),
        stimulus,
        |_| Ok::<(), Infallible>(()),
        &mut |_, _| {},
    );
    match checked {
        Ok(summary) => summary,
        Err(never) => match never {},
    }
}
