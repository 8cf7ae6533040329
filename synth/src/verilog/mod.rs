//! Verilog export: one self-contained Verilog-2005 file per profile.
//!
//! The design keeps rust-hdl's own Verilog (`generate_verilog`) width-exact
//! (no `bit_cast`: the one zero-extension is written bit by bit) and free
//! of SystemVerilog keywords. What is left is small:
//!
//! 1. **One module**, named [`top_name`] (so both profiles fit in one
//!    design), since Verilator's DECLFILENAME (part of `-Wall`) fires for
//!    any module whose name is not its file's: [`flatten`] inlines the
//!    hierarchy, keeping it in the signal names (`decoder$gathered$q`).
//!    [`verilog_hierarchical`] keeps the modules, named `<top>__<path>`.
//! 2. **Literals** ([`literals`]): rust-hdl sizes a literal by its Rust
//!    type, not by where it stands (`bytes_left$d = 32'h2` for a 3-bit
//!    register), which Verilator's WIDTH check rejects; the design could
//!    only avoid it with a named `Constant` per value.
//! 3. **Unread parameters** ([`drop_unused_params`]): rust-hdl declares
//!    every value of an enum in every module that carries the enum.
//!
//! The registers' `initial` blocks stay: they give every flop the power-up
//! value 0 of rust-hdl's simulator, which yosys turns into init attributes.
//!
//! The tests check the result rather than trust these arguments: it lints
//! clean (`verilator --lint-only -Wall`, no warning disabled), yosys proves
//! it equivalent to rust-hdl's own Verilog, and Icarus and Verilator run it
//! cycle for cycle against the rust-hdl simulation. A design that makes
//! rust-hdl write anything else the linter rejects fails those tests: this
//! module does not hide it.

pub mod flatten;

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, Context, Result};
use rust_hdl::prelude::*;
use utf8hdl_hdl::{Profile, Utf8Decoder};

/// The name of the top module for `profile`; the file is `<name>.v`.
pub fn top_name(profile: Profile) -> &'static str {
    match profile {
        Profile::Rfc3629 => "utf8_decoder",
        Profile::Iso10646 => "utf8_decoder_iso10646",
    }
}

/// The ports of the top module, in order, with their direction and width.
pub const PORTS: [(&str, &str, usize); 11] = [
    ("clk", "input", 1),
    ("rst", "input", 1),
    ("s_axis_tdata", "input", 8),
    ("s_axis_tvalid", "input", 1),
    ("s_axis_tready", "output", 1),
    ("s_axis_tlast", "input", 1),
    ("m_axis_tdata", "output", 32),
    ("m_axis_tuser", "output", 4),
    ("m_axis_tvalid", "output", 1),
    ("m_axis_tready", "input", 1),
    ("m_axis_tlast", "output", 1),
];

fn decoder(profile: Profile) -> Utf8Decoder {
    let mut uut = Utf8Decoder::new(profile);
    uut.connect_all();
    uut
}

/// rust-hdl's own Verilog for the design.
pub fn raw_verilog(profile: Profile) -> Result<String> {
    raw_of(&decoder(profile))
}

fn raw_of<U: Block>(uut: &U) -> Result<String> {
    check_all(uut).map_err(|e| anyhow!("the design fails rust-hdl's checks: {e:?}"))?;
    Ok(generate_verilog(uut))
}

/// Any rust-hdl block (already `connect_all`ed) as one module named `top`.
/// [`try_verilog`] is this for the decoder, with a header comment.
pub fn export<U: Block>(uut: &U, top: &str) -> Result<String> {
    Ok(flatten::flatten(&modules(&raw_of(uut)?)?, top)? + "\n")
}

/// [`export`] keeping the hierarchy (see [`verilog_hierarchical`]).
pub fn export_hierarchical<U: Block>(uut: &U, top: &str) -> Result<String> {
    let mods = modules(&raw_of(uut)?)?;
    let names: BTreeSet<String> = mods.iter().map(|m| m.name.clone()).collect();
    let rename = |w: &str| {
        names
            .contains(w)
            .then(|| w.replacen("top", top, 1).replace('$', "__"))
    };
    let mut out = String::new();
    for mut m in mods {
        drop_unused_params(&mut m.lines);
        for line in &m.lines {
            out += &(map_idents(line, rename) + "\n");
        }
        out.push('\n');
    }
    Ok(out)
}

/// The design as one self-contained, lint-clean Verilog-2005 file holding
/// one module, [`top_name`]`(profile)`.
pub fn try_verilog(profile: Profile) -> Result<String> {
    let shape = "one module; the rust-hdl hierarchy is kept in signal names (decoder$gathered$q)";
    let body = export(&decoder(profile), top_name(profile))?;
    Ok(format!("{}\n{body}", header(profile, shape)))
}

/// The design with rust-hdl's hierarchy kept: the top module [`top_name`]
/// and one module per block and register, each named `<top>__<path>`, so
/// both profiles can be instantiated in one design. Being several modules in
/// one file, it draws Verilator's DECLFILENAME (and only that) under `-Wall`.
pub fn verilog_hierarchical(profile: Profile) -> Result<String> {
    let top = top_name(profile);
    let shape =
        format!("every submodule is named {top}__<path>, so both profiles can share a design");
    let body = export_hierarchical(&decoder(profile), top)?;
    Ok(format!("{}\n\n{body}", header(profile, &shape)))
}

fn header(profile: Profile, shape: &str) -> String {
    let top = top_name(profile);
    let mut out = format!(
        "// {top}: utf8hdl UTF-8 -> UCS-4 decoder, profile {profile}.\n\
         // Generated by utf8hdl-synth from the rust-hdl design; do not edit.\n\
         // Verilog-2005 (also valid SystemVerilog). Save as {top}.v.\n\
         // Shape: {shape}.\n//\n\
         // Ports (AXI4-Stream in and out; rst is synchronous, active high):\n"
    );
    for (name, dir, width) in PORTS {
        let range = (width > 1).then(|| format!("[{}:0]", width - 1));
        let _ = writeln!(out, "//   {dir:<6} {:<6} {name}", range.unwrap_or_default());
    }
    out + "// m_axis_tuser: bit 0 = error, bits 3:1 = error kind code."
}

/// [`try_verilog`], for callers that treat a failure as a bug.
pub fn verilog(profile: Profile) -> String {
    try_verilog(profile).unwrap_or_else(|e| panic!("Verilog export for {profile} failed: {e:#}"))
}

/// Writes [`verilog`]`(profile)` to `<dir>/<top>.v` (the name Verilator's
/// DECLFILENAME expects) and returns the path.
pub fn write_verilog(profile: Profile, dir: &Path) -> Result<PathBuf> {
    let path = dir.join(format!("{}.v", top_name(profile)));
    std::fs::write(&path, try_verilog(profile)?)
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(path)
}

/// One module of rust-hdl's output: its name and its lines, from `module`
/// to `endmodule`, without comments and with [`literals`] applied.
pub struct Module {
    pub name: String,
    pub lines: Vec<String>,
}

/// Splits rust-hdl's output into its modules. Comments go: the one after
/// `endmodule` would keep rust-hdl's module name.
pub fn modules(raw: &str) -> Result<Vec<Module>> {
    let mut out: Vec<Module> = Vec::new();
    let mut open = false;
    let lines = raw
        .lines()
        .map(|l| l.split("//").next().unwrap_or_default());
    for line in lines.filter(|l| !l.trim().is_empty()) {
        if let Some(rest) = line.trim().strip_prefix("module ") {
            let name = rest.split('(').next().unwrap_or_default().to_string();
            out.push(Module {
                name,
                lines: Vec::new(),
            });
            open = true;
        }
        let module = (out.last_mut().filter(|_| open))
            .ok_or_else(|| anyhow!("text outside any module: `{line}`"))?;
        module.lines.push(literals(line.trim_end()));
        open = !line.starts_with("endmodule");
    }
    Ok(out)
}

/// Rewrites rust-hdl's integer literals that are sized by their Rust type
/// into unsized ones (`'h2`), which Verilator sizes by their context:
///
/// * `32'hV` (an untyped Rust literal, `i32`) anywhere: an unsized based
///   literal is unsigned (IEEE 1364-2005 §3.5.1) and, in Verilator, Icarus
///   and yosys, 32 bits wide (the standard says at least 32): `32'hV`.
/// * `64'hV` (a `usize`: an enum register's initial value, a struct field's
///   offset) where only its value counts: alone on the right of `=`, or as
///   the base of a part-select. Elsewhere its width could widen an
///   expression, so it is left for the linter to report.
pub fn literals(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(quote) = rest.find("'h") {
        let width_at = rest[..quote]
            .trim_end_matches(|c: char| c.is_ascii_digit())
            .len();
        let end = (rest[quote + 2..].find(|c: char| !c.is_ascii_hexdigit()))
            .map_or(rest.len(), |digits| quote + 2 + digits);
        let (before, width, after) = (&rest[..width_at], &rest[width_at..quote], &rest[end..]);
        let alone = (before.ends_with("= ") && after.starts_with(';'))
            || (before.ends_with("[(") && after.starts_with(")+:"));
        let keep = width != "32" && !(width == "64" && alone && end - quote <= 10);
        out += before;
        out += if keep { width } else { "" };
        out += &rest[quote..end];
        rest = after;
    }
    out + rest
}

/// Applies `rename` to each identifier of `line` (a line of a [`Module`],
/// so without comments). Based literals (`8'hff`) and system names
/// (`$signed`) are not identifiers.
pub fn map_idents(line: &str, mut rename: impl FnMut(&str) -> Option<String>) -> String {
    let continues = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(start) = rest.find(continues) {
        let len = rest[start..]
            .find(|c| !continues(c))
            .unwrap_or(rest.len() - start);
        let word = &rest[start..start + len];
        out += &rest[..start];
        let ident = word.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
        let renamed = if ident && !out.ends_with('\'') {
            rename(word)
        } else {
            None
        };
        out += renamed.as_deref().unwrap_or(word);
        rest = &rest[start + len..];
    }
    out + rest
}

/// A declaration line: its keyword (`input`, `output`, `inout`, `reg`,
/// `wire` or `localparam`) and the name it declares.
pub fn declaration(line: &str) -> Option<(&str, &str)> {
    let t = line.trim().strip_suffix(';')?;
    let keyword = t.split_whitespace().next()?;
    let name = match keyword {
        "localparam" => t.split('=').next()?.split_whitespace().last()?,
        "input" | "output" | "inout" | "reg" | "wire" => t.split_whitespace().last()?,
        _ => return None,
    };
    Some((keyword, name))
}

/// Drops every `localparam` that no other line of `lines` reads.
pub fn drop_unused_params(lines: &mut Vec<String>) {
    let read: BTreeSet<String> = (lines.iter())
        .filter(|line| !matches!(declaration(line), Some(("localparam", _))))
        .flat_map(|line| line.split(|c: char| !(c.is_ascii_alphanumeric() || "_$".contains(c))))
        .map(str::to_string)
        .collect();
    lines.retain(|line| match declaration(line) {
        Some(("localparam", name)) => read.contains(name),
        _ => true,
    });
}
