//! `labs`: lists the labs, or checks your block of one against the
//! reference (`labs check N [--vcd FILE] [--svg FILE]`).

use std::process::ExitCode;

use utf8hdl_sim::labs::program::Program;

fn main() -> ExitCode {
    Program {
        name: "labs",
        package: "utf8hdl-labs",
    }
    .main(utf8hdl_labs::BLOCKS)
}
