//! The solutions' tests, one binary: each file beside this one is a
//! module (as in `testbench/tests/main.rs`, which says why).

mod mistakes;
mod solutions;
mod starting_files;
