//! Where units go: the `ucs4be`, `ucs4le` and `lines` formats, written to
//! standard output or to a file that appears only when it is complete.
//!
//! A file output is written to a temporary file beside its destination and
//! renamed over it at the end, so a reader never sees half of it. Every such
//! temporary file, and every [`ScratchDir`] (the work directories of
//! synthesis, proofs, co-simulation and figures), is listed in one
//! registry, so that whatever stops the program (an error, or a signal
//! through [`remove_unfinished`]) removes it.

use std::ffi::CString;
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::os::fd::AsFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};

use anyhow::Result;
use tempfile::NamedTempFile;

use crate::input::Input;
use crate::reference::Unit;
use crate::report::{table_row, TABLE_HEADER};

/// How units are written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    Ucs4be,
    Ucs4le,
    Utf16be,
    Utf16le,
    Lines,
    Table,
}

impl Format {
    pub const ALL: [Format; 6] = [
        Format::Ucs4be,
        Format::Ucs4le,
        Format::Utf16be,
        Format::Utf16le,
        Format::Lines,
        Format::Table,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::Ucs4be => "ucs4be",
            Format::Ucs4le => "ucs4le",
            Format::Utf16be => "utf16be",
            Format::Utf16le => "utf16le",
            Format::Lines => "lines",
            Format::Table => "table",
        }
    }

    pub fn description(self) -> &'static str {
        match self {
            Format::Ucs4be => {
                "One 32-bit big-endian word per unit (UCS-4, as `iconv -f UTF-32BE` reads it)"
            }
            Format::Ucs4le => "One 32-bit little-endian word per unit",
            Format::Utf16be => {
                "UTF-16, big-endian: one or two code units per unit (`sim`: through the RTL UTF-16 encoder)"
            }
            Format::Utf16le => "UTF-16, little-endian, as utf16be",
            Format::Lines => "One unit per line: `START..END U+XXXX`, or `START..END U+FFFD KIND`",
            Format::Table => "A readable table: offsets, bytes, code point, character, error kind",
        }
    }
}

impl FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Format, String> {
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

/// The temporary files of outputs not yet renamed into place, and the
/// scratch directories in use.
static UNFINISHED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn unfinished() -> MutexGuard<'static, Vec<PathBuf>> {
    // A panic elsewhere leaves the list as valid as it was.
    UNFINISHED.lock().unwrap_or_else(|e| e.into_inner())
}

/// Removes every unfinished output's temporary file and every scratch
/// directory, and keeps the registry locked so that no output or scratch
/// directory is created or committed afterwards: for a signal handler, on
/// the way out of the program, whose `_exit` runs no destructor.
pub fn remove_unfinished() {
    let list = unfinished();
    for path in list.iter() {
        match fs::symlink_metadata(path) {
            Ok(m) if m.is_dir() => {
                let _ = fs::remove_dir_all(path);
            }
            _ => {
                let _ = fs::remove_file(path);
            }
        }
    }
    std::mem::forget(list);
}

/// A temporary work directory (a synthesis run's, a proof's, a model's
/// build) that nothing leaves behind: it is removed when dropped, as a
/// [`tempfile::TempDir`] is, and also by [`remove_unfinished`] when a
/// signal stops the program.
pub struct ScratchDir(Option<tempfile::TempDir>);

impl ScratchDir {
    /// A new directory named `PREFIX…` in the system's temporary directory.
    pub fn new(prefix: &str) -> io::Result<ScratchDir> {
        Self::new_in(&std::env::temp_dir(), prefix)
    }

    /// A new directory named `PREFIX…` in `parent`.
    pub fn new_in(parent: &Path, prefix: &str) -> io::Result<ScratchDir> {
        let mut list = unfinished();
        let dir = tempfile::Builder::new().prefix(prefix).tempdir_in(parent)?;
        list.push(dir.path().to_path_buf());
        Ok(ScratchDir(Some(dir)))
    }

    pub fn path(&self) -> &Path {
        self.0.as_ref().expect("present until kept").path()
    }

    /// Takes the directory out of the registry and keeps it on the disk:
    /// for a failed build whose logs an error message names.
    pub fn keep(mut self) -> PathBuf {
        let dir = self.0.take().expect("kept once");
        unfinished().retain(|p| p != dir.path());
        dir.keep()
    }

    /// Renames the directory to `target` and takes it out of the registry;
    /// on failure it stays a scratch directory, removed when dropped.
    pub fn rename_to(mut self, target: &Path) -> io::Result<()> {
        let mut list = unfinished();
        fs::rename(self.path(), target)?;
        let dir = self.0.take().expect("renamed once");
        list.retain(|p| p != dir.path());
        let _ = dir.keep();
        Ok(())
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        if let Some(dir) = self.0.take() {
            let mut list = unfinished();
            list.retain(|p| p != dir.path());
            drop(dir);
        }
    }
}

/// A temporary file in the registry; removed from both the disk and the
/// registry when dropped uncommitted.
struct Unfinished(Option<NamedTempFile>);

impl Unfinished {
    /// Creates the file in `dir` with mode 0666 less the umask, as any new
    /// file (tempfile's own default is 0600).
    fn create_in(dir: &Path) -> io::Result<Unfinished> {
        let mut list = unfinished();
        let temp = tempfile::Builder::new().make_in(dir, |path| {
            let mut options = OpenOptions::new();
            options.read(true).write(true).create_new(true).mode(0o666);
            options.open(path)
        })?;
        list.push(temp.path().to_path_buf());
        Ok(Unfinished(Some(temp)))
    }

    fn file(&mut self) -> &mut File {
        self.0
            .as_mut()
            .expect("present until committed")
            .as_file_mut()
    }

    /// Renames the file over `target`, giving it `mode` first. `list` is
    /// the locked registry.
    fn commit(
        mut self,
        list: &mut Vec<PathBuf>,
        target: &Path,
        mode: Option<u32>,
    ) -> io::Result<()> {
        let temp = self.0.take().expect("committed once");
        let path = temp.path().to_path_buf();
        list.retain(|p| *p != path);
        if let Some(mode) = mode {
            temp.as_file()
                .set_permissions(fs::Permissions::from_mode(mode))?;
        }
        temp.persist(target).map(drop).map_err(|e| e.error)
    }
}

impl Drop for Unfinished {
    fn drop(&mut self) {
        if let Some(temp) = self.0.take() {
            let mut list = unfinished();
            list.retain(|p| p != temp.path());
            drop(temp);
        }
    }
}

/// A device or a file's identity: (device, inode).
pub(crate) type Identity = (u64, u64);

pub(crate) fn identity(metadata: &fs::Metadata) -> Identity {
    (metadata.dev(), metadata.ino())
}

/// What an output path finally names.
#[derive(Debug)]
enum Located {
    /// A regular file, existing or not, reached through any symbolic links:
    /// the canonical path of the file itself, and the mode of an existing one.
    File { target: PathBuf, mode: Option<u32> },
    /// A device or a pipe (`/dev/null`, a FIFO), written in place, since a
    /// rename would replace it.
    Special,
}

/// Where an output path leads. Symbolic links are followed to the file
/// they name, even when that file does not exist yet.
fn locate(path: &Path) -> io::Result<(Located, Option<Identity>)> {
    match fs::metadata(path) {
        Ok(m) if m.is_dir() => Err(io::Error::new(
            io::ErrorKind::IsADirectory,
            "it is a directory",
        )),
        Ok(m) if !m.is_file() => Ok((Located::Special, Some(identity(&m)))),
        Ok(m) => {
            let mode = Some(m.permissions().mode() & 0o777);
            let target = fs::canonicalize(path)?;
            refuse_unwritable(&target)?;
            Ok((Located::File { target, mode }, Some(identity(&m))))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let link_target = follow_dangling_links(path)?;
            let name = link_target
                .file_name()
                .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "it names no file"))?;
            let dir = match link_target.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => Path::new("."),
            };
            let target = fs::canonicalize(dir)?.join(name);
            Ok((Located::File { target, mode: None }, None))
        }
        Err(e) => Err(e),
    }
}

/// Fails on an existing file the user may not write, as a shell's `>`
/// would: the rename that commits an output needs only the directory's
/// permission, so without this a write-protected file would be replaced.
/// The check is `access(2)` with the effective IDs, so root may write any
/// file but none on a read-only file system, again as `>`.
fn refuse_unwritable(target: &Path) -> io::Result<()> {
    let path = CString::new(target.as_os_str().as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "its name holds a NUL byte"))?;
    // SAFETY: `path` is a NUL-terminated string that outlives the call,
    // which only reads it.
    let allowed =
        unsafe { libc::faccessat(libc::AT_FDCWD, path.as_ptr(), libc::W_OK, libc::AT_EACCESS) };
    match allowed {
        0 => Ok(()),
        _ => {
            let e = io::Error::last_os_error();
            Err(io::Error::new(
                e.kind(),
                format!("the file is not writable ({e}); nothing was written"),
            ))
        }
    }
}

/// Whether standard output was closed when the program started. Rust's
/// runtime reopens a closed descriptor 0, 1 or 2 on `/dev/null` before
/// `main`, so afterwards a closed standard output looks like one that
/// silently loses everything written to it; this constructor runs before
/// the runtime's start-up and records what it sees.
static STDOUT_CLOSED_AT_START: AtomicBool = AtomicBool::new(false);

#[ctor::ctor(unsafe)]
fn record_closed_stdout() {
    // SAFETY: F_GETFD only reads a descriptor's flags; it fails with EBADF
    // when the descriptor is not open.
    let closed = unsafe { libc::fcntl(libc::STDOUT_FILENO, libc::F_GETFD) } == -1;
    STDOUT_CLOSED_AT_START.store(closed, Ordering::Relaxed);
}

/// Fails when standard output cannot take what is written to it: closed
/// when the program started, or open for reading only. Checked before a
/// run, so that nothing is computed for an output that would be lost.
pub fn check_stdout() -> io::Result<()> {
    let problem = if STDOUT_CLOSED_AT_START.load(Ordering::Relaxed) {
        Some("it is closed")
    } else {
        // SAFETY: F_GETFL only reads the open file's status flags.
        match unsafe { libc::fcntl(libc::STDOUT_FILENO, libc::F_GETFL) } {
            -1 => Some("it is closed"),
            flags if flags & libc::O_ACCMODE == libc::O_RDONLY => {
                Some("it is open for reading only")
            }
            _ => None,
        }
    };
    match problem {
        None => Ok(()),
        Some(problem) => Err(io::Error::other(format!(
            "cannot write standard output: {problem} (redirect it to a file, \
                 or give --output PATH)"
        ))),
    }
}

/// The path a chain of symbolic links ends at, when it ends at nothing yet.
fn follow_dangling_links(path: &Path) -> io::Result<PathBuf> {
    // As many as Linux follows (MAXSYMLINKS).
    const MAX_LINKS: usize = 40;
    let mut path = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::read_link(&path) {
            Ok(target) => {
                path = match path.parent() {
                    Some(dir) => dir.join(target),
                    None => target,
                }
            }
            Err(_) => return Ok(path),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// The file or stream an output argument writes to, for telling whether two
/// outputs would write to the same place.
#[derive(Debug)]
pub struct Destination {
    target: Option<PathBuf>,
    identity: Option<Identity>,
    stdout: bool,
}

impl Destination {
    /// `-` is standard output. Fails as [`OutputFile::create`] would.
    pub fn of(path: &Path) -> Result<Destination> {
        if path.as_os_str() == "-" {
            check_stdout()?;
            let identity = stdout_identity();
            return Ok(Destination {
                target: None,
                identity,
                stdout: true,
            });
        }
        let (located, identity) = locate(path).map_err(|e| write_error(&quoted(path), e))?;
        Ok(Destination {
            target: match located {
                Located::File { target, .. } => Some(target),
                Located::Special => None,
            },
            identity,
            stdout: false,
        })
    }

    /// Whether writing to both would mix or lose data: the same stream, the
    /// same file (through links, `..` or hard links), or the same pipe. The
    /// null device is never the same destination: it loses nothing.
    pub fn is_same(&self, other: &Destination) -> bool {
        let null = fs::metadata("/dev/null").ok().map(|m| identity(&m));
        (self.stdout && other.stdout)
            || (self.target.is_some() && self.target == other.target)
            || (self.identity.is_some() && self.identity == other.identity && self.identity != null)
    }
}

/// Refuses, before anything is written, a set of outputs that would
/// destroy what the user has: an output that is the input (through links,
/// `..`, hard links, or standard input redirected from it), or two outputs
/// to one place (the second would mix with the first, or be renamed over
/// it). Each of `outputs` is its flag and its path (`-`: standard output).
pub fn check_destinations(input: &Input, outputs: &[(&str, &Path)]) -> Result<()> {
    let destinations = outputs
        .iter()
        .map(|(_, path)| Destination::of(path))
        .collect::<Result<Vec<_>>>()?;
    let shown = |p: &Path| match p.as_os_str() == "-" {
        true => "- (standard output)".to_string(),
        false => quoted(p),
    };
    if let Some(input_file) = input.file_identity() {
        for (&(flag, path), destination) in outputs.iter().zip(&destinations) {
            anyhow::ensure!(
                destination.identity != Some(input_file),
                "{flag} {} is the input {}: writing it would destroy the input; \
                 nothing was written",
                shown(path),
                input.describe()
            );
        }
    }
    for (i, a) in destinations.iter().enumerate() {
        for (j, b) in destinations.iter().enumerate().skip(i + 1) {
            if a.is_same(b) {
                let [(flag_a, path_a), (flag_b, path_b)] = [outputs[i], outputs[j]];
                anyhow::bail!(
                    "{flag_a} {} and {flag_b} {} are the same destination; give each its own",
                    shown(path_a),
                    shown(path_b)
                );
            }
        }
    }
    Ok(())
}

/// Standard output's (device, inode), when it is a regular file or a pipe
/// (a terminal is a shared device, not a destination that can be mixed up).
fn stdout_identity() -> Option<Identity> {
    let fd = io::stdout().as_fd().try_clone_to_owned().ok()?;
    let metadata = File::from(fd).metadata().ok()?;
    (metadata.is_file() || metadata.file_type().is_fifo()).then(|| identity(&metadata))
}

fn quoted(path: &Path) -> String {
    format!("'{}'", path.display())
}

/// An I/O error on an output, naming the output. It keeps the error's kind
/// (a broken pipe stays a broken pipe) and its message, but never the path
/// of a temporary file.
fn write_error(name: &str, e: io::Error) -> io::Error {
    io::Error::new(
        e.kind(),
        OutputError {
            name: name.to_string(),
            source: e,
        },
    )
}

#[derive(Debug)]
struct OutputError {
    name: String,
    source: io::Error,
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot write {}: {}", self.name, self.source)
    }
}

impl std::error::Error for OutputError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

enum Sink {
    Stdout(io::Stdout),
    /// A temporary file, renamed over `target` by [`OutputFile::commit`].
    File {
        temp: Unfinished,
        target: PathBuf,
        mode: Option<u32>,
    },
    /// A device or pipe, written in place.
    Special(File),
}

/// A destination: standard output; a regular file, which appears only when
/// committed, with the mode of the file it replaces or else the umask's, and
/// through a symbolic link at the link's target; or a device or a pipe
/// (`/dev/null`, a FIFO), written in place. Every I/O error names it.
pub struct OutputFile {
    name: String,
    sink: Sink,
}

impl OutputFile {
    /// `None` and `-` are standard output.
    pub fn create(path: Option<&Path>) -> Result<OutputFile> {
        let path = match path {
            Some(p) if p.as_os_str() != "-" => p,
            _ => {
                check_stdout()?;
                return Ok(OutputFile {
                    name: "standard output".into(),
                    sink: Sink::Stdout(io::stdout()),
                });
            }
        };
        let name = quoted(path);
        let sink = (|| match locate(path)?.0 {
            Located::Special => Ok(Sink::Special(OpenOptions::new().write(true).open(path)?)),
            Located::File { target, mode } => {
                let dir = target.parent().unwrap_or(Path::new("/"));
                let temp = Unfinished::create_in(dir).map_err(|e| {
                    io::Error::new(
                        e.kind(),
                        format!("cannot create a file in the directory {}: {e}", quoted(dir)),
                    )
                })?;
                Ok(Sink::File { temp, target, mode })
            }
        })()
        .map_err(|e| write_error(&name, e))?;
        Ok(OutputFile { name, sink })
    }

    /// Moves the finished file into place.
    pub fn commit(self) -> Result<()> {
        commit_all([self])
    }
}

/// Flushes every output, then moves the files into place together: a
/// signal cannot leave some of them written and others not.
pub fn commit_all(outputs: impl IntoIterator<Item = OutputFile>) -> Result<()> {
    let mut outputs: Vec<OutputFile> = outputs.into_iter().collect();
    for output in &mut outputs {
        output.flush()?;
    }
    let mut list = unfinished();
    let mut result = Ok(());
    // Dropping an unfinished file takes the lock: drop them after it.
    let mut not_committed = Vec::new();
    for output in outputs {
        match output.sink {
            Sink::File { temp, target, mode } if result.is_ok() => {
                result = temp
                    .commit(&mut list, &target, mode)
                    .map_err(|e| write_error(&output.name, e));
            }
            sink => not_committed.push(sink),
        }
    }
    drop(list);
    drop(not_committed);
    Ok(result?)
}

impl Write for OutputFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.sink {
            Sink::Stdout(s) => s.write(buf),
            Sink::File { temp, .. } => temp.file().write(buf),
            Sink::Special(f) => f.write(buf),
        }
        .map_err(|e| write_error(&self.name, e))
    }
    fn flush(&mut self) -> io::Result<()> {
        match &mut self.sink {
            Sink::Stdout(s) => s.flush(),
            Sink::File { temp, .. } => temp.file().flush(),
            Sink::Special(f) => f.flush(),
        }
        .map_err(|e| write_error(&self.name, e))
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
            Format::Utf16be | Format::Utf16le => {
                // A value UTF-16 cannot carry (above U+10FFFF, from iso10646)
                // is U+FFFD, as the RTL UTF-16 encoder sends it.
                let encoded = crate::cores::utf16_encoder::Reference.encode(unit.value);
                self.write_code_units(&encoded.code_units)
            }
            Format::Lines => writeln!(self.out, "{}", unit_line(unit)),
            Format::Table => {
                let bytes = self.input.get(unit.span.clone()).unwrap_or_default();
                writeln!(self.out, "{}", table_row(unit, bytes))
            }
        }
    }

    /// `unit` in the `lines` format, followed by the names of the
    /// properties its `flags` say (`properties::Property::bit`), if any.
    pub fn write_with_properties(&mut self, unit: &Unit, flags: u8) -> io::Result<()> {
        let named = crate::cores::char_properties::Flags {
            tdata: unit.value,
            tuser: flags,
        };
        match flags {
            0 => writeln!(self.out, "{}", unit_line(unit)),
            _ => writeln!(self.out, "{} {}", unit_line(unit), named.names()),
        }
    }

    /// UTF-16 code units, in the byte order of a UTF-16 format.
    pub fn write_code_units(&mut self, code_units: &[u16]) -> io::Result<()> {
        for unit in code_units {
            match self.format {
                Format::Utf16le => self.out.write_all(&unit.to_le_bytes())?,
                _ => self.out.write_all(&unit.to_be_bytes())?,
            }
        }
        Ok(())
    }

    /// The output with everything written to it, ready to commit.
    pub fn finish(self) -> Result<OutputFile> {
        Ok(self.out.into_inner().map_err(|e| e.into_error())?)
    }

    /// Flushes and moves the output into place.
    pub fn commit(self) -> Result<()> {
        self.finish()?.commit()
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
