//! # The guide's labs (`docs/labs.md`): the starting files
//!
//! Each lab is a small block with the decoder's AXI4-Stream port names
//! (`s_axis_*` bytes in, `m_axis_*` UCS-4 words out), so the harness and
//! the checker run it as they run the decoder. Each file starts as the
//! lab's starting file, which fails for the reason its doc comment states;
//! the student completes it, and `labs check N` (`cargo run --release -p
//! utf8hdl-labs -- check N`) compiles this crate alone and prints the first
//! difference from the reference, or "passes".
//!
//! The solutions are another crate (`docs/labs/solutions`), which this one
//! does not depend on: it builds without it.

pub mod lab1_ascii;
pub mod lab2_two_bytes;
pub mod lab3_long_characters;
pub mod lab3a_open_sequences;
pub mod lab3b_bounds;
pub mod lab4_error_policy;
pub mod lab5_backpressure;
pub mod lab6_classifier;
pub mod lab7_full_decoder;
pub mod lab8_wide_step;

utf8hdl_sim::lab_blocks!(crate, utf8hdl_sim::labs::STUDENT);
