//! utf8hdl: Unicode stream cores in rust-hdl, between two AXI4-Stream
//! interfaces. At its heart a UTF-8 → UCS-4 decoder, one byte per clock;
//! read its blocks in pipeline order: [`skid_buffer`], [`classifier`],
//! [`decoder`], [`output_register`], then [`top`], which wires them. The
//! N-byte decoder is in [`wide`]; the rest of the family, each one block:
//! [`utf8_encoder`], [`utf16_encoder`], [`utf16_decoder`],
//! [`char_properties`].

pub mod char_properties;
pub mod classifier;
pub mod decoder;
pub mod labs;
pub mod lead_table;
pub mod octet_table;
pub mod output_register;
pub mod skid_buffer;
pub mod top;
pub mod utf16_decoder;
pub mod utf16_encoder;
pub mod utf8_encoder;
pub mod wide;

pub use char_properties::CharProperties;
pub use top::Utf8Decoder;
pub use utf16_decoder::Utf16Decoder;
pub use utf16_encoder::Utf16Encoder;
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
