//! # Stream blocks shared by the cores
//!
//! The AXI4-Stream ends that the 1-lane cores put around their own logic:
//! the [`SkidBuffer`], which makes `s_axis_tready` a flop (every 1-lane
//! core), and the [`AxisOutputRegister`], which makes every `m_axis_*`
//! output one (the UTF-16 decoder and the properties core directly, the
//! encoders behind their [`PendingUnits`]; the UTF-8 decoder's own output
//! register also places the U+FFFD of a broken sequence). A wide stage's
//! payload is a [`BytewiseRegister`], each byte under an enable of its own
//! (the encoders' classifying stage, the output register's `tdata`).
//! [`axis_core`]
//! declares the ports they all share and wires the shell around a core's
//! logic.

pub mod axis_core;
pub mod axis_output_register;
pub mod bytewise_register;
pub mod pending_units;
pub mod skid_buffer;

pub use crate::{axis_core, with_axis_ports};
pub(crate) use axis_core::axis_shell_logic;
pub use axis_output_register::AxisOutputRegister;
pub use bytewise_register::BytewiseRegister;
pub use pending_units::PendingUnits;
pub use skid_buffer::{BeatIn, BeatOut, SkidBuffer};
