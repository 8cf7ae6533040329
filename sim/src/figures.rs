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
use utf8hdl_hdl::utf8_decoder::classifier::ByteClass;
use utf8hdl_hdl::{ErrorKind, Profile};

use crate::core::Beat;
use crate::core::{Core, Inputs, Lane, Model};
use crate::cores::Kind;
use crate::harness::Harness;
use crate::output::{write_atomically, OutputFile};
use crate::wave_svg::{self, Moves, Row, Style};
use crate::waveform::{TimescaleUnit, VcdRecorder};
use crate::with_any_core;

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

/// One figure: the core, what goes in, how the sink behaves, which signals
/// to show.
pub struct Figure {
    pub name: &'static str,
    pub caption: &'static str,
    /// The kind of core, of profile rfc3629.
    pub core: Kind,
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

fn class_name(code: u64) -> String {
    ByteClass::ALL
        .get(code as usize)
        .map_or("?".into(), |c| format!("{c:?}"))
}

/// `tuser` as the CLI names it: `ok`, or the error kind.
fn tuser_name(tuser: u64) -> String {
    match ErrorKind::from_tuser(tuser as u8) {
        Ok(None) => "ok".into(),
        Ok(Some(kind)) => kind.name().into(),
        Err(_) => format!("{tuser:X}?"),
    }
}

const fn row(path: &'static str, label: &'static str, style: Style) -> Row {
    Row {
        path,
        label,
        style,
        valid: None,
        moves: Moves::Held,
    }
}

/// A register that only means something while `valid` is high, and holds
/// until the item moves on: when `moves` says.
const fn qualified(
    path: &'static str,
    label: &'static str,
    style: Style,
    valid: &'static str,
    moves: Moves,
) -> Row {
    Row {
        path,
        label,
        style,
        valid: Some(valid),
        moves,
    }
}

/// The 1-lane core's pipeline enable: its stages move when it is high.
const ADVANCE: &str = "utf8_decoder.output_register.advance";

/// A register of the 1-lane core's pipeline, meaningful while `valid`.
const fn stage(path: &'static str, label: &'static str, style: Style, valid: &'static str) -> Row {
    qualified(path, label, style, valid, Moves::Enabled(ADVANCE))
}

const S_TVALID_PATH: &str = "utf8_decoder.s_axis_tvalid";
const S_TREADY_PATH: &str = "utf8_decoder.s_axis_tready";
const M_TVALID_PATH: &str = "utf8_decoder.m_axis_tvalid";
const M_TREADY_PATH: &str = "utf8_decoder.m_axis_tready";

/// A field of the `s_axis` port (valid with `s_axis_tvalid`, taken with
/// `s_axis_tready`).
const fn s_axis(path: &'static str, label: &'static str, style: Style) -> Row {
    qualified(
        path,
        label,
        style,
        S_TVALID_PATH,
        Moves::Transfer(S_TREADY_PATH),
    )
}

/// A field of the `m_axis` port.
const fn m_axis(path: &'static str, label: &'static str, style: Style) -> Row {
    qualified(
        path,
        label,
        style,
        M_TVALID_PATH,
        Moves::Transfer(M_TREADY_PATH),
    )
}

const CLK: Row = row("utf8_decoder.clk", "clk", Style::Clock);
const S_TDATA: Row = s_axis("utf8_decoder.s_axis_tdata", "s_axis_tdata", Style::Hex);
const S_TVALID: Row = row(S_TVALID_PATH, "s_axis_tvalid", Style::Bit);
const S_TREADY: Row = row(S_TREADY_PATH, "s_axis_tready", Style::Bit);
const S_TLAST: Row = row("utf8_decoder.s_axis_tlast", "s_axis_tlast", Style::Bit);
const M_TDATA: Row = m_axis("utf8_decoder.m_axis_tdata", "m_axis_tdata", Style::Hex);
const M_TUSER: Row = m_axis(
    "utf8_decoder.m_axis_tuser",
    "m_axis_tuser",
    Style::Names(tuser_name),
);
const M_TVALID: Row = row(M_TVALID_PATH, "m_axis_tvalid", Style::Bit);
const M_TREADY: Row = row(M_TREADY_PATH, "m_axis_tready", Style::Bit);
const M_TLAST: Row = row("utf8_decoder.m_axis_tlast", "m_axis_tlast", Style::Bit);

const RST: Row = row("utf8_decoder.rst", "rst", Style::Bit);

const PORTS: &[Row] = &[
    CLK, S_TDATA, S_TVALID, S_TREADY, S_TLAST, M_TDATA, M_TUSER, M_TVALID, M_TREADY, M_TLAST,
];

/// The 1-lane core's stages, from the classifier's class to the FSM's word.
const STAGES: &[Row] = &[
    stage(
        "utf8_decoder.classifier.read_class",
        "classifier.read_class",
        Style::Names(class_name),
        "utf8_decoder.classifier.read_valid",
    ),
    stage(
        "utf8_decoder.classifier.in_bound",
        "classifier.in_bound",
        Style::Bit,
        "utf8_decoder.classifier.valid",
    ),
    stage(
        "utf8_decoder.classifier.free_bits",
        "classifier.free_bits",
        Style::Hex,
        "utf8_decoder.classifier.valid",
    ),
    row(
        "utf8_decoder.decoder.bytes_left",
        "decoder.bytes_left",
        Style::Binary(5),
    ),
    row(
        "utf8_decoder.decoder.gathered",
        "decoder.gathered",
        Style::Hex,
    ),
    row(
        "utf8_decoder.decoder.pre_error_valid",
        "decoder.pre_error_valid",
        Style::Bit,
    ),
    row(
        "utf8_decoder.decoder.word_tvalid",
        "decoder.word_tvalid",
        Style::Bit,
    ),
    stage(
        "utf8_decoder.decoder.word_tdata",
        "decoder.word_tdata",
        Style::Hex,
        "utf8_decoder.decoder.word_tvalid",
    ),
];

const SKID_BUFFER: &[Row] = &[
    row(
        "utf8_decoder.skid_buffer.buffered_valid",
        "skid_buffer.buffered_valid",
        Style::Bit,
    ),
    qualified(
        "utf8_decoder.skid_buffer.buffered_tdata",
        "skid_buffer.buffered_tdata",
        Style::Hex,
        "utf8_decoder.skid_buffer.buffered_valid",
        Moves::Held,
    ),
    row(ADVANCE, "output_register.advance", Style::Bit),
];

/// The wide core's stage valids: a beat moves down its stages, one a
/// cycle; they never stall.
const WIDE_STAGES: &[Row] = &[
    row(
        "utf8_decoder.byte_lanes.valid",
        "byte_lanes.valid",
        Style::Bit,
    ),
    row("utf8_decoder.hold.valid", "hold.valid", Style::Bit),
    row(
        "utf8_decoder.lane_decoder.beat_valid",
        "lane_decoder.beat_valid",
        Style::Bit,
    ),
    row(
        "utf8_decoder.word_lanes.write",
        "word_lanes.write",
        Style::Bit,
    ),
];

/// Which signals a figure shows.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum View {
    /// The ports alone.
    Ports,
    /// The bytes going in, the stages and the words coming out.
    Pipeline,
    /// The handshakes, the skid buffer and the pipeline enable.
    Flow,
    /// Everything above, for `sim --svg`.
    All,
}

impl View {
    /// The rows of this view for a core of `lanes` lanes. A wide core has
    /// one view, its ports and stage valids, whose lanes it lays out.
    pub fn rows(self, lanes: usize) -> Vec<Row> {
        if lanes > 1 {
            return wide_rows(lanes);
        }
        let parts: &[&[Row]] = match self {
            View::Ports => &[PORTS],
            View::Pipeline => &[&[CLK, S_TDATA], STAGES, &[M_TDATA, M_TUSER, M_TVALID]],
            View::Flow => &[
                &[CLK, S_TDATA, S_TVALID, S_TREADY],
                SKID_BUFFER,
                &[M_TDATA, M_TVALID, M_TREADY],
            ],
            View::All => &[
                &[CLK, RST, S_TDATA, S_TVALID, S_TREADY, S_TLAST],
                SKID_BUFFER,
                STAGES,
                &[M_TDATA, M_TUSER, M_TVALID, M_TREADY, M_TLAST],
            ],
        };
        parts.concat()
    }
}

/// The ports of a wide core of `lanes` lanes, lane by lane, and the beat
/// moving down its stages.
fn wide_rows(lanes: usize) -> Vec<Row> {
    let lanes_of = |bits, name| Style::Lanes {
        bits,
        count: lanes,
        name,
    };
    let mut rows = vec![
        CLK,
        s_axis(
            "utf8_decoder.s_axis_tdata",
            "s_axis_tdata",
            lanes_of(8, None),
        ),
        s_axis(
            "utf8_decoder.s_axis_tkeep",
            "s_axis_tkeep",
            Style::Binary(lanes),
        ),
        S_TVALID,
        S_TREADY,
        S_TLAST,
    ];
    rows.extend_from_slice(WIDE_STAGES);
    rows.extend([
        m_axis(
            "utf8_decoder.m_axis_tdata",
            "m_axis_tdata",
            lanes_of(32, None),
        ),
        m_axis(
            "utf8_decoder.m_axis_tuser",
            "m_axis_tuser",
            lanes_of(4, Some(tuser_name)),
        ),
        m_axis(
            "utf8_decoder.m_axis_tkeep",
            "m_axis_tkeep",
            Style::Binary(lanes),
        ),
        M_TVALID,
        M_TREADY,
        M_TLAST,
    ]);
    rows
}

/// Every figure of the guide.
pub const FIGURES: &[Figure] = &[
    Figure {
        name: "hello",
        caption: "\"Hi ☺\": one byte per clock in, each word the core's latency after its last byte",
        core: Kind::Decoder,
        lanes: 1,
        inputs: Feed::Bytes("Hi ☺".as_bytes()),
        keep: &[],
        ready: &[],
        view: View::Ports,
    },
    Figure {
        name: "gathering",
        caption: "€ (E2 82 AC): the FSM gathers 4 + 6 + 6 free bits into U+20AC",
        core: Kind::Decoder,
        lanes: 1,
        inputs: Feed::Bytes("€".as_bytes()),
        keep: &[],
        ready: &[],
        view: View::Pipeline,
    },
    Figure {
        name: "truncated",
        caption: "E2 82 41: the A that truncates E2 82 is decoded in the same cycle, with no lost cycle",
        core: Kind::Decoder,
        lanes: 1,
        inputs: Feed::Bytes(b"\xE2\x82A"),
        keep: &[],
        ready: &[],
        view: View::Pipeline,
    },
    Figure {
        name: "two_words",
        caption: "C2 41 C2 41: two words from one byte, one cycle apart, at full rate",
        core: Kind::Decoder,
        lanes: 1,
        inputs: Feed::Bytes(b"\xC2A\xC2A"),
        keep: &[],
        ready: &[],
        view: View::Pipeline,
    },
    Figure {
        name: "surrogate",
        caption: "ED A0 80: a surrogate is three maximal subparts, three U+FFFD",
        core: Kind::Decoder,
        lanes: 1,
        inputs: Feed::Bytes(b"\xED\xA0\x80"),
        keep: &[],
        ready: &[],
        view: View::Pipeline,
    },
    Figure {
        name: "backpressure",
        caption: "ABCDEFGH with m_axis_tready low for 3 cycles: the skid buffer holds one byte, nothing is lost",
        core: Kind::Decoder,
        lanes: 1,
        inputs: Feed::Bytes(b"ABCDEFGH"),
        keep: &[],
        ready: &[true, true, true, true, true, true, false, false, false, true],
        view: View::Flow,
    },
    Figure {
        name: "wide_broken",
        caption: "2 lanes, E2 82 | 41 42: the 41 of the next beat breaks E2 82, whose U+FFFD leaves with its own beat",
        core: Kind::Decoder,
        lanes: 2,
        inputs: Feed::Bytes(b"\xE2\x82AB"),
        keep: &[],
        ready: &[],
        view: View::Ports,
    },
    Figure {
        name: "wide_sparse",
        caption: "2 lanes, € with null lanes (tkeep 01, 10, 01): the bytes are made dense before decoding",
        core: Kind::Decoder,
        lanes: 2,
        inputs: Feed::Bytes("€".as_bytes()),
        keep: &[0b01, 0b10, 0b01],
        ready: &[],
        view: View::Ports,
    },
    Figure {
        name: "wide_packing",
        caption: "2 lanes, C3 A9 | 41 C3 | A9 42: é ends in lane 1, so its word is packed into lane 0 (tkeep 01, then 11)",
        core: Kind::Decoder,
        lanes: 2,
        inputs: Feed::Bytes("éAéB".as_bytes()),
        keep: &[],
        ready: &[],
        view: View::Ports,
    },
    Figure {
        name: "encoder_octets",
        caption: "41, 20AC, 42 through Utf8Encoder: 20AC leaves as E2 82 AC, one octet a clock, while 42 waits",
        core: Kind::Encoder,
        lanes: 1,
        inputs: Feed::Words(&[0x41, 0x20AC, 0x42]),
        keep: &[],
        ready: &[],
        view: View::Ports,
    },
    Figure {
        name: "utf16_pair",
        caption: "41, 1F600, 42 through Utf16Encoder: 1F600 leaves as the surrogate pair D83D DE00, one unit a clock, while 42 waits",
        core: Kind::Utf16Encoder,
        lanes: 1,
        inputs: Feed::Words(&[0x41, 0x1F600, 0x42]),
        keep: &[],
        ready: &[],
        view: View::Ports,
    },
    Figure {
        name: "utf16_surrogates",
        caption: "0041 D83D DE00 DC00 0042 through Utf16Decoder: a pair makes 1F600, a lone low surrogate U+FFFD",
        core: Kind::Utf16Decoder,
        lanes: 1,
        inputs: Feed::Words(&[0x41, 0xD83D, 0xDE00, 0xDC00, 0x42]),
        keep: &[],
        ready: &[],
        view: View::Ports,
    },
];

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

/// Simulates `figure` into the VCD file `vcd`; returns its cycles and the
/// core's module name, its scope in the VCD.
fn simulate_figure(figure: &Figure, vcd: &Path) -> Result<(u64, String)> {
    with_any_core!(figure.core, figure.lanes, Profile::Rfc3629, |core| {
        simulate(core, figure, vcd).map(|cycles| (cycles, core.name()))
    })
}

/// Regenerates `figure` as `DIR/NAME.svg`.
pub fn render(figure: &Figure, dir: &Path) -> Result<()> {
    let scratch = crate::output::ScratchDir::new("utf8hdl-figure-")?;
    let vcd = scratch.path().join(format!("{}.vcd", figure.name));
    let (cycles, scope) = simulate_figure(figure, &vcd)?;
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

/// Registers that no figure draws but a cycle diagram of the guide may
/// show: what the output register holds back, and the state of the cores
/// of chapter 11.
const DIAGRAM_ONLY: &[Row] = &[
    row(
        "utf8_decoder.output_register.delayed_tvalid",
        "output_register.delayed_tvalid",
        Style::Bit,
    ),
    row("utf8_decoder.pending_count", "pending_count", Style::Hex),
    qualified(
        "utf8_decoder.held",
        "held",
        Style::Hex,
        "utf8_decoder.held_valid",
        Moves::Held,
    ),
];

/// The row that a cycle diagram of a core of `lanes` lanes calls `label`.
fn row_named(label: &str, lanes: usize) -> Result<Row> {
    let known: Vec<Row> = View::All
        .rows(lanes)
        .into_iter()
        .chain(DIAGRAM_ONLY.iter().copied())
        .collect();
    known
        .iter()
        .find(|r| r.label == label && !matches!(r.style, Style::Clock))
        .copied()
        .with_context(|| {
            let labels: Vec<_> = known.iter().map(|r| r.label).collect();
            format!(
                "no signal '{label}' to show (signals: {})",
                labels.join(", ")
            )
        })
}

/// The simulation of `figure` as text: a line per signal of `labels`, a
/// column per cycle, blank where the signal is not valid; the first line
/// numbers the cycles. Bits read 0 and 1, buses as in the figure.
pub fn cycle_diagram(figure: &Figure, labels: &[&str]) -> Result<String> {
    let rows = labels
        .iter()
        .map(|label| row_named(label, figure.lanes))
        .collect::<Result<Vec<_>>>()?;
    let scratch = crate::output::ScratchDir::new("utf8hdl-figure-")?;
    let vcd = scratch.path().join(format!("{}.vcd", figure.name));
    let (cycles, scope) = simulate_figure(figure, &vcd)?;
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

/// Where the core sits in a formal trace: `dut` in the properties' top
/// module (hdl/formal/utf8_decoder_properties.v).
const TRACE_SCOPE: &str = "utf8_decoder_properties.dut";
/// sby's traces advance one step per 10 time units.
const TRACE_PERIOD: u64 = 10;

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
        Some(TRACE_SCOPE),
        &rows,
        TRACE_PERIOD,
        0..last.div_ceil(TRACE_PERIOD),
        &title,
    )
}

/// Looks a figure up by name.
pub fn find(name: &str) -> Result<&'static Figure> {
    FIGURES.iter().find(|f| f.name == name).with_context(|| {
        let names: Vec<_> = FIGURES.iter().map(|f| f.name).collect();
        format!("no figure '{name}' (figures: {})", names.join(", "))
    })
}
