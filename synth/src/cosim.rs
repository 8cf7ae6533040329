//! Running the exported Verilog in an external simulator, cycle by cycle.
//!
//! The stimulus is a text file, one line per clock cycle after reset:
//! `rst s_axis_tvalid s_axis_tdata s_axis_tlast m_axis_tready` (hex). The
//! testbench ([`testbench`]) writes one line per cycle:
//! `s_axis_tready m_axis_tvalid m_axis_tdata m_axis_tuser m_axis_tlast`,
//! sampled as the cycle begins, before its inputs are driven and its clock
//! edge — the same instant `utf8hdl_sim::harness::Harness::cycle` samples, so
//! the two traces compare line for line. The same testbench runs under
//! Icarus Verilog and under Verilator (`--binary --timing`).

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use anyhow::{bail, Context, Result};
use utf8hdl_hdl::Profile;

use crate::verilog::{top_name, write_verilog};

/// The inputs of one clock cycle.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Inputs {
    pub rst: bool,
    pub s_axis_tvalid: bool,
    pub s_axis_tdata: u8,
    pub s_axis_tlast: bool,
    pub m_axis_tready: bool,
}

/// The outputs as they stand at the start of one clock cycle.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    pub s_axis_tready: bool,
    pub m_axis_tvalid: bool,
    pub m_axis_tdata: u32,
    pub m_axis_tuser: u8,
    pub m_axis_tlast: bool,
}

impl std::fmt::Display for Outputs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "s_tready={} m_tvalid={} m_tdata={:08x} m_tuser={:x} m_tlast={}",
            self.s_axis_tready as u8,
            self.m_axis_tvalid as u8,
            self.m_axis_tdata,
            self.m_axis_tuser,
            self.m_axis_tlast as u8
        )
    }
}

/// An external Verilog simulator.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Simulator {
    /// Icarus Verilog (`iverilog -g2005`, then `vvp`).
    Icarus,
    /// Verilator 5 (`verilator --binary --timing`).
    Verilator,
}

impl Simulator {
    /// The tools it needs on `PATH`.
    pub fn tools(self) -> &'static [&'static str] {
        match self {
            Simulator::Icarus => &["iverilog", "vvp"],
            Simulator::Verilator => &["verilator"],
        }
    }
}

/// Reset cycles the testbench runs before the stimulus, with `rst` high and
/// both handshakes low; `Harness::new` does the same.
pub const RESET_CYCLES: usize = 2;

/// A testbench for the top module `top`: reads `stimulus.txt`, writes
/// `outputs.txt`, both in the current directory.
pub fn testbench(top: &str) -> String {
    format!(
        r#"// Co-simulation testbench for {top}: one line of stimulus.txt per cycle in,
// one line of outputs.txt per cycle out (see utf8hdl_synth::cosim).
module cosim_tb;
    reg clk;
    reg rst;
    reg [7:0] s_axis_tdata;
    reg s_axis_tvalid;
    reg s_axis_tlast;
    reg m_axis_tready;
    wire s_axis_tready;
    wire [31:0] m_axis_tdata;
    wire [3:0] m_axis_tuser;
    wire m_axis_tvalid;
    wire m_axis_tlast;
    integer stimulus;
    integer outputs;
    integer fields;
    integer cycle;
    reg [31:0] in_rst;
    reg [31:0] in_tvalid;
    reg [31:0] in_tdata;
    reg [31:0] in_tlast;
    reg [31:0] in_tready;

    {top} dut (
        .clk(clk),
        .rst(rst),
        .s_axis_tdata(s_axis_tdata),
        .s_axis_tvalid(s_axis_tvalid),
        .s_axis_tready(s_axis_tready),
        .s_axis_tlast(s_axis_tlast),
        .m_axis_tdata(m_axis_tdata),
        .m_axis_tuser(m_axis_tuser),
        .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tready(m_axis_tready),
        .m_axis_tlast(m_axis_tlast)
    );

    // One cycle: the inputs are already driven; the clock rises 5 ns later
    // and falls 5 ns after that, when the next cycle's inputs are driven.
    task tick;
        begin
            #5 clk = 1'b1;
            #5 clk = 1'b0;
        end
    endtask

    initial begin
        clk = 1'b0;
        rst = 1'b1;
        s_axis_tdata = 8'h00;
        s_axis_tvalid = 1'b0;
        s_axis_tlast = 1'b0;
        m_axis_tready = 1'b0;
        stimulus = $fopen("stimulus.txt", "r");
        outputs = $fopen("outputs.txt", "w");
        if (stimulus == 0 || outputs == 0) begin
            $display("cosim_tb: cannot open stimulus.txt or outputs.txt");
            $finish;
        end
        for (cycle = 0; cycle < {reset}; cycle = cycle + 1) begin
            tick;
        end
        rst = 1'b0;
        fields = $fscanf(stimulus, "%h %h %h %h %h\n", in_rst, in_tvalid, in_tdata, in_tlast, in_tready);
        while (fields == 5) begin
            $fwrite(outputs, "%b %b %h %h %b\n", s_axis_tready, m_axis_tvalid, m_axis_tdata, m_axis_tuser, m_axis_tlast);
            rst = in_rst[0];
            s_axis_tvalid = in_tvalid[0];
            s_axis_tdata = in_tdata[7:0];
            s_axis_tlast = in_tlast[0];
            m_axis_tready = in_tready[0];
            tick;
            fields = $fscanf(stimulus, "%h %h %h %h %h\n", in_rst, in_tvalid, in_tdata, in_tlast, in_tready);
        end
        $fclose(outputs);
        $fclose(stimulus);
        $finish;
    end
endmodule
"#,
        reset = RESET_CYCLES
    )
}

/// The stimulus file for `inputs`.
pub fn stimulus_file(inputs: &[Inputs]) -> String {
    let mut s = String::with_capacity(inputs.len() * 12);
    for i in inputs {
        let _ = writeln!(
            s,
            "{:x} {:x} {:02x} {:x} {:x}",
            i.rst as u8,
            i.s_axis_tvalid as u8,
            i.s_axis_tdata,
            i.s_axis_tlast as u8,
            i.m_axis_tready as u8
        );
    }
    s
}

/// Parses the testbench's `outputs.txt`.
pub fn parse_outputs(text: &str) -> Result<Vec<Outputs>> {
    text.lines()
        .enumerate()
        .map(|(n, line)| {
            let f: Vec<&str> = line.split_whitespace().collect();
            let bit = |s: &str| match s {
                "0" => Ok(false),
                "1" => Ok(true),
                _ => bail!("cycle {n}: `{s}` is not a defined bit in `{line}`"),
            };
            let hex = |s: &str| {
                u32::from_str_radix(s, 16)
                    .with_context(|| format!("cycle {n}: `{s}` is not defined hex in `{line}`"))
            };
            if f.len() != 5 {
                bail!("cycle {n}: malformed line `{line}`");
            }
            Ok(Outputs {
                s_axis_tready: bit(f[0])?,
                m_axis_tvalid: bit(f[1])?,
                m_axis_tdata: hex(f[2])?,
                m_axis_tuser: hex(f[3])? as u8,
                m_axis_tlast: bit(f[4])?,
            })
        })
        .collect()
}

fn run(cmd: &mut Command, what: &str) -> Result<()> {
    let out = cmd.output().with_context(|| format!("running {what}"))?;
    if !out.status.success() {
        bail!(
            "{what} failed ({}):\n{}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(())
}

/// Runs `inputs` through the exported Verilog of `profile` in `simulator`,
/// in `dir` (which keeps the sources, the build and both trace files), and
/// returns the outputs of every cycle.
pub fn simulate(
    simulator: Simulator,
    profile: Profile,
    inputs: &[Inputs],
    dir: &Path,
) -> Result<Vec<Outputs>> {
    let top = top_name(profile);
    let design = write_verilog(profile, dir)?;
    std::fs::write(dir.join("cosim_tb.v"), testbench(top))?;
    std::fs::write(dir.join("stimulus.txt"), stimulus_file(inputs))?;
    match simulator {
        Simulator::Icarus => {
            run(
                Command::new("iverilog")
                    .current_dir(dir)
                    .args([
                        "-g2005",
                        "-Wall",
                        "-s",
                        "cosim_tb",
                        "-o",
                        "cosim.vvp",
                        "cosim_tb.v",
                    ])
                    .arg(&design),
                "iverilog",
            )?;
            run(
                Command::new("vvp")
                    .current_dir(dir)
                    .args(["-n", "cosim.vvp"]),
                "vvp",
            )?;
        }
        Simulator::Verilator => {
            run(
                Command::new("verilator")
                    .current_dir(dir)
                    .args([
                        "--binary",
                        "--timing",
                        "-j",
                        "2",
                        "--top-module",
                        "cosim_tb",
                        "-Mdir",
                        "obj_dir",
                        "-o",
                        "cosim",
                        "cosim_tb.v",
                    ])
                    .arg(&design),
                "verilator",
            )?;
            run(
                Command::new(dir.join("obj_dir/cosim")).current_dir(dir),
                "the Verilator model",
            )?;
        }
    }
    let text = std::fs::read_to_string(dir.join("outputs.txt")).context("reading outputs.txt")?;
    let outputs = parse_outputs(&text)?;
    if outputs.len() != inputs.len() {
        bail!(
            "{} cycles of stimulus but {} of outputs",
            inputs.len(),
            outputs.len()
        );
    }
    Ok(outputs)
}
