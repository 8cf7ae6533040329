//! Verilog export, external-simulator co-simulation and synthesis flows for
//! utf8hdl.
//!
//! * [`verilog`](mod@verilog): one lint-clean Verilog-2005 file per core
//!   ([`core_verilog`], [`write_core_verilog`]; for the 1-lane decoder of a
//!   profile, [`verilog()`], [`write_verilog`], [`top_name`]).
//! * [`cosim`]: running the exported Verilog in Icarus or Verilator.
//! * [`formal`]: SymbiYosys proofs of the exported Verilog
//!   (`utf8hdl formal`).
//! * [`flow`]: yosys + nextpnr for iCE40 and ECP5: cells and Fmax
//!   ([`synth`]).
//! * [`datasheet`]: the measured records and `docs/datasheet.md` rendered
//!   from them.
//! * [`board`]: the boards' top (UART in, one line per unit out), their
//!   table ([`board::boards`]) and their bitstreams
//!   ([`board::board_bitstream`]).
//! * [`tools`]: finding the external tools, and the policy for tests that
//!   need one.

pub mod board;
pub mod cosim;
pub mod datasheet;
pub mod flow;
pub mod formal;
pub mod fusesoc;
pub mod parallel;
pub mod tools;
pub mod verilator;
pub mod verilog;

pub use flow::{synth, synth_core, synth_with, Device, Report};

/// `bytes` (a digest) in lowercase hex: the model cache's keys and stamps,
/// and the records' netlist hashes.
pub(crate) fn lower_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
pub use verilog::{
    core_verilog, top_name, try_verilog, verilog, verilog_hierarchical, write_core_verilog,
    write_verilog,
};
