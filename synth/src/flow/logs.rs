//! What the tools report, read back: yosys's cell counts, nextpnr's Fmax,
//! critical path and utilisation.

use std::collections::BTreeMap;
use std::fmt;

use anyhow::{anyhow, Context, Result};
use serde::{Deserialize, Serialize};

pub(super) fn cells_of(stat_json: &str) -> Result<BTreeMap<String, usize>> {
    let v: serde_json::Value =
        serde_json::from_str(stat_json).context("parsing yosys stat -json")?;
    let cells = v["design"]["num_cells_by_type"]
        .as_object()
        .ok_or_else(|| anyhow!("no design.num_cells_by_type in yosys stat -json"))?;
    Ok(cells
        .iter()
        .filter(|(k, _)| !k.starts_with('$'))
        .map(|(k, v)| (k.clone(), v.as_u64().unwrap_or(0) as usize))
        .collect())
}

/// The last `Max frequency for clock '...': X MHz` of a nextpnr log (the
/// post-route figure).
pub fn parse_fmax(log: &str) -> Option<f64> {
    log.lines().rev().find_map(|l| {
        let rest = &l[l.find("Max frequency for clock")?..];
        let after = &rest[rest.find("': ")? + 3..];
        after.split_whitespace().next()?.parse::<f64>().ok()
    })
}

/// The last clock-to-clock critical path report of a nextpnr log, without
/// the source locations.
pub fn parse_critical_path(log: &str) -> Vec<String> {
    let lines: Vec<&str> = log.lines().collect();
    let Some(start) = lines
        .iter()
        .rposition(|l| l.contains("Critical path report for clock"))
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut skipping_locations = false;
    for line in &lines[start..] {
        let body = line.strip_prefix("Info:").unwrap_or(line);
        if body.trim().is_empty() {
            break;
        }
        if body.trim() == "Defined in:" {
            skipping_locations = true;
            continue;
        }
        if skipping_locations && (body.contains(".v:") || body.contains(".sv:")) {
            continue;
        }
        skipping_locations = false;
        out.push(
            body.strip_prefix(' ')
                .unwrap_or(body)
                .trim_end()
                .to_string(),
        );
        if body.contains("ns logic") {
            break;
        }
    }
    out
}

/// A critical path in one line: the cell that launches it, the cell that
/// captures it, the cells between them, and nextpnr's split of its delay.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PathSummary {
    /// The launching cell (a flip-flop's slice), as nextpnr names it.
    pub from: String,
    /// The capturing cell.
    pub to: String,
    /// The cells the path goes through between the two: LUTs, carries,
    /// muxes (each `Source` but the launching one and a `setup`).
    pub logic_levels: usize,
    pub logic_ns: f64,
    pub routing_ns: f64,
}

impl PathSummary {
    /// The summary of a report from [`parse_critical_path`]: its `Source`
    /// lines are the cells' outputs along the path, its `Sink` lines the
    /// inputs, and its last line `X ns logic, Y ns routing`.
    pub fn of(path: &[String]) -> Option<PathSummary> {
        // "0.52  0.52  Source cell.pin": the cell is the pin's path less
        // its last part.
        let cell_of = |line: &str, word: &str| {
            let pin = line.split_whitespace().skip_while(|w| *w != word).nth(1)?;
            Some(
                pin.rsplit_once('.')
                    .map_or(pin, |(cell, _)| cell)
                    .to_string(),
            )
        };
        // nextpnr-ecp5 names the capturing pin on its `setup` line
        // `Source` too; it is no level.
        let sources: Vec<String> = path
            .iter()
            .filter(|l| !l.trim_start().starts_with("setup"))
            .filter_map(|l| cell_of(l, "Source"))
            .collect();
        let to = path.iter().rev().find_map(|l| cell_of(l, "Sink"))?;
        let last = path.last()?;
        let ns = |what: &str| -> Option<f64> {
            let before = &last[..last.find(&format!(" ns {what}"))?];
            before.rsplit([' ', ',']).next()?.parse().ok()
        };
        Some(PathSummary {
            from: sources.first()?.clone(),
            to,
            logic_levels: sources.len() - 1,
            logic_ns: ns("logic")?,
            routing_ns: ns("routing")?,
        })
    }
}

impl fmt::Display for PathSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} -> {}: {} logic levels, {:.2} ns logic + {:.2} ns routing",
            self.from, self.to, self.logic_levels, self.logic_ns, self.routing_ns
        )
    }
}

/// The last "Device utilisation" block of a nextpnr log.
pub fn parse_utilisation(log: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = log.lines().collect();
    let Some(start) = lines.iter().rposition(|l| l.contains("Device utilisation")) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for line in &lines[start + 1..] {
        let body = line.strip_prefix("Info:").unwrap_or(line).trim();
        let Some((name, rest)) = body.split_once(':') else {
            break;
        };
        let Some((used, total)) = rest.split_once('/') else {
            break;
        };
        let (Ok(used), Some(Ok(total))) = (
            used.trim().parse::<usize>(),
            total.split_whitespace().next().map(|t| t.parse::<usize>()),
        ) else {
            break;
        };
        out.push((name.trim().to_string(), used, total));
    }
    out
}
