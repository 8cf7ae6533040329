//! VCD waveforms of the design, written with the `vcd` crate.
//!
//! One `$scope` for the decoder's ports, and one nested scope per block with
//! its named state. Each cycle *k* starts with the rising edge at *k* × period;
//! the cycle's values appear one time unit later (a clock-to-output delay), so
//! sampling any signal at a rising edge gives the value of the cycle that the
//! edge ends — exactly what the design's flops capture. Values are written
//! only when they change.

use std::io::Write;
use std::ops::Range;

use anyhow::Result;
use rust_hdl::prelude::*;
use utf8hdl_hdl::Utf8Decoder;
pub use vcd::TimescaleUnit;
use vcd::{IdCode, SimulationCommand, Value};

/// Reads one recorded value from the design.
type Read = fn(&Utf8Decoder) -> u64;

/// A recorded signal: the scope it sits in, its name and width.
struct Probe {
    scope: &'static str,
    name: &'static str,
    width: u32,
    read: Read,
}

fn bits<const N: usize>(b: Bits<N>) -> u64 {
    b.to_u64()
}

fn bit(b: bool) -> u64 {
    b as u64
}

/// Every signal in the waveform, in scope order. Enum-valued state is
/// recorded as its code; the codes are listed in `ByteClass::ALL`.
const PROBES: &[Probe] = &[
    Probe {
        scope: "",
        name: "rst",
        width: 1,
        read: |u| bit(u.rst.val()),
    },
    Probe {
        scope: "",
        name: "s_axis_tdata",
        width: 8,
        read: |u| bits(u.s_axis_tdata.val()),
    },
    Probe {
        scope: "",
        name: "s_axis_tvalid",
        width: 1,
        read: |u| bit(u.s_axis_tvalid.val()),
    },
    Probe {
        scope: "",
        name: "s_axis_tready",
        width: 1,
        read: |u| bit(u.s_axis_tready.val()),
    },
    Probe {
        scope: "",
        name: "s_axis_tlast",
        width: 1,
        read: |u| bit(u.s_axis_tlast.val()),
    },
    Probe {
        scope: "",
        name: "m_axis_tdata",
        width: 32,
        read: |u| bits(u.m_axis_tdata.val()),
    },
    Probe {
        scope: "",
        name: "m_axis_tuser",
        width: 4,
        read: |u| bits(u.m_axis_tuser.val()),
    },
    Probe {
        scope: "",
        name: "m_axis_tvalid",
        width: 1,
        read: |u| bit(u.m_axis_tvalid.val()),
    },
    Probe {
        scope: "",
        name: "m_axis_tready",
        width: 1,
        read: |u| bit(u.m_axis_tready.val()),
    },
    Probe {
        scope: "",
        name: "m_axis_tlast",
        width: 1,
        read: |u| bit(u.m_axis_tlast.val()),
    },
    Probe {
        scope: "skid_buffer",
        name: "buffered_valid",
        width: 1,
        read: |u| bit(u.skid_buffer.buffered_valid.q.val()),
    },
    Probe {
        scope: "skid_buffer",
        name: "buffered_tdata",
        width: 8,
        read: |u| bits(u.skid_buffer.buffered_tdata.q.val()),
    },
    Probe {
        scope: "classifier",
        name: "valid",
        width: 1,
        read: |u| bit(u.classifier.classified.valid.val()),
    },
    Probe {
        scope: "classifier",
        name: "byte_class",
        width: 5,
        read: |u| bits::<5>(u.classifier.classified.byte_class.val().into()),
    },
    Probe {
        scope: "classifier",
        name: "continuation",
        width: 5,
        read: |u| bits(u.classifier.classified.continuation.val()),
    },
    Probe {
        scope: "classifier",
        name: "free_bits",
        width: 8,
        read: |u| bits(u.classifier.classified.free_bits.val()),
    },
    Probe {
        scope: "classifier",
        name: "last",
        width: 1,
        read: |u| bit(u.classifier.classified.last.val()),
    },
    Probe {
        scope: "decoder",
        name: "bytes_left",
        width: 3,
        read: |u| bits(u.decoder.bytes_left.q.val()),
    },
    Probe {
        scope: "decoder",
        name: "allowed",
        width: 5,
        read: |u| bits(u.decoder.allowed.q.val()),
    },
    Probe {
        scope: "decoder",
        name: "gathered",
        width: 32,
        read: |u| bits(u.decoder.gathered.q.val()),
    },
    Probe {
        scope: "decoder",
        name: "pre_error_valid",
        width: 1,
        read: |u| bit(u.decoder.units.pre_error_valid.val()),
    },
    Probe {
        scope: "decoder",
        name: "word_tvalid",
        width: 1,
        read: |u| bit(u.decoder.units.word_tvalid.val()),
    },
    Probe {
        scope: "decoder",
        name: "word_tdata",
        width: 32,
        read: |u| bits(u.decoder.units.word_tdata.val()),
    },
    Probe {
        scope: "decoder",
        name: "word_tuser",
        width: 4,
        read: |u| bits(u.decoder.units.word_tuser.val()),
    },
    Probe {
        scope: "output_register",
        name: "advance",
        width: 1,
        read: |u| bit(u.output_register.advance.val()),
    },
];

/// A writer the recorder can hand back when it is done (`vcd::Writer` has
/// no `into_inner`).
struct Slot<W>(Option<W>);

impl<W: Write> Write for Slot<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.as_mut().expect("written before finish").write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.as_mut().map_or(Ok(()), Write::flush)
    }
}

/// Writes the waveform of a window of cycles.
pub struct VcdRecorder<W: Write> {
    writer: vcd::Writer<Slot<W>>,
    clock: IdCode,
    ids: Vec<IdCode>,
    last: Vec<Option<u64>>,
    window: Range<u64>,
    /// The clock period, in time units.
    period: u64,
    /// The clock-to-output delay, in time units.
    delay: u64,
    /// The cycle after the last one recorded.
    end: u64,
}

impl<W: Write> VcdRecorder<W> {
    /// Writes the header. `period` is the clock period in ns (at least 4),
    /// written in units of `unit` (ns or ps).
    pub fn new(out: W, window: Range<u64>, period: u64, unit: TimescaleUnit) -> Result<Self> {
        anyhow::ensure!(period >= 4, "the clock period must be at least 4 ns");
        let per_ns = match unit {
            TimescaleUnit::NS => 1,
            TimescaleUnit::PS => 1000,
            _ => anyhow::bail!("the waveform time unit must be ns or ps"),
        };
        let mut writer = vcd::Writer::new(Slot(Some(out)));
        writer.version(concat!("utf8hdl ", env!("CARGO_PKG_VERSION")))?;
        writer.timescale(1, unit)?;
        writer.add_module("utf8_decoder")?;
        let clock = writer.add_wire(1, "clk")?;
        let mut ids = Vec::with_capacity(PROBES.len());
        let mut scope = "";
        for probe in PROBES {
            if probe.scope != scope {
                if !scope.is_empty() {
                    writer.upscope()?;
                }
                writer.add_module(probe.scope)?;
                scope = probe.scope;
            }
            ids.push(writer.add_wire(probe.width, probe.name)?);
        }
        if !scope.is_empty() {
            writer.upscope()?;
        }
        writer.upscope()?;
        writer.enddefinitions()?;
        Ok(VcdRecorder {
            writer,
            clock,
            ids,
            last: vec![None; PROBES.len()],
            window,
            period: period * per_ns,
            delay: per_ns,
            end: 0,
        })
    }

    /// Records cycle `cycle` of the design, if it is in the window.
    pub fn record(&mut self, cycle: u64, uut: &Utf8Decoder) -> Result<()> {
        if !self.window.contains(&cycle) {
            return Ok(());
        }
        let edge = cycle * self.period;
        self.end = cycle + 1;
        self.writer.timestamp(edge)?;
        self.writer.change_scalar(self.clock, Value::V1)?;
        self.writer.timestamp(edge + self.delay)?;
        for (i, probe) in PROBES.iter().enumerate() {
            let value = (probe.read)(uut);
            if self.last[i] != Some(value) {
                self.last[i] = Some(value);
                write_value(&mut self.writer, self.ids[i], probe.width, value)?;
            }
        }
        self.writer.timestamp(edge + self.period / 2)?;
        self.writer.change_scalar(self.clock, Value::V0)?;
        Ok(())
    }

    /// Closes the last cycle with its ending edge and a `$dumpall`
    /// checkpoint of every value (so viewers can draw the last interval),
    /// flushes, and returns the writer.
    pub fn finish(mut self) -> Result<W> {
        self.writer.timestamp(self.end * self.period)?;
        self.writer.change_scalar(self.clock, Value::V1)?;
        self.writer.begin(SimulationCommand::Dumpall)?;
        for (i, probe) in PROBES.iter().enumerate() {
            if let Some(value) = self.last[i] {
                write_value(&mut self.writer, self.ids[i], probe.width, value)?;
            }
        }
        self.writer.end()?;
        self.writer.flush()?;
        Ok(self.writer.writer().0.take().expect("finished once"))
    }
}

/// A vector change with its leading zeros dropped (VCD zero-extends).
fn write_value<W: Write>(
    writer: &mut vcd::Writer<W>,
    id: IdCode,
    width: u32,
    value: u64,
) -> Result<()> {
    if width == 1 {
        writer.change_scalar(id, Value::from(value != 0))?;
    } else {
        let significant = (64 - value.leading_zeros()).max(1);
        let bits = (0..significant)
            .rev()
            .map(|i| Value::from(value >> i & 1 != 0));
        writer.change_vector(id, bits)?;
    }
    Ok(())
}
