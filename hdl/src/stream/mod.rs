//! # Stream blocks shared by the cores
//!
//! The AXI4-Stream parts that every 1-lane core of the family puts around
//! its own logic: the [`SkidBuffer`] that makes `s_axis_tready` a flop.

pub mod skid_buffer;

pub use skid_buffer::{BeatIn, BeatOut, SkidBuffer};
