//! The decoder's state table, every edge, as an SVG figure
//! (`docs/figures/state_table_{rfc3629,iso10646}.svg`, chapter 3): a row
//! per state of [`StateMachine::derive`], a column per run of bytes that
//! act alike in every state. Its companion drawing is
//! [`crate::state_diagram`].

use std::fmt::Write as _;

use crate::state_machine::{kind, ranges, Edge, State, StateMachine};
use crate::wave_svg::{escape, svg_page};

/// The cell of an edge: where it leads, then the units that leave.
fn label(edge: &Edge, states: &[State]) -> Vec<String> {
    let mut lines = vec![format!("→ {}", states[edge.to].name())];
    if let Some(unit) = &edge.breaks {
        lines.push(format!("FFFD {}, then", kind(unit)));
    }
    if let Some(unit) = &edge.word {
        lines.push(match unit.error {
            None => "word".into(),
            Some(_) => format!("FFFD {}", kind(unit)),
        });
    }
    lines
}

const STATE_WIDTH: u32 = 130;
/// The advance of a character of the 11 px monospace font, in tenths of a
/// pixel (DejaVu Sans Mono: 6.62 px); the state diagram uses it too.
pub(crate) const CHAR_WIDTH_TENTHS: u32 = 67;
const HEADER_HEIGHT: u32 = 40;
const ROW_HEIGHT: u32 = 52;
const LINE: u32 = 14;

/// The state table of a decoder's derived states and edges as an SVG: a row per state, a
/// column per run of bytes that act alike in every state, and the `tlast`
/// column.
pub fn render(machine: &StateMachine) -> String {
    let StateMachine {
        profile,
        states,
        edges,
    } = machine;
    // Columns: maximal runs of bytes whose edges agree in every state.
    let mut columns: Vec<Vec<u8>> = Vec::new();
    for byte in 0..=255u8 {
        let same_as_last = columns.last().is_some_and(|column| {
            let last = *column.last().expect("a column has a byte");
            edges
                .iter()
                .all(|row| row[usize::from(last)].acts_like(&row[usize::from(byte)]))
        });
        match (same_as_last, columns.last_mut()) {
            (true, Some(column)) => column.push(byte),
            _ => columns.push(vec![byte]),
        }
    }
    // A message's last byte leaves nothing open: what would stay open is
    // truncated instead, whatever the state (`StateMachine::derive` checks
    // it on every edge).
    let tlast = vec![
        format!("→ {}", states[0].name()),
        "what stays open:".into(),
        "FFFD truncated".into(),
    ];
    let labels: Vec<Vec<Vec<String>>> = edges
        .iter()
        .map(|row| {
            columns
                .iter()
                .map(|c| label(&row[usize::from(c[0])], states))
                .collect()
        })
        .collect();
    let longest = labels
        .iter()
        .flatten()
        .flatten()
        .chain(&tlast)
        .map(|l| l.chars().count() as u32)
        .max()
        .unwrap_or(0);
    let cell_width = (longest * CHAR_WIDTH_TENTHS).div_ceil(10) + 10;
    let width = STATE_WIDTH + cell_width * (columns.len() as u32 + 1) + 20;
    let height = 40 + HEADER_HEIGHT + ROW_HEIGHT * states.len() as u32 + 50;
    let mut svg = svg_page(width, height, 11);
    let _ = writeln!(
        svg,
        r#"<text x="8" y="20" font-size="13" font-weight="bold">The {} decoder's states and every edge, from the reference (state = octets still needed · what the next octet must be)</text>"#,
        profile.name()
    );
    let top = 40;
    let cell = |svg: &mut String, x: u32, y: u32, w: u32, h: u32, fill: &str, lines: &[String]| {
        let _ = writeln!(
            svg,
            r##"<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{fill}" stroke="#999"/>"##
        );
        for (i, line) in lines.iter().enumerate() {
            let _ = writeln!(
                svg,
                r#"<text x="{}" y="{}">{}</text>"#,
                x + 4,
                y + LINE * (i as u32 + 1),
                escape(line)
            );
        }
    };
    cell(
        &mut svg,
        10,
        top,
        STATE_WIDTH,
        HEADER_HEIGHT,
        "#e8f0fb",
        &["state".into(), "byte:".into()],
    );
    for (c, column) in columns.iter().enumerate() {
        let x = 10 + STATE_WIDTH + cell_width * c as u32;
        cell(
            &mut svg,
            x,
            top,
            cell_width,
            HEADER_HEIGHT,
            "#e8f0fb",
            &[ranges(column)],
        );
    }
    let tlast_x = 10 + STATE_WIDTH + cell_width * columns.len() as u32;
    cell(
        &mut svg,
        tlast_x,
        top,
        cell_width,
        HEADER_HEIGHT,
        "#e8f0fb",
        &["any byte".into(), "with tlast".into()],
    );
    for (s, state) in states.iter().enumerate() {
        let y = top + HEADER_HEIGHT + ROW_HEIGHT * s as u32;
        cell(
            &mut svg,
            10,
            y,
            STATE_WIDTH,
            ROW_HEIGHT,
            "#f6f6f6",
            &[state.name()],
        );
        for (c, column) in columns.iter().enumerate() {
            let x = 10 + STATE_WIDTH + cell_width * c as u32;
            let edge = &edges[s][usize::from(column[0])];
            let fill = match (&edge.breaks, &edge.word) {
                (Some(_), _) => "#fdecea",
                (None, Some(u)) if u.error.is_some() => "#fff4e0",
                _ => "white",
            };
            cell(&mut svg, x, y, cell_width, ROW_HEIGHT, fill, &labels[s][c]);
        }
        cell(
            &mut svg, tlast_x, y, cell_width, ROW_HEIGHT, "#f6f6f6", &tlast,
        );
    }
    let legend_y = top + HEADER_HEIGHT + ROW_HEIGHT * states.len() as u32 + 24;
    let _ = writeln!(
        svg,
        r#"<text x="10" y="{legend_y}">"word": a character leaves. "FFFD kind": an error leaves (orange). Red: the byte breaks the open sequence, whose FFFD leaves first; then the byte acts as in state 0.</text>"#
    );
    svg.push_str("</svg>\n");
    svg
}
