//! `lab-solutions`: lists the labs, or checks a lab's solution against
//! the reference (`lab-solutions check N [--vcd FILE] [--svg FILE]`).

use std::process::ExitCode;

use utf8hdl_sim::labs::program::Program;

fn main() -> ExitCode {
    Program {
        name: "lab-solutions",
        package: "utf8hdl-lab-solutions",
    }
    .main(utf8hdl_lab_solutions::BLOCKS)
}
