//! utf8hdl: a UTF-8 → UCS-4 decoder in rust-hdl, one byte per clock,
//! between two AXI4-Stream interfaces.
//!
//! Read the blocks in pipeline order: [`skid_buffer`], [`classifier`],
//! [`decoder`], [`output_register`], then [`top`], which wires them.

pub mod classifier;
pub mod decoder;
pub mod labs;
pub mod lead_table;
pub mod octet_table;
pub mod output_register;
pub mod skid_buffer;
pub mod top;
pub mod utf8_encoder;
pub mod wide;

pub use top::Utf8Decoder;
pub use utf8_encoder::Utf8Encoder;
pub use utf8hdl_reference::{ErrorKind, Profile, REPLACEMENT};

/// What each block's `*_is_synthesizable` test checks, in the rust-hdl
/// style: on its own, the block passes rust-hdl's checks (every input
/// driven, every flop clocked, no combinational loop) and its Verilog is
/// written. Verilator and yosys read each block in
/// `testbench/tests/verilog_lint.rs`, where the tools are found or skipped.
#[cfg(test)]
fn assert_synthesizable<U: rust_hdl::prelude::Block>(mut uut: U) {
    use rust_hdl::prelude::*;
    uut.connect_all();
    check_all(&uut).unwrap();
    assert!(generate_verilog(&uut).contains("endmodule"));
}
