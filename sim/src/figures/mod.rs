//! The waveform figures of the guide, each a real simulation of a named
//! input, rendered by [`crate::wave_svg`]. (rust-hdl's `vcd_to_svg` leaves
//! the last interval of every trace unlabelled and shows enum states as
//! numbers; a timing diagram for teaching needs both.)
//!
//! `utf8hdl wave` regenerates them; a test checks that the committed SVGs
//! are exactly what the simulator produces, so the docs cannot go stale.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter};
use std::ops::Range;
use std::path::Path;

use anyhow::{Context, Result};
use utf8hdl_hdl::Profile;

use crate::core::Beat;
use crate::core::{Core, Inputs, Lane, Model};
use crate::cores::formal::Formal;
use crate::cores::Kind;
use crate::harness::Harness;
use crate::output::{write_atomically, OutputFile};
use crate::wave_svg;
use crate::waveform::{TimescaleUnit, VcdRecorder};
use crate::with_any_core;

mod rows;

pub use rows::View;
use rows::{
    row_named, CLK, M_TDATA, M_TLAST, M_TREADY, M_TUSER, M_TVALID, RST, S_TDATA, S_TLAST, S_TREADY,
    S_TVALID,
};

/// The VCD clock period of the figures, in ns.
const PERIOD: u64 = 10;

/// What a figure feeds its core, lane by lane.
#[derive(Copy, Clone, Debug)]
pub enum Feed {
    /// Bytes, for a decoder.
    Bytes(&'static [u8]),
    /// UCS-4 words, for an encoder.
    Words(&'static [u32]),
}

impl Feed {
    /// The input lanes of a core `C` that carry the feed, or why it cannot
    /// be fed them.
    fn lanes<C: Core>(self) -> Result<Vec<C::Input>> {
        let values: Vec<u32> = match self {
            Feed::Bytes(bytes) => bytes.iter().copied().map(u32::from).collect(),
            Feed::Words(words) => words.to_vec(),
        };
        values
            .into_iter()
            .map(|value| {
                let lane = C::Input::from_bits(value, 0);
                anyhow::ensure!(
                    lane.tdata() == value,
                    "{value:X} does not fit a {} of the {} core",
                    C::Input::NAME,
                    C::KIND
                );
                Ok(lane)
            })
            .collect()
    }
}

/// One figure of a core (of profile rfc3629), held in its registry entry
/// ([`crate::cores::Description::figures`]): what goes in, how the sink
/// behaves, which signals to show.
#[derive(Debug)]
pub struct Figure {
    pub name: &'static str,
    pub caption: &'static str,
    /// The core's lanes (items per clock): 1, or 2 for the wide core.
    pub lanes: usize,
    pub inputs: Feed,
    /// Each input beat's `s_axis_tkeep`, in turn (the inputs fill its kept
    /// lanes); empty for full beats. Wide cores only.
    pub keep: &'static [u32],
    /// `m_axis_tready` per cycle (repeating its last value); empty for
    /// always ready.
    pub ready: &'static [bool],
    pub view: View,
}

impl Figure {
    /// A figure of a 1-lane core's ports: full beats, `m_axis_tready`
    /// always high.
    pub const fn ports(name: &'static str, caption: &'static str, inputs: Feed) -> Figure {
        Figure {
            name,
            caption,
            lanes: 1,
            inputs,
            keep: &[],
            ready: &[],
            view: View::Ports,
        }
    }
}

/// The input beats of `items` for a core of `lanes` lanes: the items in
/// the kept lanes of each beat (all lanes past `keep`), `tlast` on the
/// beat of the last item.
fn beats<T: Lane>(items: &[T], keep: &[u32], lanes: usize) -> Vec<Beat<T>> {
    let mut items = items.iter().copied().peekable();
    let mut beats = Vec::new();
    while items.peek().is_some() {
        let keep = keep.get(beats.len()).copied().unwrap_or(u32::MAX);
        let lane_items: Vec<Option<T>> = (0..lanes)
            .map(|i| (keep >> i & 1 == 1).then(|| items.next()).flatten())
            .collect();
        beats.push(Beat::new(&lane_items, items.peek().is_none()));
    }
    beats
}

/// Simulates `figure` on `core` until the outputs of its inputs are out,
/// and writes its VCD to `vcd_path`; returns the cycles.
fn simulate<C: Core + Copy>(core: C, figure: &Figure, vcd_path: &Path) -> Result<u64> {
    let items = figure.inputs.lanes::<C>()?;
    let expected = core.model().outputs_of(&items).len();
    let mut harness = Harness::new(core);
    let file = BufWriter::new(OutputFile::create(Some(vcd_path))?);
    let mut recorder = VcdRecorder::new(file, &core, 0..u64::MAX, PERIOD, TimescaleUnit::NS)?;
    harness.probe_window = recorder.window();
    let mut error = None;
    let beats = beats(&items, figure.keep, harness.lanes().count);
    let mut next = 0;
    let mut words = 0;
    // Run until the last word is out, then two idle cycles to show the end.
    let mut idle_after_last = 0;
    while idle_after_last < 2 {
        if words == expected {
            idle_after_last += 1;
        }
        anyhow::ensure!(
            harness.cycles < 1000,
            "figure '{}' never finished",
            figure.name
        );
        let cycle_number = harness.cycles as usize;
        let ready = figure
            .ready
            .get(cycle_number)
            .or(figure.ready.last())
            .copied()
            .unwrap_or(true);
        let inputs = Inputs {
            rst: false,
            s_axis: beats.get(next).copied(),
            m_axis_tready: ready,
        };
        let cycle = harness.step(&inputs, &mut |c, values| {
            if let (None, Some(values)) = (&error, values) {
                error = recorder.record(c, values).err();
            }
        });
        next += cycle.accepted as usize;
        words += cycle.delivered().map_or(0, |beat| beat.items().count());
    }
    if let Some(e) = error {
        return Err(e);
    }
    let file = recorder.finish()?;
    file.into_inner().map_err(|e| e.into_error())?.commit()?;
    Ok(harness.cycles)
}

/// Every figure of the guide, with its kind of core, in the registry's
/// order.
pub fn all() -> impl Iterator<Item = (Kind, &'static Figure)> {
    Kind::ALL
        .into_iter()
        .flat_map(|kind| kind.description().figures.iter().map(move |f| (kind, f)))
}

/// Simulates `figure` of a core of `kind` into the VCD file `vcd`; returns
/// its cycles and the core's module name, its scope in the VCD.
fn simulate_figure(kind: Kind, figure: &Figure, vcd: &Path) -> Result<(u64, String)> {
    with_any_core!(kind, figure.lanes, Profile::Rfc3629, |core| {
        simulate(core, figure, vcd).map(|cycles| (cycles, core.name()))
    })
}

/// Regenerates `figure` of a core of `kind` as `DIR/NAME.svg`.
pub fn render(kind: Kind, figure: &Figure, dir: &Path) -> Result<()> {
    let scratch = crate::output::ScratchDir::new("utf8hdl-figure-")?;
    let vcd = scratch.path().join(format!("{}.vcd", figure.name));
    let (cycles, scope) = simulate_figure(kind, figure, &vcd)?;
    let title = format!("{}: {}", figure.name, figure.caption);
    let svg = draw(
        BufReader::new(File::open(&vcd)?),
        &scope,
        figure.view,
        figure.lanes,
        PERIOD,
        0..cycles,
        &title,
    )?;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create '{}'", dir.display()))?;
    let path = dir.join(format!("{}.svg", figure.name));
    write_atomically(&path, |out| Ok(out.write_all(svg.as_bytes())?))
}

/// The simulation of `figure` as text: a line per signal of `labels`, a
/// column per cycle, blank where the signal is not valid; the first line
/// numbers the cycles. Bits read 0 and 1, buses as in the figure.
pub fn cycle_diagram(kind: Kind, figure: &Figure, labels: &[&str]) -> Result<String> {
    let rows = labels
        .iter()
        .map(|label| row_named(label, figure.lanes))
        .collect::<Result<Vec<_>>>()?;
    let scratch = crate::output::ScratchDir::new("utf8hdl-figure-")?;
    let vcd = scratch.path().join(format!("{}.vcd", figure.name));
    let (cycles, scope) = simulate_figure(kind, figure, &vcd)?;
    let values = wave_svg::labels(
        BufReader::new(File::open(&vcd)?),
        Some(&scope),
        &rows,
        PERIOD,
        0..cycles,
    )?;
    let mut lines: Vec<Vec<String>> = vec![std::iter::once("cycle".to_string())
        .chain((0..cycles).map(|c| c.to_string()))
        .collect()];
    for (row, values) in rows.iter().zip(values) {
        lines.push(
            std::iter::once(row.label.to_string())
                .chain(values.into_iter().map(Option::unwrap_or_default))
                .collect(),
        );
    }
    let columns = lines[0].len();
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            lines
                .iter()
                .map(|l| l[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut text = String::new();
    for line in &lines {
        let mut out = String::new();
        for (cell, width) in line.iter().zip(&widths) {
            out.push_str(&format!("{cell:<width$}  "));
        }
        text.push_str(out.trim_end());
        text.push('\n');
    }
    Ok(text)
}

/// Draws `view` of a core of `lanes` lanes over `cycles`, from a VCD of
/// [`VcdRecorder`] (the core at its top, as the module `scope`; a clock
/// period of `period` ns).
pub fn draw(
    vcd: impl BufRead,
    scope: &str,
    view: View,
    lanes: usize,
    period: u64,
    cycles: Range<u64>,
    title: &str,
) -> Result<String> {
    // The rows name the core `utf8_decoder`; the VCD, by its module.
    wave_svg::render(vcd, Some(scope), &view.rows(lanes), period, cycles, title)
}

/// The proof whose traces [`render_trace`] draws: the 1-lane decoder's
/// (hdl/formal/utf8_decoder_properties.v), whose ports are the diagram's
/// rows; the core sits in its top module as `dut`.
const TRACE_PROOF: &str = "utf8_decoder_properties";
/// sby's traces advance one step per 10 time units.
const TRACE_PERIOD: u64 = 10;

/// Whether [`render_trace`] draws the traces of the formal plan `plan`:
/// those of the 1-lane decoder's proof.
pub fn renders_traces_of(plan: &Formal) -> bool {
    plan.top() == TRACE_PROOF
}

/// A formal trace (a cover or a counterexample VCD of `utf8hdl formal`) as
/// a timing diagram of the core's ports, titled by the trace's file name.
pub fn render_trace(vcd: &Path) -> Result<String> {
    let text =
        std::fs::read_to_string(vcd).with_context(|| format!("cannot read '{}'", vcd.display()))?;
    let last = text
        .lines()
        .filter_map(|l| l.strip_prefix('#')?.trim().parse::<u64>().ok())
        .max()
        .with_context(|| format!("'{}' has no time stamps", vcd.display()))?;
    let name = vcd.file_stem().unwrap_or_default().to_string_lossy();
    let title = format!("{name}: a trace found by the solver (utf8hdl formal --cover)");
    let rows = [
        CLK, RST, S_TDATA, S_TVALID, S_TREADY, S_TLAST, M_TDATA, M_TUSER, M_TVALID, M_TREADY,
        M_TLAST,
    ];
    wave_svg::render(
        text.as_bytes(),
        Some(&format!("{TRACE_PROOF}.dut")),
        &rows,
        TRACE_PERIOD,
        0..last.div_ceil(TRACE_PERIOD),
        &title,
    )
}

/// Looks a figure up by name.
pub fn find(name: &str) -> Result<(Kind, &'static Figure)> {
    all().find(|(_, f)| f.name == name).with_context(|| {
        let names: Vec<_> = all().map(|(_, f)| f.name).collect();
        format!("no figure '{name}' (figures: {})", names.join(", "))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The traces drawn are those of one proof, the 1-lane decoder's, the
    /// core the diagram's rows are the ports of (`utf8_decoder`, in its
    /// rfc3629 profile): a renamed property file would otherwise leave
    /// every trace undrawn.
    #[test]
    fn the_traces_drawn_are_the_one_lane_decoders() {
        fn module_of(kind: Kind, lanes: usize) -> Result<String> {
            with_any_core!(kind, lanes, Profile::Rfc3629, |core| Ok(core.name()))
        }
        let drawn: Vec<String> = Kind::ALL
            .into_iter()
            .flat_map(|kind| kind.lane_counts().iter().map(move |&lanes| (kind, lanes)))
            .filter(|&(kind, lanes)| renders_traces_of(kind.formal(lanes)))
            .map(|(kind, lanes)| module_of(kind, lanes).unwrap())
            .collect();
        assert_eq!(drawn, ["utf8_decoder"]);
    }
}
