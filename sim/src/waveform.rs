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
pub use vcd::TimescaleUnit;
use vcd::{IdCode, SimulationCommand, Value};

use crate::core::{probes, Core, Values};

/// Where a path goes in the waveform: the scope of its block (empty for a
/// port), and its own name, without the bundle it travels in or the `.q`
/// of a register (`classifier.classified.valid` is `valid` in
/// `classifier`).
fn scope_and_name(path: &str) -> (&str, &str) {
    let path = path.strip_suffix(".q").unwrap_or(path);
    match (path.split_once('.'), path.rsplit_once('.')) {
        (Some((scope, _)), Some((_, name))) => (scope, name),
        _ => ("", path),
    }
}

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
    /// The clock's identifier code, as written in a value change.
    clock_code: String,
    /// Each probe's identifier code.
    codes: Vec<String>,
    /// The text of a cycle being written.
    line: Vec<u8>,
    /// The values last written, once a cycle is.
    last: Option<Values>,
    window: Range<u64>,
    /// The clock period, in time units.
    period: u64,
    /// The clock-to-output delay, in time units.
    delay: u64,
    /// The cycle after the last one recorded.
    end: u64,
}

impl<W: Write> VcdRecorder<W> {
    /// Writes the header for the waveform of `core`. `period` is the clock
    /// period in ns (at least 4), written in units of `unit` (ns or ps).
    pub fn new<C: Core>(
        out: W,
        core: &C,
        window: Range<u64>,
        period: u64,
        unit: TimescaleUnit,
    ) -> Result<Self> {
        anyhow::ensure!(period >= 4, "the clock period must be at least 4 ns");
        let per_ns = match unit {
            TimescaleUnit::NS => 1,
            TimescaleUnit::PS => 1000,
            _ => anyhow::bail!("the waveform time unit must be ns or ps"),
        };
        let period = period
            .checked_mul(per_ns)
            .ok_or_else(|| anyhow::anyhow!("the clock period is too long"))?;
        let mut writer = vcd::Writer::new(Slot(Some(out)));
        writer.version(concat!("utf8hdl ", env!("CARGO_PKG_VERSION")))?;
        writer.timescale(1, unit)?;
        writer.add_module(&core.name())?;
        let clock = writer.add_wire(1, "clk")?;
        let signals = probes(core)?;
        let mut ids = Vec::with_capacity(signals.paths.len());
        let mut scope = "";
        for (path, &width) in signals.paths.iter().zip(&signals.widths) {
            let (probe_scope, name) = scope_and_name(path);
            if probe_scope != scope {
                if !scope.is_empty() {
                    writer.upscope()?;
                }
                // A register of the top block (the UTF-16 decoder's `held`)
                // goes back into the core's own scope.
                if !probe_scope.is_empty() {
                    writer.add_module(probe_scope)?;
                }
                scope = probe_scope;
            }
            ids.push(writer.add_wire(width as u32, name)?);
        }
        if !scope.is_empty() {
            writer.upscope()?;
        }
        writer.upscope()?;
        writer.enddefinitions()?;
        Ok(VcdRecorder {
            writer,
            clock,
            clock_code: clock.to_string(),
            last: None,
            codes: ids.iter().map(IdCode::to_string).collect(),
            line: Vec::new(),
            window,
            period,
            delay: per_ns,
            end: 0,
        })
    }

    /// The cycles it records; a harness reads the probes only there
    /// ([`crate::harness::Harness::probe_window`]).
    pub fn window(&self) -> Range<u64> {
        self.window.clone()
    }

    /// The time of cycle `cycle`'s rising edge; an error rather than a
    /// time that wraps around.
    fn time(&self, cycle: u64) -> Result<u64> {
        cycle
            .checked_mul(self.period)
            .filter(|t| t.checked_add(self.period).is_some())
            .ok_or_else(|| {
                anyhow::anyhow!("the waveform's time passed 2^64 units at cycle {cycle}")
            })
    }

    /// Records cycle `cycle`, whose probe values are `values`, if it is in
    /// the window. The cycle's text is put together in one buffer and
    /// written at once, as the `vcd` crate would write it: its writer
    /// formats each timestamp and value change through `fmt`, which was
    /// most of the time of a recorded cycle.
    pub fn record(&mut self, cycle: u64, values: &Values) -> Result<()> {
        if !self.window.contains(&cycle) {
            return Ok(());
        }
        let edge = self.time(cycle)?;
        self.end = cycle + 1;
        let line = &mut self.line;
        line.clear();
        push_timestamp(line, edge);
        push_scalar(line, true, &self.clock_code);
        push_timestamp(line, edge + self.delay);
        match &mut self.last {
            Some(last) => {
                for i in values.changed(last) {
                    push_value(line, &self.codes[i], values.words(i), values.width(i));
                }
                last.copy_from(values);
            }
            none => {
                for (i, code) in self.codes.iter().enumerate() {
                    push_value(line, code, values.words(i), values.width(i));
                }
                *none = Some(values.clone());
            }
        }
        push_timestamp(line, edge + self.period / 2);
        push_scalar(line, false, &self.clock_code);
        self.writer.writer().write_all(line)?;
        Ok(())
    }

    /// Closes the last cycle with its ending edge and a `$dumpall`
    /// checkpoint of every value (so viewers can draw the last interval),
    /// flushes, and returns the writer.
    pub fn finish(mut self) -> Result<W> {
        self.writer.timestamp(self.time(self.end)?)?;
        self.writer.change_scalar(self.clock, Value::V1)?;
        self.writer.begin(SimulationCommand::Dumpall)?;
        if let Some(last) = &self.last {
            self.line.clear();
            for (i, code) in self.codes.iter().enumerate() {
                push_value(&mut self.line, code, last.words(i), last.width(i));
            }
            self.writer.writer().write_all(&self.line)?;
        }
        self.writer.end()?;
        self.writer.flush()?;
        Ok(self.writer.writer().0.take().expect("finished once"))
    }
}

/// A timestamp (`#120`), as the `vcd` crate writes it.
fn push_timestamp(line: &mut Vec<u8>, time: u64) {
    line.push(b'#');
    line.extend_from_slice(itoa::Buffer::new().format(time).as_bytes());
    line.push(b'\n');
}

/// A change of a one-bit signal (`1!`), as the `vcd` crate writes it.
fn push_scalar(line: &mut Vec<u8>, value: bool, code: &str) {
    line.push(if value { b'1' } else { b'0' });
    line.extend_from_slice(code.as_bytes());
    line.push(b'\n');
}

/// Bits of a value of `width` bits in `words` up to its highest one (0 for
/// zero), a word at a time.
fn significant_bits(words: &[u32], width: usize) -> usize {
    (0..width.div_ceil(32))
        .rev()
        .find_map(|w| {
            let word = words[w] & (u32::MAX >> (32 - (width - 32 * w).min(32)));
            (word != 0).then(|| 32 * w + 32 - word.leading_zeros() as usize)
        })
        .unwrap_or(0)
}

/// Each nibble's four bits, most significant first, as VCD writes them.
const NIBBLES: [[u8; 4]; 16] = {
    let mut nibbles = [[b'0'; 4]; 16];
    let mut n = 0;
    while n < 16 {
        let mut b = 0;
        while b < 4 {
            nibbles[n][b] = b'0' + (n >> (3 - b) & 1) as u8;
            b += 1;
        }
        n += 1;
    }
    nibbles
};

/// A value change of a signal of `width` bits whose value is `words` (see
/// [`Values`]): a scalar (`1!`) or a vector with its leading zeros dropped
/// (`b101 "`; VCD zero-extends).
fn push_value(line: &mut Vec<u8>, code: &str, words: &[u32], width: usize) {
    let bit = |i: usize| words[i / 32] >> (i % 32) & 1 == 1;
    if width == 1 {
        return push_scalar(line, bit(0), code);
    }
    let mut bits = significant_bits(words, width).max(1);
    line.push(b'b');
    // Bit by bit down to a whole nibble, then a nibble at a time (whole
    // nibbles never straddle two words).
    while !bits.is_multiple_of(4) {
        bits -= 1;
        line.push(b'0' + bit(bits) as u8);
    }
    while bits > 0 {
        bits -= 4;
        let nibble = words[bits / 32] >> (bits % 32) & 0xF;
        line.extend_from_slice(&NIBBLES[nibble as usize]);
    }
    line.push(b' ');
    line.extend_from_slice(code.as_bytes());
    line.push(b'\n');
}

/// A GTKWave save file, `save`, for the waveform of `core` in `dumpfile`:
/// the clock and reset, the two streams, then one group per block with its
/// state. Bits show as binary, vectors as hexadecimal.
pub fn gtkw<C: Core>(core: &C, dumpfile: &str, save: &str) -> Result<String> {
    let signals = probes(core)?;
    let top = core.name();
    let mut text = format!(
        "[*] GTKWave save file for utf8hdl's waveforms: gtkwave {dumpfile} {save}\n\
         [*] written by utf8hdl from the core's description (sim/src/core/)\n\
         [dumpfile] \"{dumpfile}\"\n[timestart] 0\n[size] 1600 800\n\
         [treeopen] {top}.\n[sst_width] 240\n[signals_width] 300\n\
         [sst_expanded] 1\n@28\n{top}.clk\n"
    );
    let group_of = |path: &str| match scope_and_name(path) {
        ("", name) if name.starts_with("s_axis_") => "s_axis (in)".to_string(),
        ("", name) if name.starts_with("m_axis_") => "m_axis (out)".to_string(),
        ("", _) => String::new(),
        (scope, _) => scope.to_string(),
    };
    let mut group = String::new();
    for (path, &width) in signals.paths.iter().zip(&signals.widths) {
        let this = group_of(path);
        if this != group {
            if !group.is_empty() {
                text += &format!("@1000200\n-{group}\n");
            }
            if !this.is_empty() {
                text += &format!("@800200\n-{this}\n");
            }
            group = this;
        }
        let (scope, name) = scope_and_name(path);
        let scoped = if scope.is_empty() {
            top.clone()
        } else {
            format!("{top}.{scope}")
        };
        text += &match width {
            1 => format!("@28\n{scoped}.{name}\n"),
            w => format!("@22\n{scoped}.{name}[{}:0]\n", w - 1),
        };
    }
    if !group.is_empty() {
        text += &format!("@1000200\n-{group}\n");
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cores::Kind;

    /// Every core's VCD reads back with the `vcd` crate, with each signal of
    /// its waveform in the core's scope or in one nested scope, by name.
    /// (A register of the top block once opened a scope with no name.)
    fn vcd_of_every_core_parses() -> Result<()> {
        for kind in Kind::ALL {
            for &profile in kind.profiles() {
                // Each kind's narrowest core.
                crate::with_any_core!(kind, kind.lane_counts()[0], profile, |core| {
                    let recorder =
                        VcdRecorder::new(Vec::new(), &core, 0..u64::MAX, 10, TimescaleUnit::NS)?;
                    let bytes = recorder.finish()?;
                    let header = vcd::Parser::new(&bytes[..]).parse_header()?;
                    let [vcd::ScopeItem::Scope(top)] = &header.items[..] else {
                        anyhow::bail!("{}: not one top scope", core.name());
                    };
                    assert_eq!(top.identifier, core.name());
                    let mut names = Vec::new();
                    for item in &top.items {
                        match item {
                            vcd::ScopeItem::Var(var) => names.push(var.reference.clone()),
                            vcd::ScopeItem::Scope(scope) => {
                                assert!(!scope.identifier.is_empty(), "{}", core.name());
                                for item in &scope.items {
                                    if let vcd::ScopeItem::Var(var) = item {
                                        names.push(format!(
                                            "{}.{}",
                                            scope.identifier, var.reference
                                        ));
                                    }
                                }
                            }
                            _ => {}
                        }
                    }
                    for path in state_of(&core) {
                        let path = path.strip_suffix(".q").unwrap_or(path);
                        let (scope, name) = scope_and_name(path);
                        let shown = match scope {
                            "" => name.to_string(),
                            scope => format!("{scope}.{name}"),
                        };
                        assert!(
                            names.contains(&shown),
                            "{}: {shown} in {names:?}",
                            core.name()
                        );
                    }
                });
            }
        }
        Ok(())
    }

    /// [`Core::STATE`] of `core`'s type.
    fn state_of<C: Core>(_core: &C) -> &'static [&'static str] {
        C::STATE
    }

    #[test]
    fn every_cores_vcd_reads_back() {
        vcd_of_every_core_parses().unwrap();
    }
}
