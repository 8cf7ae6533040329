//! # The packing network: a beat's kept lanes moved to the front
//!
//! Stage 1 packs the bytes of a beat past its null lanes, stage 5 packs
//! its words past the lanes that end no unit; both are a [`LanePacker`],
//! which counts each kept lane's skip in a [`LaneSkips`] and then moves it,
//! each in log₂ N registered levels, so that no path grows with N.

pub mod lane_packer;
pub mod lane_skips;

pub use lane_packer::LanePacker;
pub use lane_skips::LaneSkips;
