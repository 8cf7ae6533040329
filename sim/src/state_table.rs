//! The decoder's state table, every edge, as an SVG figure
//! (`docs/figures/state_table.svg`, chapter 3).
//!
//! It is derived from the reference decoder alone, by asking it what it
//! does with each byte after each open prefix, not from the RTL: a state is
//! an open sequence, named by the octets it still needs and the range its
//! next octet must lie in ("2 · A0–BF", as in chapter 3), and an edge is
//! what one byte does there: the state it leads to, the word it completes
//! (or the U+FFFD of its kind) and the U+FFFD of the sequence it breaks.
//! Bytes that do the same thing in every state share a column.

use std::fmt::Write as _;

use utf8hdl_hdl::Profile;

use crate::reference::{decode, Unit};

/// An open sequence: its bytes so far, the octets it still needs, and the
/// bytes that continue it.
#[derive(Clone, Debug, PartialEq)]
struct State {
    prefix: Vec<u8>,
    needed: usize,
    continuing: Vec<u8>,
}

impl State {
    fn name(&self) -> String {
        if self.prefix.is_empty() {
            return "0 · none open".into();
        }
        format!("{} · {}", self.needed, ranges(&self.continuing))
    }

    /// The same state: what it needs and admits, whatever its bytes.
    fn same(&self, other: &State) -> bool {
        self.needed == other.needed && self.continuing == other.continuing
    }
}

/// `80–BF`, `E1–EC EE–EF`: runs of consecutive bytes.
fn ranges(bytes: &[u8]) -> String {
    let mut runs: Vec<(u8, u8)> = Vec::new();
    for &b in bytes {
        match runs.last_mut() {
            Some((_, end)) if u16::from(*end) + 1 == u16::from(b) => *end = b,
            _ => runs.push((b, b)),
        }
    }
    runs.iter()
        .map(|&(a, b)| match a == b {
            true => format!("{a:02X}"),
            false => format!("{a:02X}–{b:02X}"),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `byte` continues the open `prefix`: the reference's first unit of the
/// two together spans them all (a word, or `truncated` at the message's
/// end).
fn continues(prefix: &[u8], byte: u8, profile: Profile) -> bool {
    let bytes = [prefix, &[byte]].concat();
    decode(&bytes, profile)
        .first()
        .is_some_and(|u| u.span.end == bytes.len())
}

/// `byte` opens a sequence: some byte continues it.
fn opens(byte: u8, profile: Profile) -> bool {
    (0..=255).any(|c| continues(&[byte], c, profile))
}

/// The state after an open `prefix` (empty for none).
fn state(prefix: &[u8], profile: Profile) -> State {
    if prefix.is_empty() {
        return State {
            prefix: Vec::new(),
            needed: 0,
            continuing: Vec::new(),
        };
    }
    let continuing: Vec<u8> = (0..=255)
        .filter(|&b| continues(prefix, b, profile))
        .collect();
    // Octets still needed: extend with continuing bytes until a word ends.
    let mut bytes = prefix.to_vec();
    let mut needed = 0;
    while let Some(next) = (0..=255u8).find(|&b| continues(&bytes, b, profile)) {
        bytes.push(next);
        needed += 1;
        if decode(&bytes, profile)
            .first()
            .is_some_and(|u| u.error.is_none())
        {
            break;
        }
    }
    State {
        prefix: prefix.to_vec(),
        needed,
        continuing,
    }
}

/// What a byte does in a state.
#[derive(Clone, Debug, PartialEq)]
struct Edge {
    /// The state it leads to (an index into the states).
    to: usize,
    /// The unit it completes, if any: a character or a one-byte error.
    word: Option<Unit>,
    /// It breaks the open sequence, whose U+FFFD (`truncated`, or the kind
    /// of a bound it misses) goes first.
    breaks: Option<Unit>,
}

impl Edge {
    fn label(&self, states: &[State]) -> Vec<String> {
        let mut lines = vec![format!("→ {}", states[self.to].name())];
        if let Some(unit) = &self.breaks {
            lines.push(format!("FFFD {}, then", kind(unit)));
        }
        if let Some(unit) = &self.word {
            lines.push(match unit.error {
                None => "word".into(),
                Some(_) => format!("FFFD {}", kind(unit)),
            });
        }
        lines
    }
}

fn kind(unit: &Unit) -> &'static str {
    unit.error.map_or("ok", |k| k.name())
}

/// The states reachable from "none open", in the order found, and each
/// state's edge for every byte.
fn explore(profile: Profile) -> (Vec<State>, Vec<Vec<Edge>>) {
    let mut states = vec![state(&[], profile)];
    let mut edges: Vec<Vec<Edge>> = Vec::new();
    let mut i = 0;
    while i < states.len() {
        let prefix = states[i].prefix.clone();
        let mut row = Vec::with_capacity(256);
        for byte in 0..=255u8 {
            let continued = !prefix.is_empty() && continues(&prefix, byte, profile);
            // A byte that breaks the open sequence ends it: its U+FFFD is
            // the first unit of the two together, of the kind the byte
            // decides (`truncated`, or the bound it misses).
            let (breaks, from) = match continued {
                true => (None, prefix.clone()),
                false => (
                    (!prefix.is_empty()).then(|| {
                        decode(&[prefix.as_slice(), &[byte]].concat(), profile)[0].clone()
                    }),
                    Vec::new(),
                ),
            };
            let bytes = [from.as_slice(), &[byte]].concat();
            let open = match from.is_empty() {
                true => opens(byte, profile),
                false => decode(&bytes, profile)
                    .first()
                    .is_none_or(|u| u.error.is_some()),
            };
            let (next, word) = match open {
                true => (state(&bytes, profile), None),
                false => (state(&[], profile), decode(&bytes, profile).pop()),
            };
            let to = match states.iter().position(|s| s.same(&next)) {
                Some(to) => to,
                None => {
                    states.push(next);
                    states.len() - 1
                }
            };
            row.push(Edge { to, word, breaks });
        }
        edges.push(row);
        i += 1;
    }
    (states, edges)
}

const STATE_WIDTH: u32 = 130;
/// The advance of a character of the 11 px monospace font, in tenths of a
/// pixel (DejaVu Sans Mono: 6.62 px).
const CHAR_WIDTH_TENTHS: u32 = 67;
const HEADER_HEIGHT: u32 = 40;
const ROW_HEIGHT: u32 = 52;
const LINE: u32 = 14;

/// The state table of `profile`'s decoder as an SVG: a row per state, a
/// column per run of bytes that act alike in every state, and the `tlast`
/// column.
pub fn render(profile: Profile) -> String {
    let (states, edges) = explore(profile);
    // Columns: maximal runs of bytes whose edges agree in every state.
    let mut columns: Vec<Vec<u8>> = Vec::new();
    for byte in 0..=255u8 {
        let same_as_last = columns.last().is_some_and(|column| {
            let last = *column.last().expect("a column has a byte");
            edges.iter().all(|row| {
                let (a, b) = (&row[usize::from(last)], &row[usize::from(byte)]);
                a.to == b.to
                    && a.word.as_ref().map(|u| (u.error, u.error.is_none()))
                        == b.word.as_ref().map(|u| (u.error, u.error.is_none()))
                    && a.breaks.as_ref().map(|u| u.error) == b.breaks.as_ref().map(|u| u.error)
            })
        });
        match (same_as_last, columns.last_mut()) {
            (true, Some(column)) => column.push(byte),
            _ => columns.push(vec![byte]),
        }
    }
    // A message's last byte leaves nothing open: what would stay open is
    // truncated instead, whatever the state.
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
                .map(|c| row[usize::from(c[0])].label(&states))
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
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="monospace" font-size="11">"#
    );
    let _ = writeln!(
        svg,
        r#"<rect width="{width}" height="{height}" fill="white"/>"#
    );
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
                line.replace('&', "&amp;").replace('<', "&lt;")
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
