//! utf8hdl: a UTF-8 → UCS-4 decoder in rust-hdl, one byte per clock,
//! between two AXI4-Stream interfaces.
//!
//! Read the blocks in pipeline order: [`skid_buffer`], [`classifier`],
//! [`decoder`], [`output_register`], then [`top`], which wires them.

pub mod classifier;
pub mod decoder;
pub mod interface;
pub mod output_register;
pub mod skid_buffer;
pub mod top;

pub use interface::{ErrorKind, Profile, REPLACEMENT};
pub use top::Utf8Decoder;
