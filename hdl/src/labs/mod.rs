//! # The guide's labs (`docs/labs.md`)
//!
//! Each lab is a small block with the decoder's AXI4-Stream port names
//! (`s_axis_*` bytes in, `m_axis_*` UCS-4 words out), so the harness and
//! the checker run it as they run the decoder, and `utf8hdl lab check N`
//! prints the first word that differs from the reference.
//!
//! `labN_*.rs` is the student's file. It starts as the lab's starting
//! file, which fails for the reason the lab states; `solutions/` holds a
//! solution of each. The tests in `testbench/tests/labs.rs` check both,
//! so they fail once a student has solved a lab in their own copy: that
//! is the point of the lab, not a fault.

pub mod lab1_ascii;
pub mod lab2_two_bytes;
pub mod lab3_long_characters;
pub mod lab4_error_policy;
pub mod lab5_backpressure;
pub mod lab6_classifier;
pub mod lab7_full_decoder;
pub mod lab8_wide_step;
pub mod solutions;
