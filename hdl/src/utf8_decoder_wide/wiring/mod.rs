//! # Wiring: combinational blocks that only place bits
//!
//! What `#[hdl_gen]` cannot write inside a loop over lanes, one small
//! block each: lanes side by side in one vector ([`LaneBus`]), two fields
//! of a lane side by side ([`LaneJoin`]), a byte as a 32-bit word
//! ([`ZeroExtend`]). No logic, no registers.

pub mod lane_bus;
pub mod lane_join;
pub mod zero_extend;

pub use lane_bus::LaneBus;
pub use lane_join::LaneJoin;
pub use zero_extend::ZeroExtend;
