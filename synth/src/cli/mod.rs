//! The command line: its commands ([`Cli`]), a module a subcommand, and
//! what they share: the arguments ([`args`]), the engines ([`engine`]),
//! chains of cores ([`chain`]), waveforms, progress, signals and what is
//! reported ([`report`]).

use clap::{Parser, Subcommand};

pub mod args;
pub mod bench;
pub mod chain;
pub mod datasheet;
pub mod encode;
pub mod engine;
pub mod formal;
pub mod interrupt;
pub mod lab;
pub mod main_job;
pub mod progress;
pub mod reference;
pub mod report;
pub mod sim;
pub mod synth;
pub mod validate;
pub mod verilog;
pub mod wave;
pub mod waveform;

/// A hardware UTF-8 → UCS-4 decoder in rust-hdl: simulate it, check it
/// against the reference, export it. With no command, simulates the
/// embedded sample, prints a table and writes utf8hdl.vcd.
#[derive(Parser)]
#[command(name = "utf8hdl", version)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand)]
pub enum Command {
    /// Decode with the software reference decoder.
    Reference(args::StreamArgs),
    /// Simulate the RTL cycle by cycle, checking every word against the reference.
    Sim(sim::SimArgs),
    /// Encode UCS-4 or UTF-16 as UTF-8 in the RTL (the UTF-8 encoder, after
    /// the UTF-16 decoder for UTF-16), checked against the references.
    Encode(encode::EncodeArgs),
    /// Validate UTF-8 in the RTL (the validator, N bytes a clock): the
    /// offset and kind of every error; exit 0 valid, 1 not valid.
    Validate(validate::ValidateArgs),
    /// Measure simulated cycles per second, VCD size and peak memory.
    Bench(bench::BenchArgs),
    /// Regenerate the guide's waveform figures (SVG) from real simulations.
    Wave(wave::WaveArgs),
    /// Export the decoder as one self-contained, lint-clean Verilog-2005 file.
    Verilog(verilog::VerilogArgs),
    /// Synthesise with Yosys and nextpnr: LUTs, flip-flops, carries, Fmax;
    /// or, with --board, build a bitstream.
    Synth(synth::SynthArgs),
    /// Render docs/datasheet.md from the measured records in docs/results,
    /// or check that it and every record are current.
    Datasheet(datasheet::DatasheetArgs),
    /// Prove the core's properties with SymbiYosys: one line per property,
    /// proven, passed BMC to depth K, or failed (with a counterexample VCD).
    Formal(formal::FormalArgs),
    /// The guide's labs (docs/labs.md): list them, or check your block.
    Lab {
        #[command(subcommand)]
        action: lab::LabAction,
    },
}
