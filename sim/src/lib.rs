//! The software side of utf8hdl: the reference decoder, the description of
//! each core ([`core`]), the cycle harness, the one checker, and VCD
//! waveforms. The `utf8hdl` command line is in `utf8hdl-synth`, which sits
//! above this crate.

pub mod bench;
pub mod checker;
pub mod core;
pub mod cores;
pub mod cycle_diagrams;
pub mod figures;
pub mod harness;
pub mod input;
pub mod interrupt;
pub mod labs;
pub mod output;
pub mod report;
pub mod sample;
pub mod state_diagram;
pub mod state_machine;
pub mod state_table;
pub mod wave_svg;
pub mod waveform;

/// The reference decoder, from the layer below (`utf8hdl-reference`).
pub use utf8hdl_reference as reference;
