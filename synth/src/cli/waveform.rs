//! The waveforms a run records: a VCD file (`--vcd`), or a timing diagram
//! drawn from one kept in memory (`sim --svg`).

use std::io::{BufWriter, Write};
use std::ops::Range;

use anyhow::Result;
use utf8hdl_sim::core::{Core, Values};
use utf8hdl_sim::figures::{self, View};
use utf8hdl_sim::output::OutputFile;
use utf8hdl_sim::waveform::{TimescaleUnit, VcdRecorder};

/// A waveform being recorded: to its file (`--vcd`), or in memory for the
/// timing diagram (`--svg`).
pub struct Waveform<W: Write> {
    recorder: VcdRecorder<W>,
    error: Option<anyhow::Error>,
}

impl<W: Write> Waveform<W> {
    fn create<C: Core>(out: W, window: Range<u64>, period: u64, core: &C) -> Result<Self> {
        Ok(Waveform {
            recorder: VcdRecorder::new(out, core, window, period, TimescaleUnit::NS)?,
            error: None,
        })
    }

    /// The cycles it records.
    pub fn window(&self) -> Range<u64> {
        self.recorder.window()
    }

    pub fn record(&mut self, cycle: u64, values: &Values) {
        if self.error.is_none() {
            self.error = self.recorder.record(cycle, values).err();
        }
    }

    /// The finished writer.
    fn finish(self) -> Result<W> {
        if let Some(e) = self.error {
            return Err(e);
        }
        self.recorder.finish()
    }
}

impl Waveform<BufWriter<OutputFile>> {
    /// The waveform of `core` into the file at `path`, being created.
    pub fn to_file<C: Core>(
        path: &std::path::Path,
        window: Range<u64>,
        period: u64,
        core: &C,
    ) -> Result<Self> {
        let file = BufWriter::new(OutputFile::create(Some(path))?);
        Waveform::create(file, window, period, core)
    }

    /// The finished `--vcd` file, flushed, ready to commit.
    pub fn into_file(self) -> Result<OutputFile> {
        Ok(self.finish()?.into_inner().map_err(|e| e.into_error())?)
    }
}

/// A timing diagram being recorded for `sim --svg`.
pub struct Diagram {
    file: OutputFile,
    pub waveform: Waveform<Vec<u8>>,
    /// The core's module name, its scope in the VCD.
    scope: String,
    lanes: usize,
}

impl Diagram {
    /// The diagram of `core`'s `window`, to be drawn into the file at
    /// `path`, being created.
    pub fn create<C: Core>(
        path: &std::path::Path,
        window: Range<u64>,
        period: u64,
        core: &C,
    ) -> Result<Self> {
        Ok(Diagram {
            file: OutputFile::create(Some(path))?,
            waveform: Waveform::create(Vec::new(), window, period, core)?,
            scope: core.name(),
            lanes: core.lanes()?.count,
        })
    }

    /// Draws the recorded `cycles` into the file, ready to commit.
    pub fn draw(mut self, cycles: Range<u64>, period: u64, title: &str) -> Result<OutputFile> {
        let vcd = self.waveform.finish()?;
        let svg = figures::draw(
            vcd.as_slice(),
            &self.scope,
            View::All,
            self.lanes,
            period,
            cycles,
            title,
        )?;
        self.file.write_all(svg.as_bytes())?;
        Ok(self.file)
    }
}
