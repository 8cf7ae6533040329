//! The datasheet: every core's ports, `tuser` encoding and latency, from
//! its description, and its measured resources and Fmax, from the
//! committed records (`docs/results/*.json`), rendered into
//! `docs/datasheet.md` by `utf8hdl datasheet`.
//!
//! A record is what `utf8hdl synth ... --record` measured ([`Report`]), with
//! the SHA-256 of the exported Verilog it measured. A record whose hash is
//! not the hash of what the export writes now is *stale*: the design
//! changed after it was measured, and [`stale_records`] names it, so old
//! figures cannot outlive the design they describe. The records of
//! simulation speed (`utf8hdl bench --record`, [`BenchRecord`]) and of the
//! proofs' wall times (`utf8hdl formal --record`, [`ProofRecord`], with
//! [`stale_proof_records`]) are rendered after the cores. Rendering needs
//! no synthesis tool; only measuring does.

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utf8hdl_hdl::Profile;
use utf8hdl_sim::core::{ports, Core, Dir, Lane, Lanes, Port, Rate};
use utf8hdl_sim::cores::Kind;
use utf8hdl_sim::with_any_core;

use crate::flow::{Device, Report};

mod proof_times;
use crate::verilog::{all_cores, summary, verilog_file};
pub use proof_times::{load_proof_records, stale_proof_records, CheckTime, ProofRecord};

/// Where the records are kept, from the repository's root.
pub const RECORDS_DIR: &str = "docs/results";
/// Where the datasheet is written, from the repository's root.
pub const DATASHEET: &str = "docs/datasheet.md";
/// The bytes per second of 10 Gigabit Ethernet's payload: 10 Gb/s.
const TEN_GBE_BYTES_PER_SECOND: f64 = 1.25e9;

/// The SHA-256 of an exported Verilog text, in hex: a record's
/// `netlist_sha256`.
pub fn netlist_sha256(verilog: &str) -> String {
    crate::lower_hex(&Sha256::digest(verilog.as_bytes()))
}

/// The file-name prefix of a simulation-speed record.
const BENCH_PREFIX: &str = "bench.";

/// What `utf8hdl bench --record` measured: simulated cycles per second of
/// each engine on one core, on the machine it ran on.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BenchRecord {
    /// The core's module name.
    pub top: String,
    /// The mixed corpus of the speed figures, in MB.
    pub corpus_mb: u64,
    /// The streamed input of the peak-memory figure, in MB.
    pub memory_mb: u64,
    /// The processor and its logical cores, from `/proc/cpuinfo`.
    pub machine: String,
    pub engines: Vec<EngineSpeed>,
    /// Icarus Verilog (`vvp`) on the exported Verilog, for comparison.
    pub icarus_cycles_per_second: Option<f64>,
    /// `name: version` of each simulator used.
    pub tools: Vec<String>,
}

/// One engine's figures in a [`BenchRecord`].
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct EngineSpeed {
    /// `rust-hdl` or `verilator`.
    pub engine: String,
    pub cycles_per_second: f64,
    pub vcd_cycles_per_second: f64,
    pub vcd_bytes_per_cycle: f64,
    pub memory_cycles_per_second: f64,
    pub memory_peak_rss_bytes: Option<u64>,
}

impl BenchRecord {
    /// Its file name: `bench.<top>.json`.
    pub fn file_name(&self) -> String {
        format!("{BENCH_PREFIX}{}.json", self.top)
    }
}

/// The machine a benchmark runs on: the processor's model name and the
/// logical cores, as `/proc/cpuinfo` gives them.
pub fn machine() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .and_then(|l| l.split_once(':'))
        .map_or("an unknown processor", |(_, name)| name.trim());
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    format!("{model}, {cores} logical cores")
}

/// Every simulation-speed record in `dir`, in file-name order.
pub fn load_bench_records(dir: &Path) -> Result<Vec<BenchRecord>> {
    record_files(dir, Some(BENCH_PREFIX))?
        .iter()
        .map(|path| read_record(path, "a benchmark record"))
        .collect()
}

/// The JSON records in `dir` whose file name begins with `prefix`, in
/// file-name order: the simulation-speed ones (`bench.*`), the proofs'
/// (`formal.*`), or with `None` the synthesis ones (any other prefix).
fn record_files(dir: &Path, prefix: Option<&str>) -> Result<Vec<PathBuf>> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| entries.map(|entry| entry.map(|e| e.path())))
        .and_then(|entries| entries.collect::<std::io::Result<_>>())
        .with_context(|| format!("cannot read the records in '{}'", dir.display()))?;
    paths.retain(|p| {
        let name = p
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let prefixed = |prefix: &str| name.starts_with(prefix);
        let wanted = match prefix {
            Some(prefix) => prefixed(prefix),
            None => !prefixed(BENCH_PREFIX) && !prefixed(proof_times::PROOF_PREFIX),
        };
        p.extension().is_some_and(|e| e == "json") && wanted
    });
    paths.sort();
    Ok(paths)
}

/// The record in `path`, which should be `what`.
fn read_record<T: serde::de::DeserializeOwned>(path: &Path, what: &str) -> Result<T> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read '{}'", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("'{}' is not {what}", path.display()))
}

/// A record's file name: `<top>.<device>.json`.
pub fn record_name(report: &Report) -> String {
    format!("{}.{}.json", report.top, report.device.name())
}

/// Every record in `dir`, in file-name order. A record whose name is not
/// [`record_name`] of its contents is an error: two records of one core
/// and device cannot both be there.
pub fn load_records(dir: &Path) -> Result<Vec<Report>> {
    record_files(dir, None)?
        .iter()
        .map(|path| {
            let report: Report = read_record(path, "a synthesis record")?;
            let expected = record_name(&report);
            anyhow::ensure!(
                path.file_name().is_some_and(|n| *n == *expected),
                "'{}' holds the record of {expected}; rename it",
                path.display()
            );
            Ok(report)
        })
        .collect()
}

/// One core of the family, as its description gives it.
pub struct Sheet {
    kind: Kind,
    profile: Profile,
    lanes: usize,
    top: String,
    summary: String,
    latency: u64,
    ports: Vec<Port>,
    port_notes: &'static str,
    error_kinds: Vec<(u8, &'static str)>,
    /// What moves on every clock at full rate: `byte in`, `octet out`.
    rate: String,
}

impl Sheet {
    fn of<C: Core>(core: &C) -> Result<Sheet> {
        let ports = ports(&core.block())?;
        let lanes = Lanes::of::<C::Input, C::Output>(&ports)?.count;
        Ok(Sheet {
            kind: C::KIND,
            profile: core.profile(),
            lanes,
            top: core.name(),
            summary: summary(core, lanes),
            latency: C::LATENCY,
            ports,
            port_notes: (C::KIND.description().port_notes)(lanes),
            error_kinds: C::ERROR_KINDS
                .iter()
                .map(|k| (k.code(), k.name()))
                .collect(),
            rate: match C::RATE {
                Rate::Input => format!("{} in", <C::Input as Lane>::NAME),
                Rate::Output => format!("{} out", <C::Output as Lane>::NAME),
            },
        })
    }
}

/// The sheet of every core of the family, for [`render`] and
/// [`core_table`].
pub fn sheets() -> Result<Vec<Sheet>> {
    all_cores()
        .map(|(kind, profile, lanes)| with_any_core!(kind, lanes, profile, |core| Sheet::of(&core)))
        .collect()
}

/// The records whose netlist is not what the export writes now, each as
/// one line naming the record and the command that measures it again; and
/// the records of no core at all.
pub fn stale_records(records: &[Report]) -> Result<Vec<String>> {
    let cores = cores_by_top()?;
    // A 1-lane core has a record a device: its export is hashed once.
    let mut hashes: HashMap<&str, String> = HashMap::new();
    let mut stale = Vec::new();
    for record in records {
        let name = record_name(record);
        let Some(&(kind, profile, lanes)) = cores.get(&record.top) else {
            stale.push(format!(
                "{RECORDS_DIR}/{name}: no core is named {}; remove the record",
                record.top
            ));
            continue;
        };
        let hash = match hashes.get(record.top.as_str()) {
            Some(hash) => hash,
            None => {
                let (_, verilog) = verilog_file(kind, profile, lanes)?;
                hashes
                    .entry(&record.top)
                    .or_insert(netlist_sha256(&verilog))
            }
        };
        if *hash != record.netlist_sha256 {
            stale.push(format!(
                "{RECORDS_DIR}/{name}: the design changed after it was measured; \
                 measure it again: {}",
                measure_command(kind, profile, lanes, record.device, record.runs.len())
            ));
        }
    }
    Ok(stale)
}

/// Every core of the family by its module name.
fn cores_by_top() -> Result<HashMap<String, (Kind, Profile, usize)>> {
    let mut cores = HashMap::new();
    for (kind, profile, lanes) in all_cores() {
        let top = with_any_core!(kind, lanes, profile, |core| core.name());
        cores.insert(top, (kind, profile, lanes));
    }
    Ok(cores)
}

/// The command that measures a record.
pub fn measure_command(
    kind: Kind,
    profile: Profile,
    lanes: usize,
    device: Device,
    seeds: usize,
) -> String {
    format!(
        "utf8hdl synth --core {kind} --profile {profile} --lanes {lanes} --device {} \
         --seeds {seeds} --record",
        device.name()
    )
}

/// The section a core belongs to: its kind, and whether its module is
/// named for its lanes (`_x<N>`): the cores of one design at every width
/// share a section, and a 1-lane core of a design of its own (the
/// decoder's `utf8_decoder`) has one. Its heading is the module name of
/// its first core, with the lane count as `N`.
fn section_of(sheet: &Sheet) -> (usize, bool) {
    let kind = Kind::ALL.iter().position(|&k| k == sheet.kind).unwrap_or(0);
    (kind, lanes_suffix(sheet).is_some())
}

/// The module name without its `_x<N>`, if it has one.
fn lanes_suffix(sheet: &Sheet) -> Option<&str> {
    sheet.top.strip_suffix(&format!("_x{}", sheet.lanes))
}

fn heading(first: &Sheet) -> String {
    lanes_suffix(first).map_or_else(|| first.top.clone(), |stem| format!("{stem}_xN"))
}

/// A port's width in terms of the lanes: `8N` for a wide core's
/// `s_axis_tdata`, from the widths at two lane counts.
fn width_formula(widths: &[(usize, usize)]) -> String {
    match widths {
        [(n1, w1), (n2, w2), ..] if n2 > n1 => {
            let per_lane = (w2 - w1) / (n2 - n1);
            let fixed = w1 - per_lane * n1;
            match (per_lane, fixed) {
                (0, f) => f.to_string(),
                (1, 0) => "N".into(),
                (p, 0) => format!("{p}N"),
                (p, f) => format!("{p}N + {f}"),
            }
        }
        [(_, w), ..] => w.to_string(),
        [] => "?".into(),
    }
}

/// Block RAMs among a record's cells (iCE40 `SB_RAM40_4K`, ECP5 `DP16KD`
/// and `PDPW16KD`, Gowin's BSRAM primitives).
fn block_rams(report: &Report) -> usize {
    const GOWIN_BSRAM: [&str; 8] = ["SP", "SPX9", "SDP", "SDPB", "SDPX9B", "DP", "DPB", "DPX9B"];
    report
        .cells
        .iter()
        .filter(|(cell, _)| {
            cell.starts_with("SB_RAM")
                || cell.ends_with("16KD")
                || GOWIN_BSRAM.contains(&cell.as_str())
        })
        .map(|(_, n)| n)
        .sum()
}

/// ECP5 distributed RAM (`TRELLIS_DPR16X4`): 16 × 4 bits in LUTs.
fn lut_rams(report: &Report) -> usize {
    report.cells.get("TRELLIS_DPR16X4").copied().unwrap_or(0)
}

fn fmax_range(report: &Report) -> (f64, f64) {
    let fmax = report.runs.iter().map(|r| r.fmax_mhz);
    (
        fmax.clone().fold(f64::INFINITY, f64::min),
        fmax.fold(0.0, f64::max),
    )
}

/// The first and last line of the README's core table, which
/// [`core_table`] writes between them.
pub const README_BLOCK: [&str; 2] = [
    "<!-- BEGIN core table: generated by `utf8hdl datasheet`; do not edit -->",
    "<!-- END core table -->",
];

/// The sections of the datasheet: the cores of each kind, 1-lane and wide
/// apart, in the family's order.
fn sections(sheets: &[Sheet]) -> Vec<Vec<&Sheet>> {
    let mut sections: std::collections::BTreeMap<(usize, bool), Vec<&Sheet>> =
        std::collections::BTreeMap::new();
    for sheet in sheets {
        sections.entry(section_of(sheet)).or_default().push(sheet);
    }
    sections.into_values().collect()
}

/// What a section's cores are, from their description: `UTF-8 → UCS-4
/// decoder`.
fn what(first: &Sheet) -> String {
    first
        .summary
        .split(", profile")
        .next()
        .unwrap_or_default()
        .trim_start_matches("utf8hdl ")
        .replace("->", "→")
}

/// The README's table of cores: each section's module, what it is, its
/// profiles, what it takes or gives per clock, its latency, and its
/// datasheet entry.
pub fn core_table(sheets: &[Sheet]) -> String {
    let mut out = format!(
        "{}\n| core | what it is | profiles | per clock | latency, cycles | datasheet |\n\
         |---|---|---|---|---|---|\n",
        README_BLOCK[0]
    );
    for section in sections(sheets) {
        let first = section[0];
        let name = heading(first);
        let mut profiles: Vec<String> = section.iter().map(|s| s.profile.to_string()).collect();
        profiles.dedup();
        let latencies: BTreeSet<u64> = section.iter().map(|s| s.latency).collect();
        let latency = match (latencies.first(), latencies.last()) {
            (Some(a), Some(b)) if a != b => format!("{a}–{b}"),
            (Some(a), _) => a.to_string(),
            _ => "?".into(),
        };
        let per_clock = match lanes_suffix(first) {
            None => format!("1 {}", first.rate),
            Some(_) => format!("N {}", first.rate.replacen(' ', "s ", 1)),
        };
        let _ = writeln!(
            out,
            "| `{name}` | {} | {} | {per_clock} | {latency} | [{name}](docs/datasheet.md#{}) |",
            what(first),
            profiles.join(", "),
            name.to_lowercase()
        );
    }
    out += README_BLOCK[1];
    out
}

/// `readme` with its core table replaced by `table`; an error when the
/// README has no such block.
pub fn with_core_table(readme: &str, table: &str) -> Result<String> {
    let start = readme
        .find(README_BLOCK[0])
        .context("the README has no core table block to write")?;
    let end = readme[start..]
        .find(README_BLOCK[1])
        .map(|at| start + at + README_BLOCK[1].len())
        .context("the README's core table block has no end")?;
    Ok(format!("{}{table}{}", &readme[..start], &readme[end..]))
}

/// The datasheet of the cores of `sheets`, with the measured rows of
/// `records` and the simulation speed of `benches`.
pub fn render(
    sheets: &[Sheet],
    records: &[Report],
    benches: &[BenchRecord],
    proofs: &[ProofRecord],
) -> Result<String> {
    let mut out = String::new();
    out += "# utf8hdl datasheet\n\n\
            <!-- Generated by `utf8hdl datasheet` from docs/results/*.json; do not edit. -->\n\n\
            Every core is AXI4-Stream in and out, on one clock `clk` (rising edge) with a \
            synchronous, active-high `rst`. Its outputs are registered. The ports, `tuser` \
            encoding and latency below come from each core's description in the code, \
            and each figure comes from a committed record in `docs/results/`. A test fails \
            when a record no longer matches the exported Verilog it measured.\n\n\
            **How the figures are measured.** `utf8hdl synth --core K --profile P --lanes N \
            --device D --seeds S --record` synthesises the core alone for the cell counts \
            (LUT4, flip-flops, RAM). It then places and routes the core with every port \
            registered (a bench), so that every path through a port runs from one register \
            to another, as between other logic. It does this with seeds 1 to S. Fmax is the \
            median over the seeds, with the lowest and highest in brackets; the critical \
            path is the median seed's. Seeds move Fmax by 10–20 MHz, so iCE40 rows use 31 \
            seeds, ECP5-25K rows 15, and the wide cores 3. GB/s is lanes × Fmax: the bytes \
            per second at full rate, which the cores keep whatever the bytes.\n\n";
    let tools: BTreeSet<&str> = records
        .iter()
        .flat_map(|r| r.tools.iter().map(String::as_str))
        .collect();
    if !tools.is_empty() {
        out += "Tools of the records:\n\n";
        for tool in tools {
            let _ = writeln!(out, "- {tool}");
        }
        out += "\n";
    }
    let sections = sections(sheets);
    out += "| section | what it is | bytes or words per clock |\n|---|---|---|\n";
    for section in &sections {
        let name = heading(section[0]);
        let lanes: BTreeSet<usize> = section.iter().map(|s| s.lanes).collect();
        let lanes: Vec<String> = lanes.iter().map(usize::to_string).collect();
        let _ = writeln!(
            out,
            "| [`{name}`](#{}) | {} | {} |",
            name.to_lowercase(),
            what(section[0]),
            lanes.join(", ")
        );
    }
    for section in &sections {
        render_section(&mut out, section, records);
    }
    render_speed(&mut out, benches);
    let tops: Vec<&str> = sheets.iter().map(|sheet| sheet.top.as_str()).collect();
    proof_times::render_proof_times(&mut out, &tops, proofs);
    Ok(out)
}

/// The `utf8hdl bench` figures: simulated cycles per second of each
/// engine, with and without a VCD, on the machine each was measured on.
fn render_speed(out: &mut String, benches: &[BenchRecord]) {
    *out += "
## Simulation speed

";
    if benches.is_empty() {
        *out += "Not measured yet.
";
        return;
    }
    *out += "Simulated clock cycles per second of `utf8hdl sim`'s engines on a mixed \
             corpus at full rate, every word checked against the reference: `rust-hdl` \
             simulates the design as written, `verilator` a model of the exported Verilog. \
             Measured by `utf8hdl bench --record`; a figure depends on the machine, \
             which each row names.\n\n\
             | core | engine | M cycles/s | with VCD, M cycles/s | VCD bytes/cycle | \
             peak RSS streaming, MB | machine |\n|---|---|---|---|---|---|---|\n";
    for bench in benches {
        for engine in &bench.engines {
            let rss = engine
                .memory_peak_rss_bytes
                .map_or("unknown".to_string(), |b| format!("{:.1}", b as f64 / 1e6));
            let _ = writeln!(
                out,
                "| `{}` | {} | **{:.2}** | {:.2} | {:.1} | {rss} ({} MB in) | {} |",
                bench.top,
                engine.engine,
                engine.cycles_per_second / 1e6,
                engine.vcd_cycles_per_second / 1e6,
                engine.vcd_bytes_per_cycle,
                bench.memory_mb,
                bench.machine
            );
        }
        if let Some(icarus) = bench.icarus_cycles_per_second {
            let _ = writeln!(
                out,
                "| `{}` | Icarus Verilog (`vvp`), for comparison | {:.3} | | | | {} |",
                bench.top,
                icarus / 1e6,
                bench.machine
            );
        }
    }
    render_tools(out, "Simulators", benches.iter().flat_map(|b| &b.tools));
}

/// `label: tool a; tool b.`, each `name: version` once, after a table of
/// records that name them.
fn render_tools<'a>(out: &mut String, label: &str, tools: impl Iterator<Item = &'a String>) {
    let tools: BTreeSet<&str> = tools.map(String::as_str).collect();
    if !tools.is_empty() {
        let tools: Vec<&str> = tools.into_iter().collect();
        let _ = writeln!(out, "\n{label}: {}.", tools.join("; "));
    }
}

fn render_section(out: &mut String, section: &[&Sheet], records: &[Report]) {
    let first = section[0];
    let wide = lanes_suffix(first).is_some();
    let _ = writeln!(out, "\n## {}\n", heading(first));
    *out += "| module | profile | lanes | latency (cycles) |\n|---|---|---|---|\n";
    for sheet in section {
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} |",
            sheet.top, sheet.profile, sheet.lanes, sheet.latency
        );
    }
    let holds = first.kind.description().latency_holds;
    let _ = writeln!(
        out,
        "\nLatency: cycles from a beat's acceptance to its first output on `m_axis`, \
         with `m_axis_tready` high{}{holds}.\n",
        if holds.is_empty() { "" } else { ", " }
    );
    // The ports, with each width in lanes for the wide section.
    *out += "| port | direction | width |\n|---|---|---|\n";
    let same_profile: Vec<&&Sheet> = section
        .iter()
        .filter(|s| s.profile == first.profile)
        .collect();
    for (i, port) in first.ports.iter().enumerate() {
        let widths: Vec<(usize, usize)> = same_profile
            .iter()
            .filter_map(|s| s.ports.get(i).map(|p| (s.lanes, p.width)))
            .collect();
        let dir = match port.dir {
            Dir::In => "in",
            Dir::Out => "out",
        };
        let _ = writeln!(
            out,
            "| `{}` | {dir} | {} |",
            port.name,
            width_formula(&widths)
        );
    }
    *out += "\n";
    for line in first.port_notes.lines() {
        let _ = writeln!(out, "{line}  ");
    }
    if !first.error_kinds.is_empty() {
        *out += "\n| error kind code | name |\n|---|---|\n";
        for (code, name) in &first.error_kinds {
            let _ = writeln!(out, "| {code} | `{name}` |");
        }
    }
    let device_order = |d: Device| Device::ALL.iter().position(|&x| x == d);
    let rows: Vec<(&Sheet, &Report)> = section
        .iter()
        .flat_map(|sheet| {
            let mut of_sheet: Vec<&Report> =
                records.iter().filter(|r| r.top == sheet.top).collect();
            of_sheet.sort_by_key(|r| device_order(r.device));
            of_sheet.into_iter().map(move |r| (*sheet, r))
        })
        .collect();
    *out += "\n";
    if rows.is_empty() {
        *out += "Not measured yet.\n";
        return;
    }
    let mut header = "| module | device | LUT4 | FF | carry | block RAM |".to_string();
    let mut rule = "|---|---|---|---|---|---|".to_string();
    let distributed = rows.iter().any(|(_, r)| lut_rams(r) > 0);
    if distributed {
        header += " DPR16X4 |";
        rule += "---|";
    }
    header += " Fmax, MHz: median (min–max) | seeds |";
    rule += "---|---|";
    if wide {
        header += " GB/s | 10 GbE |";
        rule += "---|---|";
    }
    let _ = writeln!(out, "{header}\n{rule}");
    for (sheet, record) in &rows {
        let (min, max) = fmax_range(record);
        let mut row = format!(
            "| `{}` | {} | {} | {} | {} | {} |",
            sheet.top,
            record.device.description(),
            record.lut4,
            record.flip_flops,
            record.carry,
            block_rams(record)
        );
        if distributed {
            let _ = write!(row, " {} |", lut_rams(record));
        }
        let _ = write!(
            row,
            " **{:.1}** ({min:.1}–{max:.1}) | {} |",
            record.fmax_mhz,
            record.runs.len()
        );
        if wide {
            let bytes_per_second = sheet.lanes as f64 * record.fmax_mhz * 1e6;
            let line_rate = match bytes_per_second >= TEN_GBE_BYTES_PER_SECOND {
                true => "yes",
                false => "no",
            };
            let _ = write!(row, " {:.2} | {line_rate} |", bytes_per_second / 1e9);
        }
        let _ = writeln!(out, "{row}");
    }
    *out += "\nThe critical path of each row's median seed:\n\n";
    for (sheet, record) in &rows {
        if let Some(path) = &record.critical_path_summary {
            let _ = writeln!(
                out,
                "- `{}` on {} (seed {}): {path}",
                sheet.top,
                record.device.name(),
                record.critical_path_seed
            );
        }
    }
    let mut notes: Vec<&str> = rows
        .iter()
        .filter_map(|(_, r)| r.device.timing_note())
        .collect();
    notes.sort_unstable();
    notes.dedup();
    for note in notes {
        let _ = writeln!(out, "\n{note}");
    }
}
