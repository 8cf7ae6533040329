//! The software side of utf8hdl: the reference decoder, the cycle-stepping
//! simulator of the rust-hdl design, VCD waveforms, and the `utf8hdl` CLI.

pub mod bench;
pub mod checker;
pub mod figures;
pub mod harness;
pub mod input;
pub mod output;
pub mod reference;
pub mod report;
pub mod sample;
pub mod wave_svg;
pub mod waveform;
