//! The decoder's state diagram as a UML statechart in SVG
//! (`docs/figures/state_diagram_{rfc3629,iso10646}.svg`, chapter 3), drawn
//! from the same states and edges as the state table
//! ([`StateMachine::derive`]), with every edge on it.
//!
//! State 0 is on the left; the open states are inside the composite state
//! "open sequence", in one column per `bytes_left` (the most on the left,
//! so that a sequence reads left to right) and one row each. Each byte's
//! edge in each state is drawn exactly once:
//!
//! * out of state 0: a loop for the bytes that make a unit at once, and an
//!   arrow into each open state for the leads;
//! * out of an open state, for the bytes that continue it: an arrow into
//!   the next state (state 0 with the word, after the last octet);
//! * out of an open state, for the bytes that break it: the composite's
//!   arrow "U+FFFD truncated, then the byte as in state 0", which
//!   [`StateMachine::breaks_as_in_state_0`] checks byte by byte, and an
//!   arrow of their own for the bytes where it does not hold (a continuing
//!   octet outside the bound of an E0, ED, F0, F4, F8 or FC);
//! * `tlast`: the composite's arrow "U+FFFD truncated", which
//!   [`StateMachine::derive`] checks on every edge.

use std::fmt::Write as _;

use crate::state_machine::{kind, ranges, Edge, StateMachine};
use crate::state_table::CHAR_WIDTH_TENTHS;
use crate::wave_svg::escape;

const BOX_WIDTH: u32 = 120;
const BOX_HEIGHT: u32 = 40;
const ROW_PITCH: u32 = 64;
const COLUMN_GAP: u32 = 100;
const LINE: u32 = 14;
const STATE_0_WIDTH: u32 = 130;
/// The top of state 0 and of the first row's space.
const TOP: u32 = 120;
/// Lead arrows enter a state this far above its middle; arrows of its own
/// breaking bytes leave this far below it, so that the two never meet.
const LEAD_RISE: u32 = 7;
const BREAK_DROP: u32 = 9;
const ERROR_COLOUR: &str = "#b03a2e";
const EDGE_COLOUR: &str = "#222";

/// The width of `text` in the 11 px monospace font, in pixels.
fn text_width(text: &str) -> u32 {
    (text.chars().count() as u32 * CHAR_WIDTH_TENTHS).div_ceil(10)
}

/// What leaves on an edge, one unit a line: `word`, or `U+FFFD` and the
/// error's kind; the broken sequence's U+FFFD first.
fn units(edge: &Edge) -> Vec<String> {
    edge.breaks
        .iter()
        .chain(&edge.word)
        .map(|unit| match unit.error {
            None => "word".into(),
            Some(_) => format!("U+FFFD {}", kind(unit)),
        })
        .collect()
}

/// An arrow's label, UML style: `bytes / what leaves`, a unit a line.
fn label(bytes: &[u8], edge: &Edge) -> Vec<String> {
    let units = units(edge);
    let mut lines = vec![ranges(bytes)];
    for (i, unit) in units.iter().enumerate() {
        let comma = if i + 1 < units.len() { "," } else { "" };
        match i {
            0 => lines[0] = format!("{} / {unit}{comma}", lines[0]),
            _ => lines.push(format!("{unit}{comma}")),
        }
    }
    lines
}

/// The state that `state`'s continuing bytes lead to. The layout draws one
/// arrow for them, so they must all lead to one state.
fn continued_into(machine: &StateMachine, state: usize) -> usize {
    let targets: Vec<usize> = machine
        .groups(state, |b| continues(machine, state, b))
        .iter()
        .map(|(_, edge)| edge.to)
        .collect();
    assert!(
        targets.windows(2).all(|w| w[0] == w[1]) && !targets.is_empty(),
        "{} continues into {targets:?}: the diagram draws one state",
        machine.states[state].name()
    );
    targets[0]
}

/// `byte` continues the open `state` (breaks nothing).
fn continues(machine: &StateMachine, state: usize, byte: u8) -> bool {
    machine.edges[state][usize::from(byte)].breaks.is_none()
}

/// The open states from top to bottom: by `bytes_left`, the most first;
/// in each column, first the state that the column before continues into
/// (so that its arrows can drop onto that state's top), then the others in
/// the order found.
fn rows(machine: &StateMachine) -> Vec<usize> {
    let most = machine.states.iter().map(|s| s.needed).max().unwrap_or(0);
    let mut rows: Vec<usize> = Vec::new();
    for needed in (1..=most).rev() {
        let mut column: Vec<usize> = (1..machine.states.len())
            .filter(|&s| machine.states[s].needed == needed)
            .collect();
        if let Some(&first_of_previous) = rows.last() {
            let into = continued_into(machine, first_of_previous);
            assert!(
                rows.iter()
                    .filter(|&&s| machine.states[s].needed == needed + 1)
                    .all(|&s| continued_into(machine, s) == into),
                "the states of bytes_left {} continue into more than one state",
                needed + 1
            );
            column.retain(|&s| s != into);
            column.insert(0, into);
        }
        rows.extend(column);
    }
    rows
}

/// An SVG being drawn: lines of text, arrows, boxes.
struct Canvas(String);

impl Canvas {
    /// `lines` from baseline `y` down, anchored at `x` (`start`, `middle`
    /// or `end`).
    fn text(&mut self, x: u32, y: u32, anchor: &str, lines: &[String]) {
        for (i, line) in lines.iter().enumerate() {
            let _ = writeln!(
                self.0,
                r#"<text x="{x}" y="{}" text-anchor="{anchor}">{}</text>"#,
                y + LINE * i as u32,
                escape(line)
            );
        }
    }

    /// A polyline through `points`, with an arrow head at the last.
    fn arrow(&mut self, points: &[(u32, u32)], colour: &str) {
        let points: Vec<String> = points.iter().map(|(x, y)| format!("{x},{y}")).collect();
        let _ = writeln!(
            self.0,
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="1.2" marker-end="url(#head{})"/>"#,
            points.join(" "),
            &colour[1..]
        );
    }

    /// A rounded box.
    fn state_box(&mut self, x: u32, y: u32, width: u32, height: u32, fill: &str) {
        let _ = writeln!(
            self.0,
            r##"<rect x="{x}" y="{y}" width="{width}" height="{height}" rx="10" fill="{fill}" stroke="#335" stroke-width="1.2"/>"##
        );
    }
}

/// The state diagram of a decoder's derived states and edges as an SVG.
pub fn render(machine: &StateMachine) -> String {
    let profile = machine.profile;
    let states = &machine.states;
    let edges = &machine.edges;
    let rows = rows(machine);
    let most = states.iter().map(|s| s.needed).max().unwrap_or(0);

    // What each arrow says, before placing anything, to size the spaces.
    let loop_lines: Vec<String> = machine
        .groups(0, |b| edges[0][usize::from(b)].to == 0)
        .iter()
        .flat_map(|(bytes, edge)| label(bytes, edge))
        .collect();
    let leads = machine.groups(0, |b| edges[0][usize::from(b)].to != 0);
    let broken_otherwise: Vec<Vec<(Vec<u8>, &Edge)>> = rows
        .iter()
        .map(|&s| {
            let groups = machine.groups(s, |b| {
                !continues(machine, s, b) && !machine.breaks_as_in_state_0(s, b)
            });
            assert!(
                groups.len() <= 1 && groups.iter().all(|(_, edge)| edge.to == 0),
                "{} breaks in more ways than one arrow into state 0 can draw",
                states[s].name()
            );
            groups
        })
        .collect();
    let any_other_byte =
        "any byte on no arrow out of its state / U+FFFD truncated, then the byte as in state 0";
    let tlast = "tlast (after its byte's arrow) / U+FFFD truncated";

    // Columns: state 0, then the composite, whose first column leaves room
    // for the labels of the arrows coming from state 0.
    let loop_width = loop_lines.iter().map(|l| text_width(l)).max().unwrap_or(0);
    let state_0_x = 10 + loop_width + 50;
    let state_0_right = state_0_x + STATE_0_WIDTH;
    let composite_x = state_0_right + 30;
    let label_room = leads
        .iter()
        .map(|(bytes, edge)| label(bytes, edge))
        .chain(broken_otherwise.iter().flatten().map(|(b, e)| label(b, e)))
        .flatten()
        .map(|l| text_width(&l))
        .max()
        .unwrap_or(0)
        + 24;
    let column_x = |needed: usize| {
        composite_x + label_room + (most - needed) as u32 * (BOX_WIDTH + COLUMN_GAP)
    };
    let composite_right =
        (column_x(1) + BOX_WIDTH + 20).max(composite_x + 10 + text_width(any_other_byte) + 80);
    let width = composite_right + 10;

    // Rows: one per open state, then the lanes of the arrows into state 0
    // from below.
    let row_top = |row: usize| TOP + 16 + row as u32 * ROW_PITCH;
    let row_of = |state: usize| {
        rows.iter()
            .position(|&s| s == state)
            .expect("an open state")
    };
    let rows_bottom = row_top(rows.len() - 1) + BOX_HEIGHT;
    let word_lane = rows_bottom + 24;
    let composite_top = TOP - 50;
    let composite_bottom = word_lane + 26;
    let any_other_byte_lane = composite_bottom + 30;
    let tlast_lane = any_other_byte_lane + 34;
    let height = tlast_lane + 20;

    let mut svg = Canvas(String::new());
    let _ = writeln!(
        svg.0,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="monospace" font-size="11">"#
    );
    let _ = writeln!(svg.0, "<defs>");
    for colour in [EDGE_COLOUR, ERROR_COLOUR] {
        let _ = writeln!(
            svg.0,
            r#"<marker id="head{}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>"#,
            &colour[1..]
        );
    }
    let _ = writeln!(svg.0, "</defs>");
    let _ = writeln!(
        svg.0,
        r#"<rect width="{width}" height="{height}" fill="white"/>"#
    );
    let _ = writeln!(
        svg.0,
        r#"<text x="8" y="20" font-size="13" font-weight="bold">The {} decoder's state diagram: every edge, from the reference (state = octets still needed · what the next octet must be)</text>"#,
        profile.name()
    );
    svg.text(
        8,
        40,
        "start",
        &[
            "An arrow says \"bytes / what leaves\": a word (a character), or a U+FFFD and its error kind. Red arrows send the U+FFFD of a broken sequence.".into(),
            "The two red arrows out of the box \"open sequence\" leave each of its states: for a byte that no arrow out of that state names, and at a message's end.".into(),
        ],
    );

    // The composite and its columns.
    let _ = writeln!(
        svg.0,
        r##"<rect x="{composite_x}" y="{composite_top}" width="{}" height="{}" rx="14" fill="#f7f9fc" stroke="#557" stroke-width="1.2"/>"##,
        composite_right - composite_x,
        composite_bottom - composite_top
    );
    let _ = writeln!(
        svg.0,
        r#"<text x="{}" y="{}" font-weight="bold">open sequence</text>"#,
        composite_x + 10,
        composite_top + 16
    );
    for needed in 1..=most {
        svg.text(
            column_x(needed) + BOX_WIDTH / 2,
            TOP + 6,
            "middle",
            &[format!("bytes_left {needed}")],
        );
    }

    // State 0, entered at reset, and its loop.
    let state_0_middle = state_0_x + STATE_0_WIDTH / 2;
    let _ = writeln!(
        svg.0,
        r##"<circle cx="{state_0_middle}" cy="{}" r="5" fill="#222"/>"##,
        TOP - 30
    );
    svg.arrow(
        &[(state_0_middle, TOP - 25), (state_0_middle, TOP)],
        EDGE_COLOUR,
    );
    svg.text(state_0_middle + 8, TOP - 10, "start", &["rst".into()]);
    svg.state_box(state_0_x, TOP, STATE_0_WIDTH, rows_bottom - TOP, "#e8f0fb");
    svg.text(state_0_middle, TOP + 18, "middle", &[states[0].name()]);
    let (loop_out, loop_in) = (TOP + 40, TOP + 40 + LINE * loop_lines.len() as u32);
    let _ = writeln!(
        svg.0,
        r#"<path d="M{state_0_x},{loop_out} C{},{loop_out} {},{loop_in} {state_0_x},{loop_in}" fill="none" stroke="{EDGE_COLOUR}" stroke-width="1.2" marker-end="url(#head{})"/>"#,
        state_0_x - 45,
        state_0_x - 45,
        &EDGE_COLOUR[1..]
    );
    svg.text(
        state_0_x - 40,
        (loop_out + loop_in) / 2 + 4 - LINE * (loop_lines.len() as u32 - 1) / 2,
        "end",
        &loop_lines,
    );

    // The open states, their arrows from state 0, and their own arrows.
    for (row, &s) in rows.iter().enumerate() {
        let (x, top) = (column_x(states[s].needed), row_top(row));
        let middle = top + BOX_HEIGHT / 2;
        svg.state_box(x, top, BOX_WIDTH, BOX_HEIGHT, "#e8f0fb");
        svg.text(x + BOX_WIDTH / 2, middle + 4, "middle", &[states[s].name()]);
        if let Some((bytes, edge)) = leads.iter().find(|(_, e)| e.to == s) {
            let lane = middle - LEAD_RISE;
            svg.arrow(&[(state_0_right, lane), (x, lane)], EDGE_COLOUR);
            svg.text(x - 12, lane - 4, "end", &label(bytes, edge));
        }
        for (bytes, edge) in &broken_otherwise[row] {
            let lane = middle + BREAK_DROP;
            svg.arrow(&[(x, lane), (state_0_right, lane)], ERROR_COLOUR);
            svg.text(x - 8, lane + 13, "end", &label(bytes, edge));
        }
        let into = continued_into(machine, s);
        for (bytes, edge) in machine.groups(s, |b| continues(machine, s, b)) {
            let lines = label(&bytes, edge);
            if into == 0 {
                let drop = x + BOX_WIDTH / 2;
                let entry = state_0_right - 25;
                svg.arrow(
                    &[
                        (drop, top + BOX_HEIGHT),
                        (drop, word_lane),
                        (entry, word_lane),
                        (entry, rows_bottom),
                    ],
                    EDGE_COLOUR,
                );
                svg.text(drop - 8, word_lane + 14, "end", &lines);
            } else {
                let drop = column_x(states[into].needed) + BOX_WIDTH / 2;
                svg.arrow(
                    &[
                        (x + BOX_WIDTH, middle),
                        (drop, middle),
                        (drop, row_top(row_of(into))),
                    ],
                    EDGE_COLOUR,
                );
                svg.text(x + BOX_WIDTH + 6, middle - 5, "start", &lines);
            }
        }
    }

    // The composite's two arrows, from its bottom into state 0's.
    let label_end = composite_x + 10 + text_width(any_other_byte);
    for (i, (lane, text)) in [(any_other_byte_lane, any_other_byte), (tlast_lane, tlast)]
        .into_iter()
        .enumerate()
    {
        let start = label_end + 20 + 30 * i as u32;
        let entry = state_0_x + 50 - 25 * i as u32;
        svg.arrow(
            &[
                (start, composite_bottom),
                (start, lane),
                (entry, lane),
                (entry, rows_bottom),
            ],
            ERROR_COLOUR,
        );
        svg.text(composite_x + 10, lane - 5, "start", &[text.into()]);
    }
    svg.0.push_str("</svg>\n");
    svg.0
}
