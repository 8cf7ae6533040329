//! The C++ shim of a Verilated model: one call per cycle (or per batch of
//! cycles) that drives the inputs, settles the clock-low half and copies
//! the probes when they are asked for, and raises the clock, written from
//! the core's ports and probes.

use anyhow::{bail, Result};
use utf8hdl_sim::core::{Dir, Port, Role, Signals};

/// 32-bit words a value of `width` bits travels in.
pub(super) fn words(width: usize) -> usize {
    width.div_ceil(32)
}

/// The flat Verilog name of a probe path (`decoder.bytes_left.q` is
/// `decoder$bytes_left$q`), and the member Verilator gives it in the model's
/// root once it is public.
fn flat_name(path: &str) -> String {
    path.replace('.', "$")
}

/// Whether the probe `path` is one of the module's `ports`; any other
/// probe, dotted or not (a top-level local), is an internal signal.
fn is_port(ports: &[Port], path: &str) -> bool {
    ports.iter().any(|p| p.name == path)
}

fn member(top: &str, ports: &[Port], path: &str) -> String {
    let flat = flat_name(path);
    if is_port(ports, path) {
        flat
    } else {
        format!("rootp->{top}__DOT__{}", flat.replace('$', "__024"))
    }
}

/// `verilog` with the declarations of the internal `probes` (those that
/// are not `ports`) marked public, so that Verilator keeps them readable.
pub(super) fn with_public_probes(
    verilog: &str,
    ports: &[Port],
    probes: &[String],
) -> Result<String> {
    let mut text = String::with_capacity(verilog.len() + 64 * probes.len());
    let wanted: Vec<String> = probes
        .iter()
        .filter(|p| !is_port(ports, p))
        .map(|p| flat_name(p))
        .collect();
    let mut found = vec![false; wanted.len()];
    for line in verilog.lines() {
        let trimmed = line.trim();
        let declaration = trimmed.starts_with("reg ") || trimmed.starts_with("wire ");
        let name = trimmed
            .strip_suffix(';')
            .and_then(|d| d.rsplit([' ', ']']).next());
        match name.and_then(|n| wanted.iter().position(|w| w == n)) {
            Some(i) if declaration => {
                found[i] = true;
                text += line.strip_suffix(';').unwrap();
                text += " /*verilator public_flat_rd*/;\n";
            }
            _ => {
                text += line;
                text += "\n";
            }
        }
    }
    if let Some(i) = found.iter().position(|f| !f) {
        bail!("the exported Verilog declares no '{}'", wanted[i]);
    }
    Ok(text)
}

/// The C++ shim for the module `top` with `ports` and the waveform
/// `probes` (paths, widths).
pub fn shim(top: &str, ports: &[Port], probes: &Signals) -> String {
    let mut copy_out = String::new();
    let mut out_words = 0;
    for p in ports.iter().filter(|p| p.dir == Dir::Out) {
        copy_out += &read_words("out", out_words, &p.name, p.width);
        out_words += words(p.width);
    }
    // From the input words, the inputs but the clock and the data ports of
    // `s_axis` (`drive_control`), and those data ports (`drive_beat`).
    let (mut drive_control, mut drive_beat) = (String::new(), String::new());
    let mut in_words = 0;
    for p in ports
        .iter()
        .filter(|p| p.dir == Dir::In && p.role != Role::Clock)
    {
        match p.role == Role::Input && p.name != "s_axis_tvalid" {
            true => drive_beat += &write_words("beat", in_words, &p.name, p.width),
            false => drive_control += &write_words("in", in_words, &p.name, p.width),
        }
        in_words += words(p.width);
    }
    let probe_words: usize = probes.widths.iter().map(|&w| words(w)).sum();
    let mut copy_probes = String::new();
    let mut offset = 0;
    for (path, &width) in probes.paths.iter().zip(&probes.widths) {
        copy_probes += &read_words("probes", offset, &member(top, ports, path), width);
        offset += words(width);
    }
    format!(
        r#"// The utf8hdl Verilator shim for {top}: written by utf8hdl-synth from the
// core's ports and probes (see synth/src/verilator/); do not edit.
#include <cstdint>
#include "Vmodel.h"
#include "Vmodel___024root.h"
#include "verilated.h"

struct Model {{
    VerilatedContext context;
    Vmodel top{{&context}};
}};

// The clock's falling edge. The design reads the clock at its rising edges
// alone, and every `eval` first settles the logic from the inputs (its
// `ico` region) before it looks for a clock edge; so the falling edge
// needs no evaluation of its own, only the trigger's memory of the clock
// lowered with it, which Verilator 5 keeps in `__Vtrigrprev__TOP__clk`.
// A Verilator that keeps it elsewhere gets the second `eval` instead.
template <class Root>
auto lower_clock(Vmodel& t, Root* root, int) -> decltype(root->__Vtrigrprev__TOP__clk = 0, void()) {{
    t.clk = 0;
    root->__Vtrigrprev__TOP__clk = 0;
}}

template <class Root>
void lower_clock(Vmodel& t, Root*, long) {{
    t.clk = 0;
    t.eval();
}}

extern "C" {{

void* model_new() {{
    Model* model = new Model;
    model->top.clk = 0;
    model->top.eval();
    return model;
}}

void model_free(void* model) {{
    delete static_cast<Model*>(model);
}}

void model_outputs(void* model, uint32_t* out) {{
    Vmodel& t = static_cast<Model*>(model)->top;
{copy_out}}}

void model_step(void* model, const uint32_t* in, uint32_t* out, uint32_t* probes) {{
    Vmodel& t = static_cast<Model*>(model)->top;
{copy_out}{drive_control}    // The data lines hold their last value while no beat is offered.
    if (t.s_axis_tvalid) {{
        const uint32_t* beat = in;
{drive_beat}    }}
    if (probes) {{
        t.clk = 0;
        t.eval();
{copy_probes}    }} else {{
        lower_clock(t, t.rootp, 0);
    }}
    t.clk = 1;
    t.eval();
}}

// A batch of `cycles` cycles (utf8hdl_sim::harness::Batch): `flags` per
// cycle (1: the source may offer a beat, 2: m_axis_tready), `count` beats
// of {in_words} input words each, the first already offered when
// `holding`. Writes {out_words} output words and, when asked, {probe_words}
// probe words a cycle; returns the cycles run, which end early after the
// cycle that accepts the last beat.
uint64_t model_run(void* model, uint64_t cycles, const uint8_t* flags,
                   const uint32_t* beats, uint64_t count, uint32_t holding,
                   uint32_t* out, uint32_t* probes) {{
    Vmodel& t = static_cast<Model*>(model)->top;
    uint64_t next = 0;
    holding = holding && count > 0;
    for (uint64_t c = 0; c < cycles; ++c, out += {out_words}) {{
{copy_out}        const bool accepting = t.s_axis_tready;
        holding = holding || ((flags[c] & 1) && next < count);
        t.rst = 0;
        t.s_axis_tvalid = holding;
        if (holding) {{
            const uint32_t* beat = beats + next * {in_words};
{drive_beat}        }}
        t.m_axis_tready = (flags[c] >> 1) & 1;
        if (probes) {{
            t.clk = 0;
            t.eval();
{copy_probes}            probes += {probe_words};
        }} else {{
            lower_clock(t, t.rootp, 0);
        }}
        t.clk = 1;
        t.eval();
        if (holding && accepting) {{
            holding = 0;
            if (++next == count) return c + 1;
        }}
    }}
    return cycles;
}}

}}
"#
    )
}

/// C++ that copies `source` (`width` bits) into `array` from `offset`.
fn read_words(array: &str, offset: usize, source: &str, width: usize) -> String {
    match width {
        0..=32 => format!("    {array}[{offset}] = t.{source};\n"),
        33..=64 => format!(
            "    {array}[{offset}] = uint32_t(t.{source});\n    {array}[{}] = uint32_t(t.{source} >> 32);\n",
            offset + 1
        ),
        _ => (0..words(width))
            .map(|i| format!("    {array}[{}] = t.{source}[{i}];\n", offset + i))
            .collect(),
    }
}

/// C++ that drives `target` (`width` bits) from `array` at `offset`.
fn write_words(array: &str, offset: usize, target: &str, width: usize) -> String {
    match width {
        0..=32 => format!("    t.{target} = {array}[{offset}];\n"),
        33..=64 => format!(
            "    t.{target} = uint64_t({array}[{offset}]) | uint64_t({array}[{}]) << 32;\n",
            offset + 1
        ),
        _ => (0..words(width))
            .map(|i| format!("    t.{target}[{i}] = {array}[{}];\n", offset + i))
            .collect(),
    }
}
