//! A small SVG renderer for the guide's waveforms.
//!
//! It reads a VCD written by [`crate::waveform`] (with the `vcd` crate's
//! parser) and draws one row per signal, one column per clock cycle, in the
//! style of a datasheet timing diagram: every interval labelled, enum states
//! by name. Its output is deterministic, so committed figures can be
//! compared byte for byte.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::BufRead;

use anyhow::{Context, Result};
use vcd::{Command, IdCode, Value};

/// How a row shows its values.
#[derive(Copy, Clone)]
pub enum Style {
    /// The clock: a square wave, rising at each cycle's start.
    Clock,
    /// A 1-bit signal, drawn high or low.
    Bit,
    /// A bus, labelled in hex.
    Hex,
    /// A bus of flags, labelled in binary with this many digits.
    Binary(usize),
    /// A bus whose codes have names (enum states, error kinds).
    Names(fn(u64) -> String),
    /// A bus of `count` lanes of `bits` each, lane 0 (first in the
    /// stream) first, each in hex: `C2 41` for the 16-bit tdata 41C2
    /// (bytes in two digits, wider lanes without leading zeros, so that a
    /// beat of words fits a cycle: `FFFD 41`).
    Lanes { bits: u32, count: u32 },
}

/// One row: the VCD path of the signal, its label and style, and the
/// valid signal (if any) without which its value means nothing and is
/// drawn blank.
#[derive(Copy, Clone)]
pub struct Row {
    pub path: &'static str,
    pub label: &'static str,
    pub style: Style,
    pub valid: Option<&'static str>,
}

const LABEL_WIDTH: u32 = 210;
const CYCLE_WIDTH: u32 = 76;
const ROW_HEIGHT: u32 = 26;
const TOP: u32 = 30;

/// The value of one signal at the start of each cycle (sampled just after
/// the clock-to-output delay, when the cycle's values are stable).
fn sample_cycles(
    vcd: impl BufRead,
    scope: Option<&str>,
    paths: &[&str],
    period: u64,
    cycles: u64,
) -> Result<Vec<Vec<Option<u64>>>> {
    let mut parser = vcd::Parser::new(vcd);
    let header = parser.parse_header().context("not a VCD")?;
    let mut index: HashMap<IdCode, usize> = HashMap::new();
    for (i, path) in paths.iter().enumerate() {
        let parts: Vec<&str> = match scope {
            Some(scope) => scope.split('.').chain(path.split('.').skip(1)).collect(),
            None => path.split('.').collect(),
        };
        let var = header
            .find_var(&parts)
            .with_context(|| format!("no signal {path} in the VCD"))?;
        index.insert(var.code, i);
    }
    // Each signal's changes, in time order.
    let mut changes: Vec<Vec<(u64, u64)>> = vec![Vec::new(); paths.len()];
    let mut time = 0;
    for command in parser {
        let (id, value) = match command? {
            Command::Timestamp(t) => {
                time = t;
                continue;
            }
            Command::ChangeScalar(id, v) => (id, (v == Value::V1) as u64),
            Command::ChangeVector(id, bits) => (
                id,
                bits.into_iter()
                    .fold(0, |acc, b| acc << 1 | (b == Value::V1) as u64),
            ),
            _ => continue,
        };
        if let Some(&i) = index.get(&id) {
            changes[i].push((time, value));
        }
    }
    // A cycle's value is the last change before its sampling point, a
    // quarter period after its rising edge (past the clock-to-output delay).
    Ok(changes
        .iter()
        .map(|row| {
            (0..cycles)
                .map(|cycle| {
                    let at = cycle * period + period / 4;
                    row.iter()
                        .take_while(|(t, _)| *t <= at)
                        .last()
                        .map(|(_, v)| *v)
                })
                .collect()
        })
        .collect())
}

fn label(style: Style, value: u64) -> String {
    match style {
        Style::Clock | Style::Bit => String::new(),
        Style::Hex => format!("{value:02X}"),
        Style::Binary(digits) => format!("{value:0digits$b}"),
        Style::Names(name) => name(value),
        Style::Lanes { bits, count } => {
            let digits = if bits == 8 { 2 } else { 1 };
            let mask = u64::MAX >> (64 - bits);
            (0..count)
                .map(|i| format!("{:0digits$X}", value >> (i * bits) & mask))
                .collect::<Vec<_>>()
                .join(" ")
        }
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Renders `rows` of `vcd` over `cycles` clock cycles of `period` time
/// units, with `title` above.
pub fn render(
    vcd: impl BufRead,
    rows: &[Row],
    period: u64,
    cycles: u64,
    title: &str,
) -> Result<String> {
    render_in_scope(vcd, None, rows, period, cycles, title)
}

/// [`render`] for a VCD in which the design sits in `scope` (a formal
/// trace's `utf8_decoder_properties.dut`) rather than at the top: the first
/// part of each row's path, the design's name, becomes `scope`.
pub fn render_in_scope(
    vcd: impl BufRead,
    scope: Option<&str>,
    rows: &[Row],
    period: u64,
    cycles: u64,
    title: &str,
) -> Result<String> {
    let mut paths: Vec<&str> = Vec::new();
    for path in rows
        .iter()
        .map(|r| r.path)
        .chain(rows.iter().filter_map(|r| r.valid))
    {
        if !paths.contains(&path) {
            paths.push(path);
        }
    }
    let sampled = sample_cycles(vcd, scope, &paths, period, cycles)?;
    let sample_of = |path: &str| &sampled[paths.iter().position(|p| *p == path).expect("sampled")];
    let values: Vec<Vec<Option<u64>>> = rows
        .iter()
        .map(|row| match row.valid {
            None => sample_of(row.path).clone(),
            Some(valid) => sample_of(row.path)
                .iter()
                .zip(sample_of(valid))
                .map(|(v, ok)| v.filter(|_| *ok == Some(1)))
                .collect(),
        })
        .collect();
    let width =
        (LABEL_WIDTH + CYCLE_WIDTH * cycles as u32 + 10).max(title.chars().count() as u32 * 8 + 16);
    let height = TOP + ROW_HEIGHT * (rows.len() as u32 + 1) + 10;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="monospace" font-size="12">"#
    );
    let _ = writeln!(
        svg,
        r#"<rect width="{width}" height="{height}" fill="white"/>"#
    );
    let _ = writeln!(
        svg,
        r#"<text x="8" y="18" font-size="13" font-weight="bold">{}</text>"#,
        escape(title)
    );
    for cycle in 0..cycles as u32 {
        let x = LABEL_WIDTH + cycle * CYCLE_WIDTH;
        let _ = writeln!(
            svg,
            r##"<line x1="{x}" y1="{TOP}" x2="{x}" y2="{}" stroke="#ddd"/><text x="{}" y="{}" fill="#888" text-anchor="middle">{cycle}</text>"##,
            height - 10,
            x + CYCLE_WIDTH / 2,
            TOP + 14
        );
    }
    for (r, row) in rows.iter().enumerate() {
        let y = TOP + ROW_HEIGHT * (r as u32 + 1);
        let (hi, lo) = (y + 4, y + ROW_HEIGHT - 6);
        let _ = writeln!(
            svg,
            r#"<text x="8" y="{}">{}</text>"#,
            lo - 2,
            escape(row.label)
        );
        let samples = &values[r];
        let mut start = 0;
        while start < samples.len() {
            let end = (start..samples.len())
                .find(|&c| samples[c] != samples[start])
                .unwrap_or(samples.len());
            let x0 = LABEL_WIDTH + start as u32 * CYCLE_WIDTH;
            let x1 = LABEL_WIDTH + end as u32 * CYCLE_WIDTH;
            match (row.style, samples[start]) {
                (Style::Clock, _) => {
                    for cycle in start..end {
                        let x = LABEL_WIDTH + cycle as u32 * CYCLE_WIDTH;
                        let half = x + CYCLE_WIDTH / 2;
                        let next = x + CYCLE_WIDTH;
                        let _ = writeln!(
                            svg,
                            r##"<polyline points="{x},{lo} {x},{hi} {half},{hi} {half},{lo} {next},{lo}" fill="none" stroke="#1a5fb4" stroke-width="2"/>"##
                        );
                    }
                }
                (_, None) => {
                    let _ = writeln!(
                        svg,
                        r##"<rect x="{x0}" y="{hi}" width="{}" height="{}" fill="#eee"/>"##,
                        x1 - x0,
                        lo - hi
                    );
                }
                (Style::Bit, Some(v)) => {
                    let level = if v != 0 { hi } else { lo };
                    let _ = writeln!(
                        svg,
                        r##"<polyline points="{x0},{hi} {x0},{lo} {x0},{level} {x1},{level}" fill="none" stroke="#1a5fb4" stroke-width="2"/>"##
                    );
                }
                (style, Some(v)) => {
                    let mid = (hi + lo) / 2;
                    let _ = writeln!(
                        svg,
                        r##"<polygon points="{},{mid} {},{hi} {},{hi} {x1},{mid} {},{lo} {},{lo}" fill="#e8f0fb" stroke="#1a5fb4"/><text x="{}" y="{}">{}</text>"##,
                        x0,
                        x0 + 4,
                        x1 - 4,
                        x1 - 4,
                        x0 + 4,
                        x0 + 8,
                        lo - 5,
                        escape(&label(style, v))
                    );
                }
            }
            start = end;
        }
    }
    svg.push_str("</svg>\n");
    Ok(svg)
}
