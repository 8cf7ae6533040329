//! # `BoardTop`: UTF-8 in over the UART, one line per unit out
//!
//! ```text
//!  rx ─▶ UartRx ─▶ 512-byte FIFO ─▶ Utf8Decoder ─▶ UnitFormatter ─▶ UartTx ─▶ tx
//!                                       └── byte flags ──┘
//! ```
//!
//! Or, built in [`Mode::Echo`] (`--board NAME-echo`), the decoder's
//! words go back through the UTF-8 encoder, so the board echoes what it
//! reads with each malformed stretch replaced by U+FFFD (EF BF BD), as
//! `String::from_utf8_lossy` does:
//!
//! ```text
//!  rx ─▶ UartRx ─▶ 512-byte FIFO ─▶ Utf8Decoder ─▶ Utf8Encoder ─▶ UartTx ─▶ tx
//! ```
//!
//! Or, built in [`Mode::Wide`] (`--board NAME-wide`, on a board whose
//! part holds it), the same echo through the 4-lane decoder
//! ([`wide_echo::WideEchoTop`]).
//!
//! Type (or send) UTF-8 at 115200 baud 8N1; every unit comes back as a line
//! in the format of `utf8hdl reference --format lines`
//! (`START..END U+XXXX[ KIND]`, see [`formatter`]). A message ends at each
//! line feed (0x0A, itself a unit of its message): offsets restart after it.
//! Each unit takes 12 to 40 characters to print, so the output is slower than
//! the input; the FIFO holds 512 bytes of input meanwhile. Input beyond that
//! is dropped and lights the `led_lost` LED, as does a UART framing error
//! (both stay lit until reset); `led_ready` lights when the board is out of
//! reset.
//!
//! The reset, the LEDs, the UART receiver and the FIFO are the front that
//! every demo shares ([`uart_front::UartFront`]). One design serves every
//! board ([`boards`]); a board's row gives its
//! clock (so the UART's clocks per bit), its pins and its LEDs' polarity.
//!
//! ## Ports
//! | port | dir | meaning |
//! |---|---|---|
//! | `clk` | in | the board's oscillator |
//! | `rx` | in | UART from the USB-UART (FPGA receives) |
//! | `tx` | out | UART to the USB-UART (FPGA sends) |
//! | `led_lost` | out | an LED: input lost |
//! | `led_ready` | out | an LED: out of reset |
//!
//! Reset is a 16-cycle power-on reset.

pub mod boards;
pub mod byte_gatherer;
pub mod formatter;
pub mod reset_and_leds;
pub mod uart;
pub mod uart_front;
pub mod wide_echo;
pub mod word_serializer;

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Result};
use rust_hdl::prelude::*;
use rust_hdl::widgets::prelude::SynchronousFIFO;
use serde::{Deserialize, Serialize};
use utf8hdl_hdl::{Profile, Utf8Decoder, Utf8Encoder};

use crate::flow::Packer;

use boards::Board;
use formatter::UnitFormatter;

use uart_front::UartFront;
use wide_echo::WideEchoTop;

/// The UART's rate.
pub const BAUD: u32 = 115_200;

/// Clock cycles per UART bit at `clock_hz` and `baud`, rounded.
pub fn clocks_per_bit(clock_hz: u32, baud: u32) -> u16 {
    ((clock_hz + baud / 2) / baud) as u16
}

/// What the board sends back.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One line per unit, as `utf8hdl reference --format lines`.
    Lines,
    /// The input, decoded and encoded again: malformed stretches become
    /// U+FFFD.
    Echo,
    /// [`Mode::Echo`] through the 4-lane decoder ([`WideEchoTop`]), on a
    /// board whose part holds it ([`Board::wide`]).
    Wide,
}

impl Mode {
    pub const ALL: [Mode; 3] = [Mode::Lines, Mode::Echo, Mode::Wide];

    /// What it adds to a board's name on the command line.
    pub fn suffix(self) -> &'static str {
        match self {
            Mode::Lines => "",
            Mode::Echo => "-echo",
            Mode::Wide => "-wide",
        }
    }
}

/// The input FIFO: 512 bytes.
pub type InputFifo = SynchronousFIFO<Bits<8>, 9, 10, 1>;

#[derive(LogicBlock)]
pub struct BoardTop {
    pub clk: Signal<In, Clock>,
    pub rx: Signal<In, Bit>,
    pub tx: Signal<Out, Bit>,
    pub led_lost: Signal<Out, Bit>,
    pub led_ready: Signal<Out, Bit>,
    front: UartFront,
    decoder: Utf8Decoder,
    formatter: UnitFormatter,
    encoder: Utf8Encoder,
    take: Signal<Local, Bit>,
    /// [`Mode::Echo`]: a constant, so synthesis drops most of the unused
    /// path (28 cells of it stay in lines mode).
    echo: Constant<Bit>,
}

impl BoardTop {
    /// The top for `board`: 115200 baud from its oscillator.
    pub fn for_board(board: &Board, profile: Profile, mode: Mode) -> Self {
        Self::new(board, profile, mode, clocks_per_bit(board.clock_hz, BAUD))
    }

    /// The top for `board` with `clocks_per_bit` clock cycles per UART bit
    /// (a simulation may use fewer than the board's).
    pub fn new(board: &Board, profile: Profile, mode: Mode, clocks_per_bit: u16) -> Self {
        assert_ne!(mode, Mode::Wide, "the wide demo is a WideEchoTop");
        BoardTop {
            clk: Default::default(),
            rx: Default::default(),
            tx: Default::default(),
            led_lost: Default::default(),
            led_ready: Default::default(),
            front: UartFront::new(board.leds_active_low, clocks_per_bit),
            decoder: Utf8Decoder::new(profile),
            formatter: Default::default(),
            encoder: Utf8Encoder::new(profile),
            take: Default::default(),
            echo: Constant::new(mode == Mode::Echo),
        }
    }

    /// The UART's bit time, in clock cycles (its receiver's and its
    /// transmitter's are one).
    pub fn clocks_per_bit(&self) -> u16 {
        self.front.clocks_per_bit()
    }
}

impl Logic for BoardTop {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clk, front, formatter);
        self.decoder.clk.next = self.clk.val();
        self.encoder.clk.next = self.clk.val();
        self.decoder.rst.next = self.front.rst.val();
        self.formatter.rst.next = self.front.rst.val();
        self.encoder.rst.next = self.front.rst.val();
        self.front.rx.next = self.rx.val();
        self.led_lost.next = self.front.led_lost.val();
        self.led_ready.next = self.front.led_ready.val();

        // front -> decoder, a message per line (the formatter's byte flags
        // count only when it prints)
        self.decoder.s_axis_tdata.next = self.front.m_axis_tdata.val();
        self.decoder.s_axis_tlast.next = self.front.m_axis_tlast.val();
        self.decoder.s_axis_tvalid.next =
            self.front.m_axis_tvalid.val() & (self.echo.val() | !self.formatter.flags_full.val());
        self.front.m_axis_tready.next =
            (self.echo.val() | !self.formatter.flags_full.val()) & self.decoder.s_axis_tready.val();
        self.take.next = self.front.m_axis_tvalid.val() & self.front.m_axis_tready.val();
        self.formatter.byte_taken.next = self.take.val() & !self.echo.val();
        self.formatter.byte_is_cont.next =
            self.front.m_axis_tdata.val().get_bit(7) & !self.front.m_axis_tdata.val().get_bit(6);
        self.formatter.byte_is_last.next = self.front.m_axis_tlast.val();

        // decoder -> formatter -> tx, or decoder -> encoder -> tx
        self.formatter.m_tdata.next = self.decoder.m_axis_tdata.val();
        self.formatter.m_tuser.next = self.decoder.m_axis_tuser.val();
        self.formatter.m_tlast.next = self.decoder.m_axis_tlast.val();
        self.formatter.m_tvalid.next = self.decoder.m_axis_tvalid.val() & !self.echo.val();
        self.encoder.s_axis_tdata.next = self.decoder.m_axis_tdata.val();
        self.encoder.s_axis_tlast.next = self.decoder.m_axis_tlast.val();
        self.encoder.s_axis_tvalid.next = self.decoder.m_axis_tvalid.val() & self.echo.val();
        self.formatter.tx_ready.next = self.front.s_axis_tready.val() & !self.echo.val();
        self.encoder.m_axis_tready.next = self.front.s_axis_tready.val() & self.echo.val();
        if self.echo.val() {
            self.decoder.m_axis_tready.next = self.encoder.s_axis_tready.val();
            self.front.s_axis_tdata.next = self.encoder.m_axis_tdata.val();
            self.front.s_axis_tvalid.next = self.encoder.m_axis_tvalid.val();
        } else {
            self.decoder.m_axis_tready.next = self.formatter.m_tready.val();
            self.front.s_axis_tdata.next = self.formatter.tx_data.val();
            self.front.s_axis_tvalid.next = self.formatter.tx_valid.val();
        }
        self.tx.next = self.front.tx.val();
    }
}

/// The top's Verilog for `board`: one lint-clean module, `top`
/// ([`crate::verilog::export`]).
pub fn board_verilog(board: &Board, profile: Profile, mode: Mode) -> Result<String> {
    if mode == Mode::Wide {
        if !board.wide {
            bail!(
                "the {} has no room for the 4-lane decoder's demo",
                board.name
            );
        }
        let mut uut = WideEchoTop::new(board, profile, clocks_per_bit(board.clock_hz, BAUD));
        uut.connect_all();
        return crate::verilog::export(&uut, "top");
    }
    let mut uut = BoardTop::for_board(board, profile, mode);
    uut.connect_all();
    crate::verilog::export(&uut, "top")
}

/// What [`board_bitstream`] made.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BoardBuild {
    /// The bitstream, for the board's programmer.
    pub bitstream: PathBuf,
    /// nextpnr's post-route Fmax (constrained to the board's clock).
    pub fmax_mhz: f64,
    /// nextpnr's device utilisation: (resource, used, available).
    pub utilisation: Vec<(String, usize, usize)>,
    /// icetime's worst path estimate, in ns, for an iCE40 board if icetime
    /// ran.
    pub icetime_ns: Option<f64>,
}

/// The build's file names: `<board>_<profile>`, `<board>_echo_<profile>`.
pub fn build_name(board: &Board, profile: Profile, mode: Mode) -> String {
    format!(
        "{}{}_{}",
        board.name,
        mode.suffix().replace('-', "_"),
        profile.name()
    )
}

/// Builds the bitstream of `board` for `profile` and `mode` in `dir`: its
/// device's yosys synthesis, nextpnr with the board's constraint file and
/// clock, the device's packer, and, for an iCE40, icetime for an
/// independent timing estimate. Returns the bitstream's path
/// (`<dir>/`[`build_name`]`.<bin|bit|fs>`) and the timing.
pub fn board_bitstream(
    board: &Board,
    profile: Profile,
    mode: Mode,
    dir: &Path,
) -> Result<BoardBuild> {
    let device = board.device;
    let [yosys, nextpnr] = device.tools();
    let packer = device.packer();
    for tool in [yosys, nextpnr, packer.tool()] {
        if crate::tools::find(tool).is_none() {
            bail!("{tool} is not on PATH");
        }
    }
    std::fs::create_dir_all(dir)?;
    let name = build_name(board, profile, mode);
    std::fs::write(
        dir.join(format!("{name}.v")),
        board_verilog(board, profile, mode)?,
    )?;
    let (constraints, text) = board.constraints();
    std::fs::write(dir.join(&constraints), &text)?;
    // Not `-q`: the kept `yosys.log` is yosys's whole log; `run` captures
    // it, so the terminal stays quiet.
    crate::tools::run(
        dir,
        yosys,
        &[
            "-p",
            &format!(
                "read_verilog {name}.v; {} -top top -json {name}.json",
                device.synth_command()
            ),
        ],
        "yosys.log",
    )?;
    let mut args: Vec<String> = device
        .nextpnr_part()
        .iter()
        .map(|a| a.to_string())
        .collect();
    args.extend(device.constraint_format().nextpnr_args(&constraints));
    args.extend(["--json".into(), format!("{name}.json")]);
    args.extend(packer.nextpnr_output(&name));
    args.extend(["--freq".into(), format!("{}", board.clock_hz as f64 / 1e6)]);
    let log = crate::tools::run(dir, nextpnr, &args, "nextpnr.log")?;
    crate::tools::run(dir, packer.tool(), &packer.args(&name), "pack.log")?;
    let icetime_ns = if packer == Packer::Icepack && crate::tools::find("icetime").is_some() {
        // icetime's own PCF reader knows no `-nowarn`.
        std::fs::write(dir.join("icetime.pcf"), text.replace(" -nowarn", ""))?;
        let report = crate::tools::run(
            dir,
            "icetime",
            &[
                "-d",
                device.name(),
                "-P",
                device.package(),
                "-p",
                "icetime.pcf",
                "-c",
                &format!("{}", board.clock_hz as f64 / 1e6),
                "-t",
                &format!("{name}.asc"),
            ],
            "icetime.log",
        )?;
        // "Total path delay: 20.51 ns (48.76 MHz)"
        report
            .lines()
            .find_map(|l| l.split("Total path delay:").nth(1))
            .and_then(|r| r.split_whitespace().next())
            .and_then(|v| v.parse().ok())
    } else {
        None
    };
    Ok(BoardBuild {
        bitstream: dir.join(format!("{name}.{}", packer.extension())),
        fmax_mhz: crate::flow::parse_fmax(&log)
            .ok_or_else(|| anyhow!("no Fmax in nextpnr's log"))?,
        utilisation: crate::flow::parse_utilisation(&log),
        icetime_ns,
    })
}
