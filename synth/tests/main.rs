//! The command line's and the flows' tests, one binary: each file beside
//! this one is a module (as in `testbench/tests/main.rs`, which says why,
//! and whose `every_file_of_tests_is_a_module` checks this folder too),
//! and `common` holds what they share.

mod boards;
mod cli;
mod common;
mod datasheet;
mod encode_cli;
mod engine_cli;
mod flow;
mod formal_cli;
mod formal_interrupt;
mod lab_cli;
mod model_cache;
mod never_destroy;
mod sim_cli;
mod synth_log;
mod validate_cli;
