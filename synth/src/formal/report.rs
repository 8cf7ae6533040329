//! What an sby run says: each check's [`Outcome`], and what the report
//! reads from sby's log (its verdict, the failed assertions, the
//! counterexample, the covers reached).

use std::fmt;
use std::path::PathBuf;

use anyhow::anyhow;

/// How one check ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Proven,
    PassedBmc {
        depth: u32,
    },
    /// Every cover reached; the VCD of each when covers were asked for.
    Covered {
        covers: Vec<String>,
        traces: Vec<PathBuf>,
    },
    /// A property does not hold: the assertions (or covers) that failed,
    /// and the counterexample.
    Failed {
        what: Vec<String>,
        trace: Option<PathBuf>,
    },
    /// The solver gave no answer (sby's TIMEOUT or UNKNOWN).
    Unknown {
        status: String,
    },
}

impl Outcome {
    pub fn ok(&self) -> bool {
        matches!(
            self,
            Outcome::Proven | Outcome::PassedBmc { .. } | Outcome::Covered { .. }
        )
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Proven => f.write_str("proven"),
            Outcome::PassedBmc { depth } => write!(f, "passed BMC to depth {depth}"),
            Outcome::Covered { covers, traces } => {
                write!(f, "all {} reached", covers.len())?;
                if !traces.is_empty() {
                    write!(f, "; traces: {}", join_paths(traces))?;
                }
                Ok(())
            }
            Outcome::Failed { what, trace } => {
                write!(f, "failed ({})", what.join(", "))?;
                match trace {
                    Some(path) => write!(f, "; counterexample: {}", path.display()),
                    None => Ok(()),
                }
            }
            Outcome::Unknown { status } => write!(f, "failed (no answer: {status})"),
        }
    }
}

fn join_paths(paths: &[PathBuf]) -> String {
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    names.join(" ")
}

/// sby's verdict, from its last line: `DONE (PASS, rc=0)`; `None` when it
/// stopped with an error.
pub(super) fn sby_status(log: &str) -> Option<&str> {
    let done = log.lines().rev().find_map(|l| l.split_once("DONE ("))?.1;
    let status = done.split([',', ')']).next()?.trim();
    (status != "ERROR").then_some(status)
}

/// The first error line of a failed sby run, for a one-line message:
/// `SBY 10:59:00 [job] base: utf8_decoder.v:2: ERROR: syntax error, ...`
/// gives `utf8_decoder.v:2: ERROR: syntax error, ...`.
pub(super) fn sby_error(task: &str, log: &str) -> anyhow::Error {
    let line = log
        .lines()
        .find(|l| l.contains("ERROR:"))
        .or_else(|| log.lines().rev().find(|l| !l.trim().is_empty()))
        .unwrap_or("no output");
    let message = line
        .split_once("] ")
        .and_then(|(_, rest)| rest.split_once(": "))
        .map_or(line, |(_, message)| message)
        .trim();
    anyhow!("sby task {task} stopped with an error: {message}")
}

/// The label of each failed assertion, once: `failed assertion
/// utf8_decoder_properties.m_axis_rules.producer_is_design.stall_holds_payload
/// at faxis_master.v:70 step 5` gives `stall_holds_payload`. When the log
/// has a counterexample (lines with a `step`), only the assertions that it
/// fails: the induction of a proof also lists those it could not prove
/// from an unreachable state, which no run fails.
pub(super) fn failed_assertions(log: &str) -> Vec<String> {
    let failed: Vec<&str> = log
        .lines()
        .filter_map(|l| Some(l.split_once("failed assertion ")?.1))
        .collect();
    let in_trace = failed.iter().any(|f| f.contains(" step "));
    let mut labels: Vec<String> = Vec::new();
    for label in failed
        .iter()
        .filter(|f| !in_trace || f.contains(" step "))
        .filter_map(|f| f.split_whitespace().next())
        .map(|path| path.rsplit('.').next().unwrap_or(path))
    {
        if !labels.iter().any(|l| l == label) {
            labels.push(label.to_string());
        }
    }
    labels
}

/// The counterexample's VCD, relative to the work directory.
pub(super) fn counterexample(log: &str) -> Option<PathBuf> {
    log.lines()
        .find_map(|l| l.split_once("counterexample trace: "))
        .map(|(_, path)| PathBuf::from(path.trim()))
}

/// Each reached cover's label and the VCD that sby wrote for it.
pub(super) fn reached_covers(log: &str) -> Vec<(String, PathBuf)> {
    let mut covers = Vec::new();
    let mut label = None;
    for line in log.lines() {
        if line.contains("Reached cover statement") {
            label = line.rsplit(": ").next().map(str::trim).map(String::from);
        } else if let Some((_, vcd)) = line.split_once("Writing trace to VCD file: ") {
            if let Some(label) = label.take() {
                covers.push((label, PathBuf::from(vcd.trim())));
            }
        }
    }
    covers
}

pub(super) fn unreached_covers(log: &str) -> Vec<String> {
    log.lines()
        .filter(|l| l.contains("Unreached cover statement"))
        .filter_map(|l| l.rsplit(": ").next())
        .map(|s| s.trim().to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sby_logs_are_read() {
        let log =
            "SBY 1 [t] summary:   failed assertion top.m.stall_holds_payload at f.v:1 step 3\n\
                   SBY 1 [t] summary: counterexample trace: t/engine_0/trace.vcd\n\
                   SBY 1 [t] DONE (FAIL, rc=2)\n";
        assert_eq!(sby_status(log), Some("FAIL"));
        assert_eq!(failed_assertions(log), ["stall_holds_payload"]);
        // An induction's failures beside a counterexample are not its.
        let both = "summary:   failed assertion top.ready_is_count at p.v:8 step 5\n\
                    summary:   failed assertion top.ready_is_count at p.v:8\n\
                    summary:   failed assertion top.ready_when_room at p.v:6\n";
        assert_eq!(failed_assertions(both), ["ready_is_count"]);
        let induction = "summary:   failed assertion top.a at p.v:1\n\
                         summary:   failed assertion top.b at p.v:2\n";
        assert_eq!(failed_assertions(induction), ["a", "b"]);
        assert_eq!(
            counterexample(log),
            Some(PathBuf::from("t/engine_0/trace.vcd"))
        );
        assert_eq!(sby_status("x DONE (ERROR, rc=16)"), None);
        let error = "SBY 10:59:00 [job] base: top.v:2: ERROR: syntax error\n";
        assert_eq!(
            sby_error("t", error).to_string(),
            "sby task t stopped with an error: top.v:2: ERROR: syntax error"
        );
    }
}
