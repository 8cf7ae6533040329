//! # Pin constraints: one list of pins, in the format of the device's nextpnr
//!
//! | format | nextpnr | a pin | its I/O options |
//! |---|---|---|---|
//! | `.pcf` (iCE40) | `--pcf FILE` | `set_io -nowarn PORT SITE` | between `-nowarn` and the port |
//! | `.lpf` (ECP5) | `--lpf FILE` | `LOCATE COMP "PORT" SITE "SITE";` | `IOBUF PORT "PORT" OPTIONS;` |
//! | `.cst` (Gowin) | `--vopt cst=FILE` | `IO_LOC "PORT" SITE;` | `IO_PORT "PORT" OPTIONS;` |

/// Where a top-level port goes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Pin {
    pub port: &'static str,
    /// The package pin or ball.
    pub site: &'static str,
    /// I/O options in the format's own words (I/O standard, pull-up), or
    /// empty.
    pub io: &'static str,
}

/// A constraint file format.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ConstraintFormat {
    Pcf,
    Lpf,
    Cst,
}

impl ConstraintFormat {
    /// The file name's extension.
    pub fn extension(self) -> &'static str {
        match self {
            ConstraintFormat::Pcf => "pcf",
            ConstraintFormat::Lpf => "lpf",
            ConstraintFormat::Cst => "cst",
        }
    }

    /// nextpnr's arguments that read the constraints from `file`.
    pub fn nextpnr_args(self, file: &str) -> Vec<String> {
        match self {
            ConstraintFormat::Pcf => vec!["--pcf".into(), file.into()],
            ConstraintFormat::Lpf => vec!["--lpf".into(), file.into()],
            ConstraintFormat::Cst => vec!["--vopt".into(), format!("cst={file}")],
        }
    }

    /// The file's text: `title` as a comment, then each pin.
    pub fn render(self, title: &str, pins: &[Pin]) -> String {
        let comment = if self == ConstraintFormat::Cst {
            "//"
        } else {
            "#"
        };
        let mut text = format!("{comment} {title}\n");
        for Pin { port, site, io } in pins {
            let io_words = if io.is_empty() {
                String::new()
            } else {
                format!(" {io}")
            };
            text += &match self {
                ConstraintFormat::Pcf => format!("set_io -nowarn{io_words} {port} {site}\n"),
                ConstraintFormat::Lpf if io.is_empty() => {
                    format!("LOCATE COMP \"{port}\" SITE \"{site}\";\n")
                }
                ConstraintFormat::Lpf => format!(
                    "LOCATE COMP \"{port}\" SITE \"{site}\";\nIOBUF PORT \"{port}\"{io_words};\n"
                ),
                ConstraintFormat::Cst if io.is_empty() => format!("IO_LOC \"{port}\" {site};\n"),
                ConstraintFormat::Cst => {
                    format!("IO_LOC \"{port}\" {site};\nIO_PORT \"{port}\"{io_words};\n")
                }
            };
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each format writes a pin, and its I/O options, in the words of the
    /// nextpnr that reads it.
    #[test]
    fn each_format_writes_its_own_words() {
        let pins = [
            Pin {
                port: "clk",
                site: "G2",
                io: "",
            },
            Pin {
                port: "rx",
                site: "M1",
                io: "IO_TYPE=LVCMOS33",
            },
        ];
        assert_eq!(
            ConstraintFormat::Lpf.render("a board", &pins),
            "# a board\nLOCATE COMP \"clk\" SITE \"G2\";\nLOCATE COMP \"rx\" SITE \"M1\";\n\
             IOBUF PORT \"rx\" IO_TYPE=LVCMOS33;\n"
        );
        assert_eq!(
            ConstraintFormat::Cst.render("a board", &pins),
            "// a board\nIO_LOC \"clk\" G2;\nIO_LOC \"rx\" M1;\nIO_PORT \"rx\" IO_TYPE=LVCMOS33;\n"
        );
        assert_eq!(
            ConstraintFormat::Pcf.render("a board", &pins[..1]),
            "# a board\nset_io -nowarn clk G2\n"
        );
    }
}
