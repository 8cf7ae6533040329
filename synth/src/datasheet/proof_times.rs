//! The proofs' part of the measured record: what `utf8hdl formal --record`
//! measured of a core's formal plan, each check's outcome and wall time,
//! on the machine it ran on; and its table in the datasheet.
//!
//! Like a synthesis record, a proof record keeps the SHA-256 of the
//! exported Verilog it proved, and [`stale_proof_records`] names the
//! records whose design has changed since.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Result;
use serde::{Deserialize, Serialize};

use super::{cores_by_top, netlist_sha256, read_record, record_files, render_tools, RECORDS_DIR};
use crate::verilog::verilog_file;

/// The file-name prefix of a proof record.
pub(super) const PROOF_PREFIX: &str = "formal.";

/// What `utf8hdl formal --record` measured: every check of one core's
/// formal plan, with its outcome and its wall time.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ProofRecord {
    /// The core's module name.
    pub top: String,
    /// The exported Verilog that was proven, hashed ([`netlist_sha256`]).
    pub netlist_sha256: String,
    /// The processor and its logical cores, from `/proc/cpuinfo`.
    pub machine: String,
    /// The checks that ran at once (`--jobs`), each its own SymbiYosys
    /// process.
    pub jobs: usize,
    /// The checks, in the plan's order.
    pub checks: Vec<CheckTime>,
    /// The whole run: the core's export, and every check.
    pub wall_seconds: f64,
    /// `name: version` of the tools.
    pub tools: Vec<String>,
}

/// One check of a [`ProofRecord`].
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CheckTime {
    /// What the report calls it: `P5 message framing`.
    pub property: String,
    /// How it is checked: `abc pdr`, `k-induction`, `BMC`, `cover`.
    pub method: String,
    /// The report's verdict: `proven`, `passed BMC to depth 12`.
    pub outcome: String,
    /// Its SymbiYosys run's wall time.
    pub seconds: f64,
}

impl ProofRecord {
    /// The file name of the record of the core `top`: `formal.<top>.json`.
    pub fn file_name_of(top: &str) -> String {
        format!("{PROOF_PREFIX}{top}.json")
    }

    /// Its file name.
    pub fn file_name(&self) -> String {
        Self::file_name_of(&self.top)
    }
}

/// Every proof record in `dir`, in file-name order.
pub fn load_proof_records(dir: &Path) -> Result<Vec<ProofRecord>> {
    record_files(dir, Some(PROOF_PREFIX))?
        .iter()
        .map(|path| {
            let record: ProofRecord = read_record(path, "a proof record")?;
            anyhow::ensure!(
                path.file_name().is_some_and(|n| *n == *record.file_name()),
                "'{}' holds the proof record of {}; rename it",
                path.display(),
                record.top
            );
            Ok(record)
        })
        .collect()
}

/// The proof records whose Verilog is not what the export writes now, or
/// of no core, each as one line naming the record and what to do.
pub fn stale_proof_records(records: &[ProofRecord]) -> Result<Vec<String>> {
    let cores = cores_by_top()?;
    let mut stale = Vec::new();
    for record in records {
        let name = record.file_name();
        let Some(&(kind, profile, lanes)) = cores.get(&record.top) else {
            stale.push(format!(
                "{RECORDS_DIR}/{name}: no core is named {}; remove the record",
                record.top
            ));
            continue;
        };
        let (_, verilog) = verilog_file(kind, profile, lanes)?;
        if netlist_sha256(&verilog) != record.netlist_sha256 {
            stale.push(format!(
                "{RECORDS_DIR}/{name}: the design changed after it was proven; \
                 prove it again: utf8hdl formal --core {kind} --profile {profile} \
                 --lanes {lanes} --jobs {} --record",
                record.jobs
            ));
        }
    }
    Ok(stale)
}

/// The datasheet's section of the proofs' wall times: a line a core, in
/// the family's order (`tops`), then each core's checks.
pub(super) fn render_proof_times(out: &mut String, tops: &[&str], records: &[ProofRecord]) {
    *out += "\n## Proof times\n\n";
    let records: Vec<&ProofRecord> = tops
        .iter()
        .filter_map(|top| records.iter().find(|r| r.top == *top))
        .collect();
    if records.is_empty() {
        *out += "Not measured yet.\n";
        return;
    }
    *out += "Wall time of a core's formal plan (chapter 9 of the guide says what each \
             property is), measured by `utf8hdl formal --core K --profile P --lanes N \
             --jobs J --record`: each check is one SymbiYosys run, J of them at once. A \
             time depends on the machine, which each core's line names.\n\n\
             | module | checks | proven for all time | bounded (BMC) | slowest check, s | \
             all, s | machine |\n|---|---|---|---|---|---|---|\n";
    for record in &records {
        let count = |method: &[&str]| {
            record
                .checks
                .iter()
                .filter(|c| method.contains(&c.method.as_str()))
                .count()
        };
        let slowest = record.checks.iter().map(|c| c.seconds).fold(0.0, f64::max);
        let _ = writeln!(
            out,
            "| [`{top}`](#proofs-of-{top}) | {} | {} | {} | {slowest:.1} | **{:.0}** | {}, {} at once |",
            record.checks.len(),
            count(&["abc pdr", "k-induction"]),
            count(&["BMC"]),
            record.wall_seconds,
            record.machine,
            record.jobs,
            top = record.top,
        );
    }
    for record in &records {
        let _ = write!(
            out,
            "\n### Proofs of {}\n\n| check | how | result | seconds |\n|---|---|---|---|\n",
            record.top
        );
        for check in &record.checks {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {:.1} |",
                check.property, check.method, check.outcome, check.seconds
            );
        }
    }
    render_tools(out, "Provers", records.iter().flat_map(|r| &r.tools));
}
