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
use bitvec::prelude::*;
use vcd::{Command, IdCode, Value};

/// One sampled value, as wide as its signal (a 32-lane `m_axis_tdata` is
/// 1024 bits), bit 0 first.
type Sample = BitVec<u64, Lsb0>;

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
    /// stream) first: `C2 41` for the 16-bit tdata 41C2. Each lane is in
    /// hex (bytes in two digits, wider lanes without leading zeros, so that
    /// a beat of words stays short: `FFFD 41`), or named by `name`.
    Lanes {
        bits: usize,
        count: usize,
        name: Option<fn(u64) -> String>,
    },
}

/// When a row's value is a new item, so that two equal items in a row are
/// drawn as two boxes, not one.
#[derive(Copy, Clone)]
pub enum Moves {
    /// A new item when the value changes (a register that may hold).
    Held,
    /// A new item in every cycle in which the row is valid (a pipeline
    /// stage that never stalls).
    EveryCycle,
    /// A new item after every cycle in which the row is valid and this
    /// signal, the stage's enable, is high.
    Enabled(&'static str),
    /// An AXI4-Stream port's data: a new item after every transfer, a
    /// cycle in which the row is valid and this signal, its `tready`, is
    /// high. Transfers are marked with a dot.
    Transfer(&'static str),
}

impl Moves {
    /// The signal that moves the row on, if any.
    pub(crate) fn enable(self) -> Option<&'static str> {
        match self {
            Moves::Enabled(enable) | Moves::Transfer(enable) => Some(enable),
            Moves::Held | Moves::EveryCycle => None,
        }
    }
}

/// One row: the VCD path of the signal, its label and style, the valid
/// signal (if any) without which its value means nothing and is drawn
/// blank, and when its values move on.
#[derive(Copy, Clone)]
pub struct Row {
    pub path: &'static str,
    pub label: &'static str,
    pub style: Style,
    pub valid: Option<&'static str>,
    pub moves: Moves,
}

const LABEL_WIDTH: u32 = 210;
/// The narrowest cycle; a cycle widens to fit the longest label of one
/// cycle, so that no label is cut.
const CYCLE_WIDTH: u32 = 76;
/// The advance of one character of the 12 px monospace font, in tenths
/// of a pixel (DejaVu Sans Mono: 7.22 px).
const CHAR_WIDTH_TENTHS: u32 = 73;
const ROW_HEIGHT: u32 = 26;
const TOP: u32 = 30;

/// The value of each signal in each of the cycles `cycles` (sampled just
/// after the clock-to-output delay, when the cycle's values are stable).
fn sample_cycles(
    vcd: impl BufRead,
    scope: Option<&str>,
    paths: &[&str],
    period: u64,
    cycles: &std::ops::Range<u64>,
) -> Result<Vec<Vec<Option<Sample>>>> {
    let mut parser = vcd::Parser::new(vcd);
    let header = parser.parse_header().context("not a VCD")?;
    // Each signal's row and width.
    let mut index: HashMap<IdCode, (usize, usize)> = HashMap::new();
    for (i, path) in paths.iter().enumerate() {
        let parts: Vec<&str> = match scope {
            Some(scope) => scope.split('.').chain(path.split('.').skip(1)).collect(),
            None => path.split('.').collect(),
        };
        let var = header
            .find_var(&parts)
            .with_context(|| format!("no signal {path} in the VCD"))?;
        index.insert(var.code, (i, var.size as usize));
    }
    // A cycle's value is the last change before its sampling point, a
    // quarter period after its rising edge (past the clock-to-output delay).
    let sampling_point = |cycle: u64| cycle * period + period / 4;
    let mut current: Vec<Option<Sample>> = vec![None; paths.len()];
    let mut sampled: Vec<Vec<Option<Sample>>> = vec![Vec::new(); paths.len()];
    let mut next_cycle = cycles.start;
    let mut sample_until = |time: u64, current: &[Option<Sample>], next: &mut u64| {
        while *next < cycles.end && sampling_point(*next) < time {
            for (row, value) in sampled.iter_mut().zip(current) {
                row.push(value.clone());
            }
            *next += 1;
        }
    };
    for command in parser {
        let (id, value) = match command? {
            Command::Timestamp(t) => {
                sample_until(t, &current, &mut next_cycle);
                continue;
            }
            Command::ChangeScalar(id, v) => (id, BitVec::repeat(v == Value::V1, 1)),
            // The VCD lists bits most significant first.
            Command::ChangeVector(id, bits) => {
                let mut value: Sample = bits.into_iter().map(|b| b == Value::V1).collect();
                value.reverse();
                (id, value)
            }
            _ => continue,
        };
        if let Some(&(i, width)) = index.get(&id) {
            let mut value = value;
            // A VCD may leave out a vector's leading zeros.
            value.resize(width, false);
            current[i] = Some(value);
        }
    }
    sample_until(u64::MAX, &current, &mut next_cycle);
    Ok(sampled)
}

/// A value in hex: at least `min_digits`, no leading zeros beyond them.
fn hex(value: &BitSlice<u64, Lsb0>, min_digits: usize) -> String {
    let digits: Vec<u8> = value.chunks(4).map(|nibble| nibble.load::<u8>()).collect();
    let used = digits.iter().rposition(|&d| d != 0).map_or(0, |i| i + 1);
    digits[..used.max(min_digits).min(digits.len())]
        .iter()
        .rev()
        .map(|d| char::from_digit(u32::from(*d), 16).map_or('?', |c| c.to_ascii_uppercase()))
        .collect()
}

/// A value of at most 64 bits as a number (wider ones keep their low 64).
fn number(value: &BitSlice<u64, Lsb0>) -> u64 {
    value[..value.len().min(64)].load::<u64>()
}

fn label(style: Style, value: &BitSlice<u64, Lsb0>) -> String {
    match style {
        Style::Clock | Style::Bit => String::new(),
        Style::Hex => hex(value, 2),
        Style::Binary(digits) => (0..digits)
            .rev()
            .map(|i| match value.get(i).as_deref() {
                Some(true) => '1',
                _ => '0',
            })
            .collect(),
        Style::Names(name) => name(number(value)),
        Style::Lanes { bits, count, name } => value
            .chunks(bits)
            .take(count)
            .map(|lane| match name {
                Some(name) => name(number(lane)),
                None => hex(lane, if bits == 8 { 2 } else { 1 }),
            })
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// `text` as SVG character data (the figures' labels hold `<`, `&`, `>`).
pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The start of a figure of `width` by `height` in monospace of
/// `font_size`: the `<svg>` element and its white background.
pub(crate) fn svg_page(width: u32, height: u32, font_size: u32) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"monospace\" font-size=\"{font_size}\">\n\
         <rect width=\"{width}\" height=\"{height}\" fill=\"white\"/>\n"
    )
}

/// Renders `rows` of `vcd` over the clock cycles `cycles` of `period` time
/// units, with `title` above. The design sits in `scope` of the VCD (a
/// formal trace's `utf8_decoder_properties.dut`, or the core's module
/// name): the first part of each row's path, the design's name, becomes
/// `scope`; `None` takes the paths as they are.
pub fn render(
    vcd: impl BufRead,
    scope: Option<&str>,
    rows: &[Row],
    period: u64,
    cycles: std::ops::Range<u64>,
    title: &str,
) -> Result<String> {
    let mut paths: Vec<&str> = Vec::new();
    let wanted = rows.iter().flat_map(|r| {
        [Some(r.path), r.valid, r.moves.enable()]
            .into_iter()
            .flatten()
    });
    for path in wanted {
        if !paths.contains(&path) {
            paths.push(path);
        }
    }
    let sampled = sample_cycles(vcd, scope, &paths, period, &cycles)?;
    let sample_of = |path: &str| &sampled[paths.iter().position(|p| *p == path).expect("sampled")];
    let high = |path: Option<&str>, cycle: usize| {
        path.is_none_or(|p| sample_of(p)[cycle].as_ref().is_some_and(|v| v.any()))
    };
    let count = sampled.first().map_or(0, Vec::len);
    let drawn: Vec<DrawnRow> = rows
        .iter()
        .map(|row| {
            let values: Vec<Option<Sample>> = (0..count)
                .map(|c| {
                    sample_of(row.path)[c]
                        .clone()
                        .filter(|_| high(row.valid, c))
                })
                .collect();
            let moved: Vec<bool> = (0..count)
                .map(|c| {
                    values[c].is_some() && row.moves.enable().is_some_and(|e| high(Some(e), c))
                })
                .collect();
            // A box starts where the value changes, or where a new item
            // follows an old one.
            let starts = (0..count)
                .map(|c| {
                    c == 0
                        || values[c] != values[c - 1]
                        || match row.moves {
                            Moves::Held => false,
                            Moves::EveryCycle => values[c].is_some(),
                            Moves::Enabled(_) | Moves::Transfer(_) => moved[c - 1],
                        }
                })
                .collect();
            let labels = values
                .iter()
                .map(|v| v.as_ref().map(|v| label(row.style, v)))
                .collect();
            let transfer = match row.moves {
                Moves::Transfer(_) => moved,
                _ => vec![false; count],
            };
            DrawnRow {
                row,
                values,
                labels,
                starts,
                transfer,
            }
        })
        .collect();
    let widest_label = drawn
        .iter()
        .flat_map(|d| d.labels.iter().flatten())
        .map(|l| l.chars().count() as u32)
        .max()
        .unwrap_or(0);
    let cycle_width = CYCLE_WIDTH.max((widest_label * CHAR_WIDTH_TENTHS).div_ceil(10) + 16);
    let text_width = |text: &str| (text.chars().count() as u32 * 8) + 16;
    let width = (LABEL_WIDTH + cycle_width * count as u32 + 10)
        .max(text_width(title))
        .max(text_width(LEGEND));
    let height = TOP + ROW_HEIGHT * (rows.len() as u32 + 1) + 10 + LEGEND_HEIGHT;
    let mut svg = svg_page(width, height, 12);
    let _ = writeln!(
        svg,
        r#"<text x="8" y="18" font-size="13" font-weight="bold">{}</text>"#,
        escape(title)
    );
    let bottom = height - 10 - LEGEND_HEIGHT;
    for (i, cycle) in cycles.clone().take(count).enumerate() {
        let x = LABEL_WIDTH + i as u32 * cycle_width;
        let _ = writeln!(
            svg,
            r##"<line x1="{x}" y1="{TOP}" x2="{x}" y2="{bottom}" stroke="#ddd"/><text x="{}" y="{}" fill="#888" text-anchor="middle">{cycle}</text>"##,
            x + cycle_width / 2,
            TOP + 14
        );
    }
    for (r, drawn) in drawn.iter().enumerate() {
        let y = TOP + ROW_HEIGHT * (r as u32 + 1);
        drawn.draw(&mut svg, y, cycle_width);
    }
    let _ = writeln!(
        svg,
        r##"<circle cx="14" cy="{}" r="3" fill="{TRANSFER_COLOUR}"/><text x="24" y="{}" fill="#555">{LEGEND}</text>"##,
        bottom + 12,
        bottom + 16
    );
    svg.push_str("</svg>\n");
    Ok(svg)
}

/// The values of `rows` of `vcd` in each of the clock cycles `cycles`, as
/// the figure of the same rows labels them (a bit as `0` or `1`), `None`
/// where a row's valid is low: the text of a timing diagram. `scope` is as
/// for [`render`].
pub fn labels(
    vcd: impl BufRead,
    scope: Option<&str>,
    rows: &[Row],
    period: u64,
    cycles: std::ops::Range<u64>,
) -> Result<Vec<Vec<Option<String>>>> {
    let mut paths: Vec<&str> = Vec::new();
    for path in rows.iter().flat_map(|r| [Some(r.path), r.valid]).flatten() {
        if !paths.contains(&path) {
            paths.push(path);
        }
    }
    let sampled = sample_cycles(vcd, scope, &paths, period, &cycles)?;
    let sample_of = |path: &str| &sampled[paths.iter().position(|p| *p == path).expect("sampled")];
    Ok(rows
        .iter()
        .map(|row| {
            let valid = row.valid.map(sample_of);
            sample_of(row.path)
                .iter()
                .enumerate()
                .map(|(cycle, value)| {
                    let value = value.as_ref()?;
                    if let Some(valid) = valid {
                        valid[cycle].as_ref().filter(|v| v.any())?;
                    }
                    Some(match row.style {
                        Style::Clock | Style::Bit => u8::from(value.any()).to_string(),
                        style => label(style, value),
                    })
                })
                .collect()
        })
        .collect())
}

const LEGEND: &str = "a transfer: valid and ready high in that cycle";
const LEGEND_HEIGHT: u32 = 22;
const TRANSFER_COLOUR: &str = "#26a269";

/// A row, sampled and labelled, ready to draw.
struct DrawnRow<'a> {
    row: &'a Row,
    values: Vec<Option<Sample>>,
    labels: Vec<Option<String>>,
    /// A new box starts in this cycle.
    starts: Vec<bool>,
    /// A transfer in this cycle (marked with a dot).
    transfer: Vec<bool>,
}

impl DrawnRow<'_> {
    fn draw(&self, svg: &mut String, y: u32, cycle_width: u32) {
        let (hi, lo) = (y + 4, y + ROW_HEIGHT - 6);
        let x_of = |cycle: usize| LABEL_WIDTH + cycle as u32 * cycle_width;
        let _ = writeln!(
            svg,
            r#"<text x="8" y="{}">{}</text>"#,
            lo - 2,
            escape(self.row.label)
        );
        let count = self.values.len();
        let mut start = 0;
        while start < count {
            let end = (start + 1..count)
                .find(|&c| self.starts[c])
                .unwrap_or(count);
            let (x0, x1) = (x_of(start), x_of(end));
            match (self.row.style, &self.values[start]) {
                (Style::Clock, _) => {
                    for cycle in start..end {
                        let x = x_of(cycle);
                        let half = x + cycle_width / 2;
                        let next = x + cycle_width;
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
                    let level = if v.any() { hi } else { lo };
                    let _ = writeln!(
                        svg,
                        r##"<polyline points="{x0},{hi} {x0},{lo} {x0},{level} {x1},{level}" fill="none" stroke="#1a5fb4" stroke-width="2"/>"##
                    );
                }
                (_, Some(_)) => {
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
                        escape(self.labels[start].as_deref().unwrap_or_default())
                    );
                }
            }
            start = end;
        }
        for cycle in (0..count).filter(|&c| self.transfer[c]) {
            let _ = writeln!(
                svg,
                r#"<circle cx="{}" cy="{}" r="3" fill="{TRANSFER_COLOUR}"/>"#,
                x_of(cycle + 1) - 7,
                hi + 1
            );
        }
    }
}
