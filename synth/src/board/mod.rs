//! # The iCEBreaker board top: UTF-8 in over the UART, one line per unit out
//!
//! ```text
//!  rx ─▶ UartRx ─▶ 512-byte FIFO ─▶ Utf8Decoder ─▶ UnitFormatter ─▶ UartTx ─▶ tx
//!                                       └── byte flags ──┘
//! ```
//!
//! Or, built in [`Mode::Echo`] (`--board icebreaker-echo`), the decoder's
//! words go back through the UTF-8 encoder, so the board echoes what it
//! reads with each malformed stretch replaced by U+FFFD (EF BF BD), as
//! `String::from_utf8_lossy` does:
//!
//! ```text
//!  rx ─▶ UartRx ─▶ 512-byte FIFO ─▶ Utf8Decoder ─▶ Utf8Encoder ─▶ UartTx ─▶ tx
//! ```
//!
//! Type (or send) UTF-8 at 115200 baud 8N1; every unit comes back as a line
//! in the format of `utf8hdl reference --format lines`
//! (`START..END U+XXXX[ KIND]`, see [`formatter`]). A message ends at each
//! line feed (0x0A, itself a unit of its message): offsets restart after it.
//! Each unit takes 12 to 40 characters to print, so the output is slower than
//! the input; the FIFO holds 512 bytes of input meanwhile. Input beyond that
//! is dropped and lights the red LED, as does a UART framing error (both
//! stay lit until reset).
//!
//! ## Pins (iCEBreaker v1.0, iCE40UP5K-SG48)
//! | port | pin | |
//! |---|---|---|
//! | `clk` | 35 | 12 MHz oscillator |
//! | `rx` | 6 | UART from the FTDI (FPGA receives) |
//! | `tx` | 9 | UART to the FTDI (FPGA sends) |
//! | `led_red_n` | 11 | red LED, active low: input lost |
//! | `led_green_n` | 37 | green LED, active low: out of reset |
//!
//! Reset is a 16-cycle power-on reset.

pub mod formatter;
pub mod uart;

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Result};
use rust_hdl::prelude::*;
use rust_hdl::widgets::prelude::SynchronousFIFO;
use serde::{Deserialize, Serialize};
use utf8hdl_hdl::{Profile, Utf8Decoder, Utf8Encoder};

use formatter::UnitFormatter;
use uart::{UartRx, UartTx};

/// The iCEBreaker's oscillator.
pub const CLOCK_HZ: u32 = 12_000_000;
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
}

impl Mode {
    /// Its part of the bitstream's name.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Lines => "icebreaker",
            Mode::Echo => "icebreaker_echo",
        }
    }
}

/// The input FIFO: 512 bytes.
pub type InputFifo = SynchronousFIFO<Bits<8>, 9, 10, 1>;

#[derive(LogicBlock)]
pub struct IceBreakerTop {
    pub clk: Signal<In, Clock>,
    pub rx: Signal<In, Bit>,
    pub tx: Signal<Out, Bit>,
    pub led_red_n: Signal<Out, Bit>,
    pub led_green_n: Signal<Out, Bit>,
    por: DFF<Bits<4>>,
    rst: Signal<Local, Bit>,
    lost: DFF<Bit>,
    uart_rx: UartRx,
    fifo: InputFifo,
    decoder: Utf8Decoder,
    formatter: UnitFormatter,
    encoder: Utf8Encoder,
    uart_tx: UartTx,
    take: Signal<Local, Bit>,
    line_feed: Constant<Bits<8>>,
    /// [`Mode::Echo`]: a constant, so synthesis drops most of the unused
    /// path (28 cells of it stay in lines mode).
    echo: Constant<Bit>,
}

impl IceBreakerTop {
    /// The board top for the iCEBreaker: 115200 baud from 12 MHz.
    pub fn icebreaker(profile: Profile, mode: Mode) -> Self {
        Self::new(profile, mode, clocks_per_bit(CLOCK_HZ, BAUD))
    }

    /// The board top with `clocks_per_bit` clock cycles per UART bit (a
    /// simulation may use fewer than the board's 104).
    pub fn new(profile: Profile, mode: Mode, clocks_per_bit: u16) -> Self {
        IceBreakerTop {
            clk: Default::default(),
            rx: Default::default(),
            tx: Default::default(),
            led_red_n: Default::default(),
            led_green_n: Default::default(),
            por: Default::default(),
            rst: Default::default(),
            lost: Default::default(),
            uart_rx: UartRx::new(clocks_per_bit),
            fifo: Default::default(),
            decoder: Utf8Decoder::new(profile),
            formatter: Default::default(),
            encoder: Utf8Encoder::new(profile),
            uart_tx: UartTx::new(clocks_per_bit),
            take: Default::default(),
            line_feed: Constant::new(0x0A.into()),
            echo: Constant::new(mode == Mode::Echo),
        }
    }
}

impl Logic for IceBreakerTop {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk, por, lost);
        clock!(self, clk, uart_rx, fifo, formatter, uart_tx);
        self.decoder.clk.next = self.clk.val();
        self.encoder.clk.next = self.clk.val();
        // Power-on reset: 16 cycles.
        self.rst.next = !self.por.q.val().all();
        if !self.por.q.val().all() {
            self.por.d.next = self.por.q.val() + 1;
        }
        self.uart_rx.rst.next = self.rst.val();
        self.decoder.rst.next = self.rst.val();
        self.formatter.rst.next = self.rst.val();
        self.encoder.rst.next = self.rst.val();
        self.uart_tx.rst.next = self.rst.val();

        // rx -> FIFO
        self.uart_rx.rx.next = self.rx.val();
        self.fifo.data_in.next = self.uart_rx.data.val();
        self.fifo.write.next = self.uart_rx.valid.val() & !self.fifo.full.val();
        if (self.uart_rx.valid.val() & self.fifo.full.val()) | self.uart_rx.framing_error.val() {
            self.lost.d.next = true;
        }

        // FIFO -> decoder, a message per line (the formatter's byte flags
        // count only when it prints)
        self.decoder.s_axis_tdata.next = self.fifo.data_out.val();
        self.decoder.s_axis_tlast.next = self.fifo.data_out.val() == self.line_feed.val();
        self.decoder.s_axis_tvalid.next =
            !self.fifo.empty.val() & (self.echo.val() | !self.formatter.flags_full.val());
        self.take.next = !self.fifo.empty.val()
            & (self.echo.val() | !self.formatter.flags_full.val())
            & self.decoder.s_axis_tready.val();
        self.fifo.read.next = self.take.val();
        self.formatter.byte_taken.next = self.take.val() & !self.echo.val();
        self.formatter.byte_is_cont.next =
            self.fifo.data_out.val().get_bit(7) & !self.fifo.data_out.val().get_bit(6);
        self.formatter.byte_is_last.next = self.fifo.data_out.val() == self.line_feed.val();

        // decoder -> formatter -> tx, or decoder -> encoder -> tx
        self.formatter.m_tdata.next = self.decoder.m_axis_tdata.val();
        self.formatter.m_tuser.next = self.decoder.m_axis_tuser.val();
        self.formatter.m_tlast.next = self.decoder.m_axis_tlast.val();
        self.formatter.m_tvalid.next = self.decoder.m_axis_tvalid.val() & !self.echo.val();
        self.encoder.s_axis_tdata.next = self.decoder.m_axis_tdata.val();
        self.encoder.s_axis_tlast.next = self.decoder.m_axis_tlast.val();
        self.encoder.s_axis_tvalid.next = self.decoder.m_axis_tvalid.val() & self.echo.val();
        self.formatter.tx_ready.next = self.uart_tx.ready.val() & !self.echo.val();
        self.encoder.m_axis_tready.next = self.uart_tx.ready.val() & self.echo.val();
        if self.echo.val() {
            self.decoder.m_axis_tready.next = self.encoder.s_axis_tready.val();
            self.uart_tx.data.next = self.encoder.m_axis_tdata.val();
            self.uart_tx.valid.next = self.encoder.m_axis_tvalid.val();
        } else {
            self.decoder.m_axis_tready.next = self.formatter.m_tready.val();
            self.uart_tx.data.next = self.formatter.tx_data.val();
            self.uart_tx.valid.next = self.formatter.tx_valid.val();
        }
        self.tx.next = self.uart_tx.tx.val();

        self.led_red_n.next = !self.lost.q.val();
        self.led_green_n.next = self.rst.val();
        if self.rst.val() {
            self.lost.d.next = false;
        }
    }
}

/// The iCEBreaker pin constraints for [`IceBreakerTop`].
pub const ICEBREAKER_PCF: &str = "\
# iCEBreaker v1.0 (iCE40UP5K-SG48)
set_io -nowarn clk 35
set_io -nowarn rx 6
set_io -nowarn tx 9
set_io -nowarn led_red_n 11
set_io -nowarn led_green_n 37
";

/// The board top's Verilog (rust-hdl's, top module `top`).
pub fn board_verilog(profile: Profile, mode: Mode) -> Result<String> {
    let mut uut = IceBreakerTop::icebreaker(profile, mode);
    uut.connect_all();
    check_all(&uut).map_err(|e| anyhow!("the board top fails rust-hdl's checks: {e:?}"))?;
    Ok(generate_verilog(&uut))
}

/// What [`board_bitstream`] made.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BoardBuild {
    /// The bitstream, for `iceprog`.
    pub bitstream: PathBuf,
    /// nextpnr's post-route Fmax (the board runs at 12 MHz).
    pub fmax_mhz: f64,
    /// nextpnr's device utilisation: (resource, used, available).
    pub utilisation: Vec<(String, usize, usize)>,
    /// icetime's worst path estimate, in ns, if icetime ran.
    pub icetime_ns: Option<f64>,
}

/// Builds the iCEBreaker bitstream for `profile` and `mode` in `dir`: yosys
/// `synth_ice40`, nextpnr-ice40 (`--up5k --package sg48`, 12 MHz), icepack,
/// and icetime for an independent timing estimate. Returns the bitstream's
/// path (`<dir>/icebreaker_<profile>.bin`, `icebreaker_echo_<profile>.bin`
/// in echo mode) and the timing.
pub fn board_bitstream(profile: Profile, mode: Mode, dir: &Path) -> Result<BoardBuild> {
    for tool in ["yosys", "nextpnr-ice40", "icepack"] {
        if crate::tools::find(tool).is_none() {
            bail!("{tool} is not on PATH");
        }
    }
    std::fs::create_dir_all(dir)?;
    let name = format!("{}_{}", mode.name(), profile.name());
    std::fs::write(dir.join(format!("{name}.v")), board_verilog(profile, mode)?)?;
    std::fs::write(dir.join("icebreaker.pcf"), ICEBREAKER_PCF)?;
    // Not `-q`: the kept `yosys.log` is yosys's whole log; `run` captures
    // it, so the terminal stays quiet.
    crate::tools::run(
        dir,
        "yosys",
        &[
            "-p",
            &format!("read_verilog {name}.v; synth_ice40 -top top -json {name}.json"),
        ],
        "yosys.log",
    )?;
    let log = crate::tools::run(
        dir,
        "nextpnr-ice40",
        &[
            "--up5k",
            "--package",
            "sg48",
            "--pcf",
            "icebreaker.pcf",
            "--json",
            &format!("{name}.json"),
            "--asc",
            &format!("{name}.asc"),
            "--freq",
            "12",
        ],
        "nextpnr.log",
    )?;
    crate::tools::run(
        dir,
        "icepack",
        &[&format!("{name}.asc"), &format!("{name}.bin")],
        "icepack.log",
    )?;
    let icetime_ns = if crate::tools::find("icetime").is_some() {
        // icetime's own PCF reader knows no `-nowarn`.
        std::fs::write(
            dir.join("icetime.pcf"),
            ICEBREAKER_PCF.replace(" -nowarn", ""),
        )?;
        let report = crate::tools::run(
            dir,
            "icetime",
            &[
                "-d",
                "up5k",
                "-P",
                "sg48",
                "-p",
                "icetime.pcf",
                "-c",
                "12",
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
        bitstream: dir.join(format!("{name}.bin")),
        fmax_mhz: crate::flow::parse_fmax(&log)
            .ok_or_else(|| anyhow!("no Fmax in nextpnr's log"))?,
        utilisation: crate::flow::parse_utilisation(&log),
        icetime_ns,
    })
}
