//! utf8hdl: Unicode stream cores in rust-hdl, between two AXI4-Stream
//! interfaces. Each core is a folder or a file named for its Verilog
//! module; its top block's doc comment is its datasheet.
//!
//! * [`utf8_decoder`]: UTF-8 → UCS-4, one byte per clock, the family's
//!   heart; its parts (classifier, state machine, tables, output register)
//!   are the folder's files, read in pipeline order from its datasheet.
//! * [`utf8_decoder_wide`]: the same decoder N bytes per clock; its
//!   pipeline stages are numbered files in [`utf8_decoder_wide::stages`],
//!   beside the packing network, the output queue and the wiring helpers.
//! * [`utf8_validator`]: UTF-8 validation N bytes per clock, the bytes
//!   passed on unchanged with the first byte of each malformed maximal
//!   subpart marked; built from two prefix scans over the lanes.
//! * [`utf8_encoder`], [`utf16_encoder`], [`utf16_decoder`],
//!   [`char_properties`]: one block each.
//! * [`stream`]: the AXI4-Stream blocks that several cores share.

pub mod char_properties;
pub mod stream;
pub mod utf16_decoder;
pub mod utf16_encoder;
pub mod utf8_decoder;
pub mod utf8_decoder_wide;
pub mod utf8_encoder;
pub mod utf8_validator;

pub use char_properties::CharProperties;
pub use utf16_decoder::Utf16Decoder;
pub use utf16_encoder::Utf16Encoder;
pub use utf8_decoder::Utf8Decoder;
pub use utf8_encoder::Utf8Encoder;
pub use utf8hdl_reference::{ErrorKind, Profile, REPLACEMENT};

/// `n` default values: a block's `Vec` of lanes, units or places,
/// unconnected.
pub(crate) fn many<T: Default>(n: usize) -> Vec<T> {
    (0..n).map(|_| T::default()).collect()
}

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
