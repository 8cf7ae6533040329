//! # The wide decoder's pipeline stages, in order
//!
//! One block a stage, each file numbered by its stage; the top's pipeline
//! diagram ([`crate::utf8_decoder_wide`]) draws them. No stage stalls or
//! has an enable: every register moves its beat on every clock, with a
//! valid bit. A stage of several registers names them by a letter, in
//! order (stage 3's third register is 3c); the Verilog names them by the
//! prefix of their fields.
//!
//! | stage | block | its registers, in order | cycles |
//! |---|---|---|---|
//! | 1 | [`ByteLanes`] (`s1_byte_lanes.rs`) | 1a the beat (`beat_*`); 1b the [`LanePacker`](crate::utf8_decoder_wide::packing::LanePacker)'s levels, counting then moving; 1c the packed bytes (`packed_*`); 1d the staged bytes and the tail's shift halfway (`staged_*`) | 3 + 2 log₂ N |
//! | 2 | [`LookaheadHold`] (`s2_lookahead_hold.rs`) | the held beat (`held_*`), until the byte behind it is known | 1 |
//! | 3 | [`LaneTables`] (`s3_lane_tables.rs`) | 3a the classes (`class_*`); 3b the classes again (`moved_*`); 3c the table rows (`row_*`), beside the history of five bytes (`history_*`); 3d the window (`window_*`) | 4 |
//! | 4 | [`LaneDecoder`] (`s4_lane_decoder.rs`) | 4a each lane's facts (`complete*`, `open*`, `own_*`, `gathered`, `partial_*`); 4b one slot per lane (`registered_slot_*`, `registered_beat_*`) | 2 |
//! | 5 | [`WordLanes`] (`s5_word_lanes.rs`) | 5a the [`LanePacker`](crate::utf8_decoder_wide::packing::LanePacker)'s levels; 5b the packed words (`packed_*`) | 1 + 2 log₂ N |
//!
//! The output queue after them, where backpressure stops, is in
//! [`queue`](crate::utf8_decoder_wide::queue).

pub mod s1_byte_lanes;
pub mod s2_lookahead_hold;
pub mod s3_lane_tables;
pub mod s4_lane_decoder;
pub mod s5_word_lanes;

pub use s1_byte_lanes::ByteLanes;
pub use s2_lookahead_hold::LookaheadHold;
pub use s3_lane_tables::LaneTables;
pub use s4_lane_decoder::LaneDecoder;
pub use s5_word_lanes::WordLanes;
