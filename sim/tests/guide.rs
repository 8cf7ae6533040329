//! The guide's chapters on the pipeline say only what the design does:
//! their cycle diagrams are the simulator's, their running text counts no
//! cycles of its own, and every file, register and signal they name
//! exists.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use utf8hdl_hdl::Profile;
use utf8hdl_sim::core::{signal_paths, Core};
use utf8hdl_sim::cores::utf16_decoder::Decoder as Utf16Decoder;
use utf8hdl_sim::cores::utf16_encoder::Encoder as Utf16Encoder;
use utf8hdl_sim::cores::utf8_decoder::{Decoder, WideDecoder};
use utf8hdl_sim::cores::utf8_encoder::Encoder;
use utf8hdl_sim::cycle_diagrams::{chapters, refresh, BEGIN, END};

/// The chapters that follow bytes through the pipelines cycle by cycle.
const PIPELINE_CHAPTERS: &[&str] = &[
    "02-classifier.md",
    "03-decoder-fsm.md",
    "04-maximal-subparts.md",
    "05-axi-stream.md",
    "07-waveforms.md",
    "10-wide-decoder.md",
    "11-core-family.md",
];

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn chapter(name: &str) -> String {
    fs::read_to_string(repository().join("docs").join(name)).unwrap()
}

/// `text` without its generated diagrams (each between a `BEGIN cycles`
/// line and its `END cycles` line), each line with its number.
fn written_lines(text: &str) -> Vec<(usize, &str)> {
    let mut inside = false;
    let mut lines = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with(BEGIN) {
            inside = true;
        } else if line.trim_end() == END {
            inside = false;
        } else if !inside {
            lines.push((i + 1, line));
        }
    }
    lines
}

/// The spans of `line` between backticks.
fn code_spans(line: &str) -> impl Iterator<Item = &str> {
    line.split('`').skip(1).step_by(2)
}

#[test]
fn committed_cycle_diagrams_are_up_to_date() {
    let docs = repository().join("docs");
    let found = chapters(&docs).unwrap();
    for name in ["03-decoder-fsm.md", "05-axi-stream.md", "11-core-family.md"] {
        assert!(
            found.contains(&docs.join(name)),
            "docs/{name} has no generated cycle diagram"
        );
    }
    for path in found {
        let committed = fs::read_to_string(&path).unwrap();
        let fresh = refresh(&committed).unwrap();
        if fresh != committed {
            let line = committed
                .lines()
                .zip(fresh.lines())
                .position(|(old, new)| old != new)
                .map_or(0, |i| i + 1);
            panic!(
                "{} is stale from line {line}: run `cargo run --release -- wave`",
                path.display()
            );
        }
    }
}

/// A cycle number or a count of cycles written by hand goes stale when the
/// pipeline changes; the chapters say "the next cycle", name a latency
/// constant, or point at a generated diagram.
#[test]
fn pipeline_chapters_count_no_cycles_by_hand() {
    const COUNTS: &[&str] = &[
        "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    let mut found = Vec::new();
    for name in PIPELINE_CHAPTERS {
        let text = chapter(name);
        for (number, line) in written_lines(&text) {
            let words: Vec<String> = line
                .split(|c: char| !(c.is_alphanumeric() || c == '–' || c == '-'))
                .filter(|w| !w.is_empty())
                .map(str::to_lowercase)
                .collect();
            let is_number = |w: &str| {
                w.split(['–', '-'])
                    .all(|part| !part.is_empty() && part.chars().all(|c| c.is_ascii_digit()))
            };
            for pair in words.windows(3) {
                let (a, b, c) = (&pair[0], &pair[1], &pair[2]);
                // "in cycle 6", "cycles 4–7"
                let numbered = (a == "cycle" || a == "cycles") && is_number(b);
                // "6 cycles after", "six cycles later"
                let counted = (is_number(a) || COUNTS.contains(&a.as_str()))
                    && (b == "cycle" || b == "cycles")
                    && ["after", "later", "earlier", "before"].contains(&c.as_str());
                if numbered || counted {
                    found.push(format!("docs/{name}:{number}: {}", line.trim()));
                    break;
                }
            }
            // A diagram with numbered cycles that no simulation wrote.
            if line.starts_with("cycle ")
                && line[6..].split_whitespace().all(is_number)
                && !line[6..].trim().is_empty()
            {
                found.push(format!("docs/{name}:{number}: {}", line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "cycle numbers written by hand (generate a diagram, name a latency \
         constant, or say it relative to another cycle):\n{}",
        found.join("\n")
    );
}

/// Every signal path of the cores the chapters describe, normalised as the
/// guide writes them: a register without its `.q`, and each pair of
/// neighbouring names (`classified.in_bound` of
/// `classifier.classified.in_bound`) as well as the block and the signal
/// (`classifier.in_bound`, the waveforms' name).
fn design_names() -> (BTreeSet<String>, BTreeSet<String>) {
    fn paths<C: Core>(core: C) -> Vec<String> {
        signal_paths(&core.block())
    }
    let all: Vec<String> = [
        paths(Decoder(Profile::Rfc3629)),
        paths(WideDecoder::<2>(Profile::Rfc3629)),
        paths(Encoder(Profile::Rfc3629)),
        paths(Utf16Encoder),
        paths(Utf16Decoder),
    ]
    .concat();
    let mut names = BTreeSet::new();
    let mut fields = BTreeSet::new();
    for path in &all {
        let mut parts: Vec<&str> = path.split('.').collect();
        if parts.len() > 1 && ["q", "d", "clock"].contains(parts.last().unwrap()) {
            parts.pop();
        }
        fields.extend(parts.iter().map(|p| p.to_string()));
        for pair in parts.windows(2) {
            names.insert(pair.join("."));
        }
        if parts.len() > 2 {
            names.insert(format!("{}.{}", parts[0], parts[parts.len() - 1]));
        }
        names.insert(parts.join("."));
    }
    (names, fields)
}

#[test]
fn pipeline_chapters_name_files_registers_and_signals_that_exist() {
    let (names, fields) = design_names();
    // The names that open a dotted name of the design: blocks and bundles.
    let scopes: BTreeSet<&str> = names
        .iter()
        .filter_map(|n| n.split_once('.').map(|(scope, _)| scope))
        .collect();
    let mut missing = Vec::new();
    for name in PIPELINE_CHAPTERS.iter().chain(&["exercises.md"]) {
        let text = chapter(name);
        for (number, line) in written_lines(&text) {
            for span in code_spans(line) {
                let mut complain = |what: &str| {
                    missing.push(format!("docs/{name}:{number}: `{span}`: {what}"));
                };
                let is_path = ["hdl/", "sim/", "synth/", "testbench/"]
                    .iter()
                    .any(|root| span.starts_with(root));
                if is_path && !span.contains([' ', '*']) {
                    if !repository().join(span).exists() {
                        complain("no such file");
                    }
                    continue;
                }
                // The exercises name registers the reader is asked to add.
                if *name == "exercises.md" {
                    continue;
                }
                if let Some(field) = span.strip_prefix("self.") {
                    let field = field.split('.').next().unwrap_or_default();
                    if !fields.contains(field) {
                        complain("no register or signal of that name");
                    }
                    continue;
                }
                let is_file = [".rs", ".md", ".v", ".svg", ".vcd", ".toml"]
                    .iter()
                    .any(|ext| span.ends_with(ext));
                let dotted_identifier = span.contains('.')
                    && !is_file
                    && span
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "._".contains(c));
                if dotted_identifier {
                    let scope = span.split('.').next().unwrap();
                    if scopes.contains(scope) && !names.contains(span) {
                        complain("no signal of that name");
                    }
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "names that the design does not have:\n{}",
        missing.join("\n")
    );
}
