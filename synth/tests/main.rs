//! The command line's and the flows' tests, one binary: each file beside
//! this one is a module (as in `testbench/tests/main.rs`, which says why),
//! and `common` holds what they share.

mod cli;
mod common;
mod encode_cli;
mod engine_cli;
mod flow;
mod formal_cli;
mod sim_cli;
