//! Where units go: the `ucs4be`, `ucs4le` and `lines` formats, written to
//! standard output or to a file that appears only when it is complete.

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use tempfile::NamedTempFile;

use crate::input::Input;
use crate::reference::Unit;
use crate::report::{table_row, TABLE_HEADER};

/// How units are written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    Ucs4be,
    Ucs4le,
    Lines,
    Table,
}

impl Format {
    pub const ALL: [Format; 4] = [Format::Ucs4be, Format::Ucs4le, Format::Lines, Format::Table];

    /// The name the command line uses.
    pub fn name(self) -> &'static str {
        match self {
            Format::Ucs4be => "ucs4be",
            Format::Ucs4le => "ucs4le",
            Format::Lines => "lines",
            Format::Table => "table",
        }
    }

    /// One line on what it writes.
    pub fn help(self) -> &'static str {
        match self {
            Format::Ucs4be => {
                "One 32-bit big-endian word per unit (UCS-4, as `iconv -f UTF-32BE` reads it)"
            }
            Format::Ucs4le => "One 32-bit little-endian word per unit",
            Format::Lines => "One unit per line: `START..END U+XXXX`, or `START..END U+FFFD KIND`",
            Format::Table => "A readable table: offsets, bytes, code point, character, error kind",
        }
    }
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Format::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| format!("unknown format '{s}'"))
    }
}

/// The `lines` form of one unit.
pub fn unit_line(unit: &Unit) -> String {
    let mut line = format!(
        "{}..{} U+{:04X}",
        unit.span.start, unit.span.end, unit.value
    );
    if let Some(kind) = unit.error {
        line.push(' ');
        line.push_str(kind.name());
    }
    line
}

/// A destination: standard output; a temporary file renamed over PATH by
/// [`OutputFile::commit`], so that dropped uncommitted it leaves nothing; or,
/// when PATH is a device or a pipe (`/dev/null`, a FIFO), PATH itself, which
/// a rename would replace.
pub enum OutputFile {
    Stdout(io::Stdout),
    File { temp: NamedTempFile, path: PathBuf },
    Special(std::fs::File),
}

impl OutputFile {
    /// `None` and `-` are standard output.
    pub fn create(path: Option<&Path>) -> Result<OutputFile> {
        match path {
            None => Ok(OutputFile::Stdout(io::stdout())),
            Some(p) if p.as_os_str() == "-" => Ok(OutputFile::Stdout(io::stdout())),
            Some(p) if std::fs::metadata(p).is_ok_and(|m| !m.is_file() && !m.is_dir()) => {
                let file = std::fs::OpenOptions::new()
                    .write(true)
                    .open(p)
                    .with_context(|| format!("cannot write '{}'", p.display()))?;
                Ok(OutputFile::Special(file))
            }
            Some(p) => {
                let dir = match p.parent() {
                    Some(d) if !d.as_os_str().is_empty() => d,
                    _ => Path::new("."),
                };
                let temp = NamedTempFile::new_in(dir)
                    .with_context(|| format!("cannot write '{}'", p.display()))?;
                Ok(OutputFile::File {
                    temp,
                    path: p.to_path_buf(),
                })
            }
        }
    }

    /// Moves the finished file into place.
    pub fn commit(self) -> Result<()> {
        match self {
            OutputFile::Stdout(mut s) => Ok(s.flush()?),
            OutputFile::Special(mut f) => Ok(f.flush()?),
            OutputFile::File { temp, path } => {
                // Temporary files are private (0600); a finished output is not.
                #[cfg(unix)]
                {
                    use std::os::unix::fs::PermissionsExt;
                    temp.as_file()
                        .set_permissions(std::fs::Permissions::from_mode(0o644))?;
                }
                temp.persist(&path)
                    .with_context(|| format!("cannot write '{}'", path.display()))?;
                Ok(())
            }
        }
    }
}

impl Write for OutputFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            OutputFile::Stdout(s) => s.write(buf),
            OutputFile::File { temp, .. } => temp.write(buf),
            OutputFile::Special(f) => f.write(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            OutputFile::Stdout(s) => s.flush(),
            OutputFile::File { temp, .. } => temp.flush(),
            OutputFile::Special(f) => f.flush(),
        }
    }
}

/// Writes units in one [`Format`].
pub struct UnitWriter {
    format: Format,
    out: BufWriter<OutputFile>,
    /// The whole input, which only the table (showing each unit's bytes) needs.
    input: Vec<u8>,
}

impl UnitWriter {
    pub fn create(path: Option<&Path>, format: Format, input: &Input) -> Result<UnitWriter> {
        let mut out = BufWriter::with_capacity(64 * 1024, OutputFile::create(path)?);
        let input = match format {
            Format::Table => {
                writeln!(out, "{TABLE_HEADER}")?;
                input.read_all()?
            }
            _ => Vec::new(),
        };
        Ok(UnitWriter { format, out, input })
    }

    pub fn write(&mut self, unit: &Unit) -> io::Result<()> {
        match self.format {
            Format::Ucs4be => self.out.write_all(&unit.value.to_be_bytes()),
            Format::Ucs4le => self.out.write_all(&unit.value.to_le_bytes()),
            Format::Lines => writeln!(self.out, "{}", unit_line(unit)),
            Format::Table => {
                let bytes = self.input.get(unit.span.clone()).unwrap_or_default();
                writeln!(self.out, "{}", table_row(unit, bytes))
            }
        }
    }

    /// Flushes and moves the output into place.
    pub fn commit(self) -> Result<()> {
        let file = self
            .out
            .into_inner()
            .map_err(|e| e.into_error())
            .context("cannot write the output")?;
        file.commit()
    }
}

/// Writes a whole file atomically (for VCDs, Verilog and figures).
pub fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> Result<()>,
) -> Result<()> {
    let mut out = BufWriter::new(OutputFile::create(Some(path))?);
    write(&mut out)?;
    let file = out.into_inner().map_err(|e| e.into_error())?;
    file.commit()
}
