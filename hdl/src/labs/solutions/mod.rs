//! A solution of each lab: the same block, completed.

pub mod lab1_ascii;
pub mod lab2_two_bytes;
pub mod lab3_long_characters;
pub mod lab4_error_policy;
pub mod lab5_backpressure;
pub mod lab6_classifier;
pub mod lab7_full_decoder;
pub mod lab8_wide_step;
