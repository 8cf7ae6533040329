//! Where the bytes come from: a path, standard input (`-`), or the embedded
//! sample when no INPUT is given. Reading is streamed, so memory stays flat.

use std::fs::File;
use std::io::{self, BufReader, Cursor, Read};
use std::os::fd::AsFd;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::sample::sample;

/// The INPUT argument of every subcommand.
#[derive(Clone, Debug)]
pub enum Input {
    Sample,
    Stdin,
    Path(PathBuf),
    /// An input already read into memory, with the name of where it came from.
    Loaded(Vec<u8>, String),
}

impl Input {
    /// A command's input argument: none is the embedded sample, `-`
    /// standard input, anything else a path (in any bytes the system
    /// allows, not only UTF-8).
    pub fn from_arg(arg: Option<&Path>) -> Input {
        match arg {
            None => Input::Sample,
            Some(path) if path.as_os_str() == "-" => Input::Stdin,
            Some(path) => Input::Path(path.to_path_buf()),
        }
    }

    /// The path it reads, if it reads a file.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Input::Path(path) => Some(path),
            _ => None,
        }
    }

    /// A short name for messages.
    pub fn describe(&self) -> String {
        match self {
            Input::Sample => "the embedded sample".into(),
            Input::Stdin => "standard input".into(),
            Input::Path(p) => format!("'{}'", p.display()),
            Input::Loaded(_, name) => name.clone(),
        }
    }

    /// The same input, read into memory once, for uses that need it twice
    /// (standard input cannot be read again).
    pub fn loaded(self) -> Result<Input> {
        match self {
            Input::Loaded(..) => Ok(self),
            _ => {
                let bytes = self.read_all()?;
                Ok(Input::Loaded(bytes, self.describe()))
            }
        }
    }

    /// Opens the input as a byte stream. Fails at once on a missing or
    /// unreadable path, or a directory.
    pub fn open(&self) -> Result<ByteStream> {
        let reader: Box<dyn Read> = match self {
            Input::Sample => Box::new(Cursor::new(sample())),
            Input::Loaded(bytes, _) => Box::new(Cursor::new(bytes.clone())),
            Input::Stdin => Box::new(io::stdin().lock()),
            Input::Path(path) => {
                let file =
                    File::open(path).with_context(|| format!("cannot open {}", self.describe()))?;
                let metadata = file
                    .metadata()
                    .with_context(|| format!("cannot read {}", self.describe()))?;
                if metadata.is_dir() {
                    anyhow::bail!("cannot read {}: it is a directory", self.describe());
                }
                Box::new(file)
            }
        };
        Ok(ByteStream::new(reader, self.describe()))
    }

    /// The whole input in memory, for the commands that need it twice.
    pub fn read_all(&self) -> Result<Vec<u8>> {
        let mut stream = self.open()?;
        let bytes: Vec<u8> = (&mut stream).collect();
        stream.finish()?;
        Ok(bytes)
    }

    /// The regular file the input reads, as (device, inode) after following
    /// links: a path, or standard input redirected from a file. An output
    /// with this identity would overwrite the input while it is read.
    pub fn file_identity(&self) -> Option<crate::output::Identity> {
        let metadata = match self {
            Input::Path(path) => std::fs::metadata(path).ok()?,
            Input::Stdin => File::from(io::stdin().as_fd().try_clone_to_owned().ok()?)
                .metadata()
                .ok()?,
            Input::Sample | Input::Loaded(..) => return None,
        };
        metadata
            .is_file()
            .then(|| crate::output::identity(&metadata))
    }

    /// The input's size when it is known in advance (for progress bars).
    pub fn len_hint(&self) -> Option<u64> {
        match self {
            Input::Sample => Some(sample().len() as u64),
            Input::Loaded(bytes, _) => Some(bytes.len() as u64),
            Input::Stdin => None,
            Input::Path(p) => std::fs::metadata(p).ok().map(|m| m.len()),
        }
    }
}

/// A buffered byte iterator over a reader. An I/O error ends the stream and
/// is kept for [`ByteStream::finish`], so decoders can treat the stream as a
/// plain `Iterator<Item = u8>`.
pub struct ByteStream {
    reader: BufReader<Box<dyn Read>>,
    buffer: Box<[u8]>,
    filled: usize,
    next: usize,
    consumed: u64,
    error: Option<io::Error>,
    name: String,
}

impl ByteStream {
    fn new(reader: Box<dyn Read>, name: String) -> Self {
        ByteStream {
            reader: BufReader::new(reader),
            buffer: vec![0; 64 * 1024].into_boxed_slice(),
            filled: 0,
            next: 0,
            consumed: 0,
            error: None,
            name,
        }
    }

    /// Bytes handed out so far.
    pub fn consumed(&self) -> u64 {
        self.consumed
    }

    /// Reports an I/O error that ended the stream early.
    pub fn finish(self) -> Result<()> {
        match self.error {
            Some(e) => Err(e).with_context(|| format!("cannot read {}", self.name)),
            None => Ok(()),
        }
    }

    fn refill(&mut self) -> bool {
        loop {
            match self.reader.read(&mut self.buffer) {
                Ok(n) => {
                    self.filled = n;
                    self.next = 0;
                    return n > 0;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.error = Some(e);
                    return false;
                }
            }
        }
    }
}

impl Iterator for ByteStream {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.next == self.filled && (self.error.is_some() || !self.refill()) {
            return None;
        }
        let byte = self.buffer[self.next];
        self.next += 1;
        self.consumed += 1;
        Some(byte)
    }
}
