//! # The boards: one row each
//!
//! A board is its device, its oscillator, where the top's five ports go,
//! how its LEDs light and how a bitstream goes onto it. Everything else
//! follows from the device: the synthesis command, nextpnr's part, the
//! constraint file's format (`.pcf`, `.lpf`, `.cst`, written from
//! [`Board::pins`]) and the packer. Adding a board is adding its row.
//!
//! | board | device | USB-UART | programmer |
//! |---|---|---|---|
//! | `icebreaker` (1BitSquared iCEBreaker v1.0) | up5k | FTDI FT2232H, channel B | `iceprog` |
//! | `tangnano9k` (Sipeed Tang Nano 9K) | gw1nr-9 | Bouffalo BL702 | `openFPGALoader -b tangnano9k` |
//! | `ulx3s` (Radiona ULX3S, 25F) | ecp5-25k | FTDI FT231X | `openFPGALoader -b ulx3s` |
//!
//! The ECP5 board is the ULX3S rather than the OrangeCrab: the ULX3S
//! carries a USB-UART chip, while the OrangeCrab's only USB goes straight
//! to the FPGA, which would need a soft USB core to speak serial.

use crate::flow::Pin;
use crate::Device;

/// A board the UART demo is built for.
#[derive(Debug, PartialEq, Eq)]
pub struct Board {
    /// Its name on the command line and in build paths.
    pub name: &'static str,
    pub title: &'static str,
    pub device: Device,
    /// The oscillator on the clock pin.
    pub clock_hz: u32,
    /// The chip between USB and the FPGA's UART pins.
    pub usb_uart: &'static str,
    /// Where `clk`, `rx`, `tx`, `led_lost` and `led_ready` go.
    pub pins: &'static [Pin],
    /// An LED lights when its pin is low.
    pub leds_active_low: bool,
    /// The command that loads a bitstream (its path appended) into the
    /// FPGA.
    pub programmer: &'static str,
    /// Its part holds the 4-lane decoder's demo ([`super::Mode::Wide`])
    /// beside the UARTs.
    pub wide: bool,
}

/// Every board.
pub const BOARDS: &[Board] = &[
    // Pins: the iCEBreaker v1.0 schematic and its `icebreaker.pcf`.
    Board {
        name: "icebreaker",
        title: "1BitSquared iCEBreaker v1.0 (iCE40UP5K-SG48)",
        device: Device::Up5k,
        clock_hz: 12_000_000,
        usb_uart: "FTDI FT2232H (channel B)",
        pins: &[
            pin("clk", "35", ""),
            pin("rx", "6", ""),
            pin("tx", "9", ""),
            // The red LED.
            pin("led_lost", "11", ""),
            // The green LED.
            pin("led_ready", "37", ""),
        ],
        leds_active_low: true,
        programmer: "iceprog",
        wide: false,
    },
    // Pins: Project Apicula's `examples/tangnano9k.cst` (the LEDs' bank
    // is at 1.8 V).
    Board {
        name: "tangnano9k",
        title: "Sipeed Tang Nano 9K (GW1NR-LV9QN88PC6/I5)",
        device: Device::Gw1nr9,
        clock_hz: 27_000_000,
        usb_uart: "Bouffalo BL702",
        pins: &[
            pin("clk", "52", "IO_TYPE=LVCMOS33 PULL_MODE=UP"),
            pin("rx", "18", "IO_TYPE=LVCMOS33 PULL_MODE=UP"),
            pin("tx", "17", "IO_TYPE=LVCMOS33 PULL_MODE=UP"),
            // LED 0 and LED 1.
            pin("led_lost", "10", "IO_TYPE=LVCMOS18 PULL_MODE=NONE"),
            pin("led_ready", "11", "IO_TYPE=LVCMOS18 PULL_MODE=NONE"),
        ],
        leds_active_low: true,
        programmer: "openFPGALoader -b tangnano9k",
        wide: false,
    },
    // Pins: the ULX3S's `ulx3s_v20.lpf` (`clk_25mhz`, `ftdi_txd`,
    // `ftdi_rxd`, `led[0]`, `led[1]`).
    Board {
        name: "ulx3s",
        title: "Radiona ULX3S (LFE5U-25F-6BG381C)",
        device: Device::Ecp5_25k,
        clock_hz: 25_000_000,
        usb_uart: "FTDI FT231X",
        pins: &[
            pin("clk", "G2", "IO_TYPE=LVCMOS33"),
            pin("rx", "M1", "PULLMODE=UP IO_TYPE=LVCMOS33"),
            pin("tx", "L4", "PULLMODE=UP IO_TYPE=LVCMOS33 DRIVE=4"),
            pin("led_lost", "B2", "IO_TYPE=LVCMOS33 DRIVE=4"),
            pin("led_ready", "C2", "IO_TYPE=LVCMOS33 DRIVE=4"),
        ],
        leds_active_low: false,
        programmer: "openFPGALoader -b ulx3s",
        wide: true,
    },
];

const fn pin(port: &'static str, site: &'static str, io: &'static str) -> Pin {
    Pin { port, site, io }
}

impl Board {
    /// The demos it is built for: each [`super::Mode`], the wide one only
    /// where the part holds it.
    pub fn modes(&self) -> impl Iterator<Item = super::Mode> + '_ {
        super::Mode::ALL
            .into_iter()
            .filter(|&mode| mode != super::Mode::Wide || self.wide)
    }

    /// The board named `name`.
    pub fn named(name: &str) -> Option<&'static Board> {
        BOARDS.iter().find(|b| b.name == name)
    }

    /// Its constraint file: its name and text, in the format of its
    /// device's nextpnr.
    pub fn constraints(&self) -> (String, String) {
        let format = self.device.constraint_format();
        (
            format!("{}.{}", self.name, format.extension()),
            format.render(self.title, self.pins),
        )
    }
}
