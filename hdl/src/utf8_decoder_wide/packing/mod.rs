//! # The packing network: a beat's kept lanes moved to the front
//!
//! Stage 1 packs the bytes of a beat past its null lanes, stage 5 packs
//! its words past the lanes that end no unit; both are a [`LanePacker`],
//! which counts each kept lane's skip in a [`LaneSkips`] and then moves it,
//! each in log₂ N registered levels, so that no path grows with N. Both
//! halves hold a level's lanes in [`LaneRegister`]s and the beat beside them
//! in a [`BeatDelay`].

pub mod beat_delay;
pub mod lane_packer;
pub mod lane_register;
pub mod lane_skips;

pub use beat_delay::BeatDelay;
pub use lane_packer::LanePacker;
pub use lane_register::LaneRegister;
pub use lane_skips::LaneSkips;
