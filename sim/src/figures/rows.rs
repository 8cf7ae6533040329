//! The rows a figure or a cycle diagram can show: the ports of any core
//! (named as the decoder's, `utf8_decoder.*`; a figure of another core
//! reads them in its own scope), the 1-lane decoder's stages, skid buffer
//! and pipeline enable, and the wide decoder's lanes and stage valids.

use anyhow::{Context, Result};
use utf8hdl_hdl::utf8_decoder::classifier::ByteClass;
use utf8hdl_hdl::ErrorKind;

use crate::wave_svg::{Moves, Row, Style};

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

pub(super) const CLK: Row = row("utf8_decoder.clk", "clk", Style::Clock);
pub(super) const S_TDATA: Row = s_axis("utf8_decoder.s_axis_tdata", "s_axis_tdata", Style::Hex);
pub(super) const S_TVALID: Row = row(S_TVALID_PATH, "s_axis_tvalid", Style::Bit);
pub(super) const S_TREADY: Row = row(S_TREADY_PATH, "s_axis_tready", Style::Bit);
pub(super) const S_TLAST: Row = row("utf8_decoder.s_axis_tlast", "s_axis_tlast", Style::Bit);
pub(super) const M_TDATA: Row = m_axis("utf8_decoder.m_axis_tdata", "m_axis_tdata", Style::Hex);
pub(super) const M_TUSER: Row = m_axis(
    "utf8_decoder.m_axis_tuser",
    "m_axis_tuser",
    Style::Names(tuser_name),
);
pub(super) const M_TVALID: Row = row(M_TVALID_PATH, "m_axis_tvalid", Style::Bit);
pub(super) const M_TREADY: Row = row(M_TREADY_PATH, "m_axis_tready", Style::Bit);
pub(super) const M_TLAST: Row = row("utf8_decoder.m_axis_tlast", "m_axis_tlast", Style::Bit);

pub(super) const RST: Row = row("utf8_decoder.rst", "rst", Style::Bit);

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

/// Registers that no figure draws but a cycle diagram of the guide may
/// show: what the output register holds back, and the state of the cores
/// of chapter 11.
const DIAGRAM_ONLY: &[Row] = &[
    row(
        "utf8_decoder.output_register.delayed_tvalid",
        "output_register.delayed_tvalid",
        Style::Bit,
    ),
    row("utf8_decoder.pending.keep$0", "pending.keep$0", Style::Bit),
    row("utf8_decoder.pending.keep$1", "pending.keep$1", Style::Bit),
    row("utf8_decoder.pending.keep$2", "pending.keep$2", Style::Bit),
    qualified(
        "utf8_decoder.held",
        "held",
        Style::Hex,
        "utf8_decoder.held_valid",
        Moves::Held,
    ),
];

/// The row that a cycle diagram of a core of `lanes` lanes calls `label`.
pub(super) fn row_named(label: &str, lanes: usize) -> Result<Row> {
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
