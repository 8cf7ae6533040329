//! utf8hdl: a UTF-8 → UCS-4 decoder in rust-hdl, one byte per clock,
//! between two AXI4-Stream interfaces.

pub mod interface;

pub use interface::{ErrorKind, Profile, REPLACEMENT};
