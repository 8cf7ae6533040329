//! The cycle-by-cycle diagrams in the guide's text, generated from the
//! simulations that draw its figures ([`crate::figures`]).
//!
//! A chapter asks for one with a marker naming a figure and the signals to
//! show, by the labels of the figure's rows:
//!
//! ```text
//! <!-- BEGIN cycles: gathering s_axis_tdata decoder.bytes_left m_axis_tdata -->
//! <!-- END cycles -->
//! ```
//!
//! and [`refresh`] fills the space between the two lines with the diagram
//! (a fenced `text` block: a line per signal, a column per cycle). `utf8hdl
//! wave` rewrites the guide so; a test fails when a committed diagram
//! differs from what the simulator gives, so a cycle number or a signal
//! name in a diagram cannot go stale.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::figures::{cycle_diagram, find};
use crate::output::write_atomically;

/// The start of the line that asks for a diagram: the figure's name and
/// the labels follow, then [`BEGIN_END`].
pub const BEGIN: &str = "<!-- BEGIN cycles: ";
const BEGIN_END: &str = " -->";
/// The line that ends a diagram.
pub const END: &str = "<!-- END cycles -->";

/// `markdown` with every diagram between a [`BEGIN`] line and the next
/// [`END`] line generated afresh.
pub fn refresh(markdown: &str) -> Result<String> {
    let mut out = String::with_capacity(markdown.len());
    let mut lines = markdown.split_inclusive('\n').enumerate();
    while let Some((number, line)) = lines.next() {
        out.push_str(line);
        let Some(request) = line.trim_end().strip_prefix(BEGIN) else {
            continue;
        };
        let request = request
            .strip_suffix(BEGIN_END)
            .with_context(|| format!("line {}: a cycles marker ends with '-->'", number + 1))?;
        let mut words = request.split_whitespace();
        let name = words
            .next()
            .with_context(|| format!("line {}: the marker names no figure", number + 1))?;
        let labels: Vec<&str> = words.collect();
        let (kind, figure) = find(name)?;
        let diagram = cycle_diagram(kind, figure, &labels)
            .with_context(|| format!("line {}: figure '{name}'", number + 1))?;
        // Skip the old diagram, up to and including its END line.
        loop {
            match lines.next() {
                Some((_, l)) if l.trim_end() == END => break,
                Some(_) => {}
                None => anyhow::bail!("line {}: no '{END}' after the marker", number + 1),
            }
        }
        out.push_str("```text\n");
        out.push_str(&diagram);
        out.push_str("```\n");
        out.push_str(END);
        out.push('\n');
    }
    Ok(out)
}

/// The guide's chapters in `dir` that hold a diagram, in name order.
pub fn chapters(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    for entry in
        std::fs::read_dir(dir).with_context(|| format!("cannot read '{}'", dir.display()))?
    {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "md")
            && std::fs::read_to_string(&path)?.contains(BEGIN)
        {
            found.push(path);
        }
    }
    found.sort();
    Ok(found)
}

/// Regenerates the diagrams of every chapter in `dir`; returns the
/// chapters whose text changed.
pub fn refresh_dir(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut changed = Vec::new();
    for path in chapters(dir)? {
        let old = std::fs::read_to_string(&path)?;
        let new = refresh(&old).with_context(|| format!("in '{}'", path.display()))?;
        if new != old {
            write_atomically(&path, |out| Ok(out.write_all(new.as_bytes())?))?;
            changed.push(path);
        }
    }
    Ok(changed)
}
