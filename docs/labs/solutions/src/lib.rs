//! # A solution of each of the guide's labs (`docs/labs.md`)
//!
//! The same files as the starting files' crate (`docs/labs/student`),
//! each completed. A teacher may withhold this folder: nothing else
//! depends on it. Its tests check that every solution passes its lab, and
//! that the mistakes a teacher expects, planted in copies of the solutions
//! (`build.rs`), fail with a message that points at the cause.

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

utf8hdl_sim::lab_blocks!(crate, utf8hdl_sim::labs::SOLUTIONS);
