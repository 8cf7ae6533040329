//! The guide's labs (`docs/labs.md`): what each lab is ([`LABS`]: its
//! title, its file, the messages and stimulus it is checked on), and how a
//! lab's block is checked: by the decoder's own checker against the
//! reference decoder, on [`Registered`], rust-hdl's engine with one more
//! check, that every output is a register.
//!
//! The blocks themselves are in two crates of their own, so that a
//! student's edit recompiles only the block's crate, and so that a
//! teacher can hand out one without the other: the starting files
//! ([`STUDENT`], the `labs` program) and the solutions ([`SOLUTIONS`], the
//! `lab-solutions` program). Each crate lists its blocks with
//! [`lab_blocks!`] and its program is [`program::main`].
//!
//! A program checks the blocks compiled into it, while its verdict names
//! the file: so it keeps the text of each file it was built from
//! ([`LabBlock::built_from`]), and [`source_on_disk`] tells whether the
//! file is still that text.

mod messages;
pub mod program;
mod registered;
mod report;

use std::convert::Infallible;
use std::io;
use std::ops::Range;
use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use rust_hdl::prelude::{generate_verilog, Block};

use crate::checker::{run_checked_messages, Stalls, Stimulus, Summary};
use crate::core::Core;
use crate::harness::Harness;
use crate::reference::Unit;
use crate::waveform::{TimescaleUnit, VcdRecorder};
use messages::*;

pub use crate::cores::utf8_decoder::{Reference, Word};
pub use registered::Registered;
pub use utf8hdl_hdl::Profile;

/// The crate of the starting files, the students' own, from the
/// workspace's root.
pub const STUDENT: &str = "docs/labs/student";
/// The crate of the solutions, which a teacher may withhold.
pub const SOLUTIONS: &str = "docs/labs/solutions";

/// One lab: what it teaches and the messages it is checked on.
pub struct Lab {
    /// What `check` takes: `1`, `3a`.
    pub id: &'static str,
    pub title: &'static str,
    /// Its file's module, the same in [`STUDENT`] and [`SOLUTIONS`].
    pub module: &'static str,
    /// The messages it is checked on, one after another (each one's last
    /// byte carries `s_axis_tlast`).
    pub input: fn() -> Vec<Vec<u8>>,
    /// How the source offers them and the sink takes the words.
    pub stimulus: Stimulus,
}

impl Lab {
    /// Its file in the crate at `crate_dir`, from the workspace's root.
    pub fn file(&self, crate_dir: &str) -> String {
        format!("{crate_dir}/src/{}.rs", self.module)
    }
}

/// The stimulus of labs 1 to 4 (3a and 3b too), 6 and 8: a beat offered on every clock,
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
        id: "1",
        title: "ASCII passthrough",
        module: "lab1_ascii",
        input: ascii_messages,
        stimulus: ALWAYS_READY,
    },
    Lab {
        id: "2",
        title: "two-octet characters",
        module: "lab2_two_bytes",
        input: two_octet_messages,
        stimulus: ALWAYS_READY,
    },
    Lab {
        id: "3",
        title: "three- and four-octet characters",
        module: "lab3_long_characters",
        input: every_length_messages,
        stimulus: ALWAYS_READY,
    },
    Lab {
        id: "3a",
        title: "open sequences",
        module: "lab3a_open_sequences",
        input: open_sequence_messages,
        stimulus: ALWAYS_READY,
    },
    Lab {
        id: "3b",
        title: "bounds",
        module: "lab3b_bounds",
        input: bounds_messages,
        stimulus: ALWAYS_READY,
    },
    Lab {
        id: "4",
        title: "the error policy",
        module: "lab4_error_policy",
        input: malformed_messages,
        stimulus: ALWAYS_READY,
    },
    Lab {
        id: "5",
        title: "backpressure",
        module: "lab5_backpressure",
        input: ascii_in_messages,
        stimulus: RANDOM_STALLS,
    },
    Lab {
        id: "6",
        title: "the byte classifier",
        module: "lab6_classifier",
        input: malformed_messages,
        stimulus: ALWAYS_READY,
    },
    Lab {
        id: "7",
        title: "the full decoder",
        module: "lab7_full_decoder",
        input: malformed_messages,
        stimulus: RANDOM_STALLS,
    },
    Lab {
        id: "8",
        title: "one wide step",
        module: "lab8_wide_step",
        input: two_octets_in_messages,
        stimulus: ALWAYS_READY,
    },
];

/// Looks a lab up by its id.
pub fn find(id: &str) -> Result<&'static Lab> {
    match LABS.iter().find(|lab| lab.id == id) {
        Some(lab) => Ok(lab),
        None => {
            let ids: Vec<&str> = LABS.iter().map(|lab| lab.id).collect();
            bail!("no lab '{id}' (labs: {})", ids.join(", "))
        }
    }
}

/// A lab's block as a crate of blocks ([`STUDENT`] or [`SOLUTIONS`])
/// compiled it ([`lab_blocks!`]).
pub struct LabBlock {
    pub lab: &'static Lab,
    /// The crate, from the workspace's root.
    pub crate_dir: &'static str,
    /// The text of the block's file that the crate was built from.
    pub built_from: &'static str,
    /// Runs the block on messages, as a stimulus offers them, and records
    /// the waveform of the cycles in a window ([`run`]).
    pub run: fn(&[Vec<u8>], &Stimulus, Range<u64>) -> Run,
    /// Its Verilog (rust-hdl's `generate_verilog`, top module `top`).
    pub verilog: fn() -> String,
}

impl LabBlock {
    /// Its file, from the workspace's root.
    pub fn file(&self) -> String {
        self.lab.file(self.crate_dir)
    }

    /// Runs it on its lab's messages, with its lab's stimulus.
    pub fn check(&self) -> Summary<Unit> {
        (self.run)(&(self.lab.input)(), &self.lab.stimulus, 0..0).summary
    }
}

/// What a run of a lab's block gives.
pub struct Run {
    pub summary: Summary<Unit>,
    /// How far the checked units reached: the stream offset after the
    /// last one that agreed.
    pub agreed_to: usize,
    /// The VCD of the cycles in the window asked for (empty for none).
    pub vcd: Vec<u8>,
    /// The block's scope in the VCD.
    pub scope: String,
    /// Its input lanes.
    pub lanes: usize,
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

/// The blocks of a crate of lab blocks, one module per lab, named as the
/// lab's [`Lab::module`] (each file's block has the same name in every
/// such crate): `lab_blocks!(crate, "docs/labs/student")` in the crate's
/// root defines `BLOCKS`, a [`LabBlock`] of each lab in [`LABS`]'s order,
/// and `cores`, each block as a [`lab_core!`].
#[macro_export]
macro_rules! lab_blocks {
    ($root:tt, $dir:expr) => {
        $crate::lab_blocks!(@ $root, $dir;
            0 lab1_ascii::AsciiPassthrough 1,
            1 lab2_two_bytes::TwoByteDecoder 1,
            2 lab3_long_characters::LongCharacterDecoder 1,
            3 lab3a_open_sequences::OpenSequenceDecoder 1,
            4 lab3b_bounds::BoundsDecoder 1,
            5 lab4_error_policy::ErrorPolicyDecoder 1,
            6 lab5_backpressure::BackpressurePassthrough 1,
            7 lab6_classifier::ClassifiedDecoder 2,
            8 lab7_full_decoder::FullDecoder 2,
            9 lab8_wide_step::WideStepDecoder 1; tkeep
        );
    };
    (@ $root:tt, $dir:expr; $($index:literal $module:ident::$block:ident $latency:literal $(; $tkeep:ident)?),*) => {
        /// Each lab's block as a core: `cores::<module>::Lab`.
        pub mod cores {
            $(pub mod $module {
                $crate::lab_core!(Lab, $root::$module::$block, stringify!($module), $latency $(; $tkeep)?);
            })*
        }

        /// Every lab's block, in the order of the labs.
        pub const BLOCKS: &[$crate::labs::LabBlock] = &[$(
            $crate::labs::LabBlock {
                lab: &$crate::labs::LABS[$index],
                crate_dir: $dir,
                built_from: include_str!(concat!(
                    env!("CARGO_MANIFEST_DIR"), "/src/", stringify!($module), ".rs"
                )),
                run: $crate::labs::run::<cores::$module::Lab>,
                verilog: $crate::labs::verilog::<cores::$module::Lab>,
            }
        ),*];
    };
}

/// The directory that holds the lab files a program compares with the
/// texts it was built from: the current directory when it has the crate
/// `crate_dir` (shown as `.`, so that a file is named as the guide names
/// it), else the workspace this program was built in (for a run from a
/// subdirectory, or of an installed binary).
pub fn workspace(crate_dir: &str) -> PathBuf {
    if Path::new(crate_dir).join("src").is_dir() {
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

/// `block`'s file in `workspace` (as [`workspace`] gives it), and how it
/// compares with the text this program was built from.
pub fn source_on_disk(block: &LabBlock, workspace: &Path) -> (PathBuf, Source) {
    let path = match workspace == Path::new(".") {
        true => PathBuf::from(block.file()),
        false => workspace.join(block.file()),
    };
    let source = compare(block.built_from, std::fs::read(&path));
    (path, source)
}

/// Core `C`'s Verilog, top module `top`.
pub fn verilog<C: Core + Default>() -> String {
    let mut block = C::default().block();
    block.connect_all();
    generate_verilog(&block)
}

/// The clock period of a lab's waveform, in ns.
const PERIOD: u64 = 10;

/// Runs core `C`, a lab's block ([`lab_core!`]), on `messages` as
/// `stimulus` offers them, on [`Registered`], and checks every word
/// against the reference: the first difference, or the first output that
/// is not a register. The waveform of the cycles in `window` is recorded.
pub fn run<C: Core<Input = u8, Model = Reference> + Default>(
    messages: &[Vec<u8>],
    stimulus: &Stimulus,
    window: Range<u64>,
) -> Run {
    let core = C::default();
    let mut harness = Harness::on(Registered::new(C::default()));
    harness.probe_window = window.clone();
    let mut recorder = VcdRecorder::new(Vec::new(), &core, window, PERIOD, TimescaleUnit::NS)
        .expect("a lab's ports make a waveform");
    let mut agreed_to = 0;
    let checked = run_checked_messages(
        harness,
        messages,
        stimulus,
        |unit| {
            agreed_to = unit.span.end;
            Ok::<(), Infallible>(())
        },
        &mut |cycle, values| {
            if let Some(values) = values {
                recorder
                    .record(cycle, values)
                    .expect("a lab's run stays far from 2^64 ns");
            }
        },
    );
    let summary = match checked {
        Ok(summary) => summary,
        Err(never) => match never {},
    };
    Run {
        summary,
        agreed_to,
        vcd: recorder.finish().expect("written to memory"),
        scope: core.name(),
        lanes: core.lanes().map_or(1, |lanes| lanes.count),
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
}
