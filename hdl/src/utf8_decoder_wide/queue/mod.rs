//! # The output queue: where backpressure stops
//!
//! The stages never stall, so every beat they hold must find room behind
//! them: the [`BeatFifo`] queues the beats (in a [`BeatRam`]) in front of
//! the `m_axis` registers, and the [`BeatCredits`] raise `s_axis_tready`
//! only while the queue has room for every beat in flight.

pub mod beat_credits;
pub mod beat_fifo;
pub mod beat_ram;

pub use beat_credits::BeatCredits;
pub use beat_fifo::BeatFifo;
pub use beat_ram::BeatRam;
