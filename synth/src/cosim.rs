//! Running a core's exported Verilog in an external simulator, cycle by
//! cycle, with a testbench written from the core's ports.
//!
//! The stimulus is a text file, one line per clock cycle after reset: the
//! value of every input port but `clk`, in hexadecimal, in port order. The
//! testbench ([`testbench`]) writes one line per cycle with the value of
//! every output port, sampled as the cycle begins, before its inputs are
//! driven and its clock edge — the instant `utf8hdl_sim::harness::Harness`
//! samples, so the two traces compare line for line. The same testbench runs
//! under Icarus Verilog and under Verilator (`--binary --timing`).

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use utf8hdl_sim::bench::mixed_corpus;
use utf8hdl_sim::core::{ports, to_hex, Beat, Core, Dir, Inputs, Port, Role, Values};
use utf8hdl_sim::harness::Harness;

use crate::verilog::write_core_verilog;

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
/// every other input low; `Harness::new` does the same.
pub const RESET_CYCLES: usize = 2;

/// The ports a trace line carries, in order: every port but the clock,
/// inputs in the stimulus and outputs in the outputs file.
pub fn traced(ports: &[Port], dir: Dir) -> impl Iterator<Item = &Port> {
    ports
        .iter()
        .filter(move |p| p.dir == dir && p.role != Role::Clock)
}

/// Turns a harness's probe values (the ports but the clock come first, in
/// port order) into the trace lines of [`simulate`]: the value of every
/// port that [`traced`] picks for a direction, in hexadecimal.
pub struct Tracer {
    inputs: Vec<usize>,
    outputs: Vec<usize>,
}

impl Tracer {
    pub fn new(ports: &[Port]) -> Tracer {
        let probed: Vec<&Port> = ports.iter().filter(|p| p.role != Role::Clock).collect();
        let indices = |dir| {
            traced(ports, dir)
                .map(|t| probed.iter().position(|p| p.name == t.name).unwrap())
                .collect()
        };
        Tracer {
            inputs: indices(Dir::In),
            outputs: indices(Dir::Out),
        }
    }

    /// The line of the ports of `dir`, from one cycle's probe `values`.
    pub fn line(&self, dir: Dir, values: &Values) -> String {
        let indices = match dir {
            Dir::In => &self.inputs,
            Dir::Out => &self.outputs,
        };
        indices
            .iter()
            .map(|&i| to_hex(values.get(i)))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Icarus Verilog's speed on `core`, in simulated cycles per second, over
/// `cycles` cycles of the mixed benchmark corpus at full rate, in full
/// beats (the stimulus comes from rust-hdl's engine; only `vvp`'s run is
/// timed, not the compilation). The figure `utf8hdl bench` compares the
/// Verilator engine with.
pub fn icarus_cycles_per_second<C: Core<Input = u8> + Copy>(core: C, cycles: usize) -> Result<f64> {
    let ports = ports(&core.block())?;
    let tracer = Tracer::new(&ports);
    let mut harness = Harness::new(core);
    harness.probe_window = 0..u64::MAX;
    let lanes = harness.lanes().count;
    let mut stimulus = Vec::with_capacity(cycles);
    let mut bytes = mixed_corpus(cycles * lanes);
    let mut next_beat = || {
        let lanes: Vec<Option<u8>> = (0..lanes).map(|_| bytes.next()).collect();
        Beat::new(&lanes, false)
    };
    let mut beat = next_beat();
    while stimulus.len() < cycles {
        let inputs = Inputs {
            rst: false,
            s_axis: Some(beat),
            m_axis_tready: true,
        };
        let cycle = harness.step(&inputs, &mut |_, values| {
            stimulus.push(tracer.line(Dir::In, values.expect("every cycle is probed")));
        });
        if cycle.accepted {
            beat = next_beat();
        }
    }
    let dir = utf8hdl_sim::output::ScratchDir::new("utf8hdl-icarus-")?;
    let design = write_core_verilog(&core, dir.path())?;
    let (_, elapsed) = simulate(
        Simulator::Icarus,
        &design,
        &core.name(),
        &ports,
        &stimulus,
        dir.path(),
    )?;
    Ok(cycles as f64 / elapsed.as_secs_f64())
}

/// A testbench for the module `top` with `ports`: reads `stimulus.txt`,
/// writes `outputs.txt`, both in the current directory.
pub fn testbench(top: &str, ports: &[Port]) -> String {
    let declare = |p: &Port| match (p.dir, p.role) {
        (Dir::In, _) => format!("    reg {}{};\n", p.range(), p.name),
        (Dir::Out, _) => format!("    wire {}{};\n", p.range(), p.name),
    };
    let declarations: String = ports.iter().map(declare).collect();
    let connections = ports
        .iter()
        .map(|p| format!("        .{0}({0})", p.name))
        .collect::<Vec<_>>()
        .join(",\n");
    let inputs: Vec<&Port> = traced(ports, Dir::In).collect();
    let outputs: Vec<&Port> = traced(ports, Dir::Out).collect();
    let reads = format!(
        "fields = $fscanf(stimulus, \"{}\\n\", {});",
        vec!["%h"; inputs.len()].join(" "),
        inputs
            .iter()
            .map(|p| format!("in_{}", p.name))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let buffers: String = inputs
        .iter()
        .map(|p| format!("    reg {}in_{};\n", p.range(), p.name))
        .collect();
    let apply: String = inputs
        .iter()
        .map(|p| format!("            {0} = in_{0};\n", p.name))
        .collect();
    let idle: String = inputs
        .iter()
        .map(|p| match p.role {
            Role::Reset => format!("        {} = 1'b1;\n", p.name),
            _ => format!("        {} = {}'h0;\n", p.name, p.width),
        })
        .collect();
    let write = format!(
        "$fwrite(outputs, \"{}\\n\", {});",
        vec!["%h"; outputs.len()].join(" "),
        outputs
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let count = inputs.len();
    let reset = RESET_CYCLES;
    format!(
        r#"// Co-simulation testbench for {top}, written from its ports: one line of
// stimulus.txt per cycle in, one line of outputs.txt per cycle out (see
// utf8hdl_synth::cosim).
module cosim_tb;
{declarations}{buffers}    integer stimulus;
    integer outputs;
    integer fields;
    integer cycle;

    {top} dut (
{connections}
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
{idle}        stimulus = $fopen("stimulus.txt", "r");
        outputs = $fopen("outputs.txt", "w");
        if (stimulus == 0 || outputs == 0) begin
            $display("cosim_tb: cannot open stimulus.txt or outputs.txt");
            $finish;
        end
        for (cycle = 0; cycle < {reset}; cycle = cycle + 1) begin
            tick;
        end
        {reads}
        while (fields == {count}) begin
            {write}
{apply}            tick;
            {reads}
        end
        $fclose(outputs);
        $fclose(stimulus);
        $finish;
    end
endmodule
"#
    )
}

/// How long one tool of a co-simulation may run: far more than any takes
/// (CI runs every test in less than 30 minutes), but a design that never
/// settles would run forever.
const TOOL_LIMIT: Duration = Duration::from_secs(900);

fn run(cmd: &mut Command, what: &str) -> Result<()> {
    let out =
        crate::tools::output_within(cmd, TOOL_LIMIT).with_context(|| format!("running {what}"))?;
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

/// Runs `stimulus` (one line per cycle, see the module documentation)
/// through the module `top` of the Verilog file `design`, whose ports are
/// `ports`, in `simulator`, in `dir` (which keeps the testbench, the build
/// and both trace files), and returns the outputs line of every cycle, and
/// how long the simulation itself took (not its compilation).
pub fn simulate(
    simulator: Simulator,
    design: &Path,
    top: &str,
    ports: &[Port],
    stimulus: &[String],
    dir: &Path,
) -> Result<(Vec<String>, Duration)> {
    std::fs::write(dir.join("cosim_tb.v"), testbench(top, ports))?;
    std::fs::write(dir.join("stimulus.txt"), stimulus.join("\n") + "\n")?;
    let started;
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
                    .arg(design),
                "iverilog",
            )?;
            started = Instant::now();
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
                    .arg(design),
                "verilator",
            )?;
            started = Instant::now();
            run(
                Command::new(dir.join("obj_dir/cosim")).current_dir(dir),
                "the Verilator model",
            )?;
        }
    }
    let elapsed = started.elapsed();
    let text = std::fs::read_to_string(dir.join("outputs.txt")).context("reading outputs.txt")?;
    let outputs: Vec<String> = text.lines().map(str::to_string).collect();
    if outputs.len() != stimulus.len() {
        bail!(
            "{} cycles of stimulus but {} of outputs",
            stimulus.len(),
            outputs.len()
        );
    }
    Ok((outputs, elapsed))
}
