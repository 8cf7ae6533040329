//! # Wiring: combinational blocks that place or gather bits
//!
//! What `#[hdl_gen]` cannot write inside a loop over lanes, one small
//! block each: lanes side by side in one vector ([`LaneBus`]), two fields
//! of a lane side by side ([`LaneJoin`]), a byte as a 32-bit word
//! ([`ZeroExtend`]), the OR of a number of terms ([`OrOf`]). No
//! registers.

pub mod lane_bus;
pub mod lane_join;
pub mod or_of;
pub mod zero_extend;

pub use lane_bus::LaneBus;
pub use lane_join::LaneJoin;
pub use or_of::OrOf;
pub use zero_extend::ZeroExtend;
