//! The testbench's tests, one binary: each file beside this one is a module.
//!
//! One binary instead of one per file: the generic rust-hdl designs are
//! compiled and linked once, not eighteen times (the crate's tests built in
//! about 300 s of a 2-core CI run as separate binaries), and libtest runs
//! all the tests on one pool, so a long proof in `formal` overlaps the
//! simulations instead of running alone at the end of its own binary.
//! Run one file's tests with its module name as the filter:
//! `cargo test --release -p utf8hdl-testbench formal::`.

mod board;
mod checker_catches_violations;
mod cosim;
mod encoder;
mod engines;
mod formal;
mod labs;
mod properties;
mod rtl_fresh;
mod rtl_vs_reference;
mod self_contained;
mod throughput_and_reset;
mod utf16;
mod verilog_lint;
mod wide_checked;
mod wide_decoder;
mod wide_ports;
mod without_rust;
