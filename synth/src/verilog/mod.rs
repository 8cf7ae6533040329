//! Verilog export: one self-contained Verilog-2005 file per core.
//!
//! The design keeps rust-hdl's own Verilog (`generate_verilog`) free of
//! SystemVerilog keywords and of width-mismatched expressions but widening
//! casts ([`zero_extensions`], at any width). rust-hdl writes the `!` of a
//! `Bit` as `~`, which Verilog widens before inverting where the
//! expression around it is wider: [`bit_nots`] makes it `!`, so the Verilog
//! computes what rust-hdl simulates. What is left is small:
//!
//! 1. **One module**, named by [`Core::name`] (so both profiles and every
//!    lane count fit in one design):
//!    Verilator's DECLFILENAME (in `-Wall`) fires for any module not named
//!    as its file, so [`flatten`] inlines the hierarchy, keeping it in the
//!    signal names (`decoder$gathered$q`). [`verilog_hierarchical`] keeps
//!    the modules instead, named `<top>__<path>`.
//! 2. **Literals** ([`literals`]) take the width of where they stand.
//! 3. **Unread parameters** go ([`drop_unused_params`]): rust-hdl declares
//!    every value of an enum in every module that carries the enum.
//!
//! The registers' `initial` blocks stay: they give every flop the power-up
//! value 0 of rust-hdl's simulator, which yosys turns into init attributes.
//! The tests check the result rather than trust these arguments: Verilator
//! `-Wall` with no warning disabled, yosys's proof of equivalence with
//! rust-hdl's own Verilog, and Icarus and Verilator running it cycle for
//! cycle against the rust-hdl simulation. Anything else a design makes
//! rust-hdl write that the linter rejects fails them: nothing here hides it.

pub mod flatten;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::{anyhow, Context, Result};
use rust_hdl::prelude::*;
use utf8hdl_hdl::Profile;
use utf8hdl_sim::core::{ports, Core, Lane, Model, Rate};
use utf8hdl_sim::decoder::Decoder;
use utf8hdl_sim::family::Kind;

/// The name of the top module of the 1-lane decoder of `profile`; the file
/// is `<name>.v`.
pub fn top_name(profile: Profile) -> String {
    Decoder(profile).name()
}

/// Where the repository keeps the Verilog of every core, from its root.
pub const RTL_DIR: &str = "synth/rtl";

/// The command that writes every core's Verilog into [`RTL_DIR`].
pub const REGENERATE: &str = "cargo run --release -- verilog --all --dir synth/rtl";

/// Every core the project exports: each kind, each profile and lane count
/// it comes in.
pub fn all_cores() -> impl Iterator<Item = (Kind, Profile, usize)> {
    Kind::ALL.into_iter().flat_map(|kind| {
        kind.profiles().iter().flat_map(move |&profile| {
            (kind.lane_counts().iter()).map(move |&lanes| (kind, profile, lanes))
        })
    })
}

/// The `utf8hdl` command that writes the core of `kind`, `profile` and
/// `lanes`.
pub fn command(kind: &str, profile: Profile, lanes: usize) -> String {
    format!("utf8hdl verilog --core {kind} --profile {profile} --lanes {lanes}")
}

/// [`core_verilog`] of the core of `kind`, `profile` and `lanes`, and its
/// file name.
pub fn verilog_file(kind: Kind, profile: Profile, lanes: usize) -> Result<(String, String)> {
    utf8hdl_sim::with_any_core!(kind, lanes, profile, |core| Ok((
        format!("{}.v", core.name()),
        core_verilog(&core)?
    )))
}

/// The block of `core`, connected.
fn connected<C: Core>(core: &C) -> C::Block {
    let mut uut = core.block();
    uut.connect_all();
    uut
}

/// rust-hdl's own Verilog for the 1-lane decoder of `profile`.
pub fn raw_verilog(profile: Profile) -> Result<String> {
    raw_of(&connected(&Decoder(profile)))
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
    let rename =
        |w: &str| Some(w.replacen("top", top, 1).replace('$', "__")).filter(|_| names.contains(w));
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

/// `core` as one self-contained, lint-clean Verilog-2005 file holding one
/// module, named [`Core::name`].
pub fn core_verilog<C: Core>(core: &C) -> Result<String> {
    let shape = "one module; the rust-hdl hierarchy is kept in signal names (skid_buffer$ready$q)";
    let body = export(&connected(core), &core.name())?;
    Ok(format!("{}\n{body}", header(core, shape)?))
}

/// The 1-lane decoder of `profile` as [`core_verilog`] writes it: one
/// module, [`top_name`]`(profile)`.
pub fn try_verilog(profile: Profile) -> Result<String> {
    core_verilog(&Decoder(profile))
}

/// The design with rust-hdl's hierarchy kept: the top module [`top_name`]
/// and one module per block and register, each named `<top>__<path>`, so
/// both profiles can be instantiated in one design. Being several modules in
/// one file, it draws Verilator's DECLFILENAME (and only that) under `-Wall`.
pub fn verilog_hierarchical(profile: Profile) -> Result<String> {
    let core = Decoder(profile);
    let top = core.name();
    let shape =
        format!("every submodule is named {top}__<path>, so both profiles can share a design");
    let body = export_hierarchical(&connected(&core), &top)?;
    Ok(format!("{}\n\n{body}", header(&core, &shape)?))
}

/// The comment a Verilog file of `core` starts with: what it is, and its
/// ports.
fn header<C: Core>(core: &C, shape: &str) -> Result<String> {
    let (top, profile, lanes) = (core.name(), core.profile(), core.lanes()?);
    let rate = match (C::RATE, lanes.count) {
        (Rate::Input, 1) => format!("one {} per clock", <C::Input as Lane>::NAME),
        (Rate::Input, n) => format!("{n} {}s per clock", <C::Input as Lane>::NAME),
        (Rate::Output, 1) => format!("one {} per clock", <C::Output as Lane>::NAME),
        (Rate::Output, n) => format!("{n} {}s per clock", <C::Output as Lane>::NAME),
    };
    let mut out = format!(
        "// {top}: utf8hdl {title}, profile {profile}, {rate}.\n\
         // Generated by utf8hdl-synth from the rust-hdl design; do not edit.\n\
         // Written by: {command}\n\
         // Every core into {RTL_DIR}/: {REGENERATE}\n\
         // Verilog-2005 (also valid SystemVerilog). Save as {top}.v.\n\
         // Shape: {shape}.\n//\n\
         // utf8hdl-latency: {latency}\n\
         // (cycles from a beat's acceptance to its first beat on m_axis, m_axis_tready high)\n//\n\
         // Ports (AXI4-Stream in and out; rst is synchronous, active high):\n",
        title = <C::Model as Model>::TITLE,
        command = command(<C::Model as Model>::KIND, profile, lanes.count),
        latency = C::LATENCY,
    );
    let ports = ports(&core.block())?;
    let ranges = ports.iter().map(|p| p.range().len()).max().unwrap_or(0);
    for port in ports {
        let (dir, range) = (port.dir.verilog(), port.range());
        out += &format!("//   {dir:<6} {range:<ranges$}{}\n", port.name);
    }
    let notes: Vec<String> = <C::Model as Model>::port_notes(lanes.count)
        .lines()
        .map(|l| format!("// {l}"))
        .collect();
    Ok(out + &notes.join("\n"))
}

/// [`try_verilog`], for callers that treat a failure as a bug.
pub fn verilog(profile: Profile) -> String {
    try_verilog(profile).unwrap_or_else(|e| panic!("Verilog export for {profile} failed: {e:#}"))
}

/// Writes [`core_verilog`]`(core)` to `<dir>/<name>.v` (the name
/// Verilator's DECLFILENAME expects) and returns the path.
pub fn write_core_verilog<C: Core>(core: &C, dir: &Path) -> Result<PathBuf> {
    let path = dir.join(format!("{}.v", core.name()));
    std::fs::write(&path, core_verilog(core)?)
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(path)
}

/// [`write_core_verilog`] for the 1-lane decoder of `profile`.
pub fn write_verilog(profile: Profile, dir: &Path) -> Result<PathBuf> {
    write_core_verilog(&Decoder(profile), dir)
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
    let (mut open, mut widths) = (false, BTreeMap::new());
    for line in raw.lines() {
        let line = line.split("//").next().unwrap_or_default().trim_end();
        if let Some(rest) = line.trim().strip_prefix("module ") {
            let name = rest.split('(').next().unwrap_or_default().to_string();
            out.push(Module {
                name,
                lines: Vec::new(),
            });
            (open, widths) = (true, BTreeMap::new());
        }
        if let Some((_, name)) = declaration(line).filter(|(k, _)| *k != "localparam") {
            let msb = line
                .split_once('[')
                .and_then(|(_, r)| r.split(':').next()?.parse().ok());
            widths.insert(name.to_string(), msb.map_or(1, |msb: usize| msb + 1));
        }
        if !line.trim().is_empty() {
            let module = (out.last_mut().filter(|_| open))
                .ok_or_else(|| anyhow!("text outside any module: `{line}`"))?;
            let line = zero_extensions(&literals(line), &widths);
            module.lines.push(bit_nots(&line, &widths));
        }
        open &= !line.starts_with("endmodule");
    }
    Ok(out)
}

/// rust-hdl writes `bit_cast::<M, N>(x)` as `((x) & M'hff..f)`, with `N < M`
/// an AND of an N-bit and an M-bit value (a WIDTH warning); it becomes
/// `{{M-N{1'b0}}, x}`, the same value at any width. The decoder widens its
/// free bits so because rust-hdl has no width-exact widening that simulates
/// as fast: bit by bit (data-dependent branches) ran 19% slower, and a
/// `LogicStruct` converts through BigUint shifts.
pub fn zero_extensions(line: &str, widths: &BTreeMap<String, usize>) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find("((") {
        let cast = rest[at + 2..].split_once(") & ").and_then(|(name, mask)| {
            let (width, mask) = mask.split_once("'h")?;
            let (digits, after) = mask.split_once(')')?;
            let (m, n) = (ones(digits)?, *widths.get(name)?);
            let exact = width.is_empty() || width == m.to_string();
            (exact && n < m).then(|| (format!("{{{{{}{{1'b0}}}}, {name}}}", m - n), after))
        });
        let (text, next) = cast.unwrap_or_else(|| (rest[at..at + 1].to_string(), &rest[at + 1..]));
        out += &rest[..at];
        out += &text;
        rest = next;
    }
    out + rest
}

/// rust-hdl writes the `!` of a `Bit` as `~x`, and Verilog widens `x` to
/// the width of the expression around it before inverting: `zero + ~keep`
/// with an 8-bit `zero` adds 0xFF or 0xFE, where rust-hdl adds 1 or 0. So
/// `~` of a one-bit name (or of one bit of a vector, `x[3]`) becomes `!`,
/// which is one bit wherever it stands; a 1-bit context is unchanged.
pub fn bit_nots(line: &str, widths: &BTreeMap<String, usize>) -> String {
    let continues = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find('~') {
        out += &rest[..at];
        let operand = &rest[at + 1..];
        let name = &operand[..operand.find(|c| !continues(c)).unwrap_or(operand.len())];
        let after = &operand[name.len()..];
        let one_bit = match after.strip_prefix('[') {
            Some(select) => select.split(']').next().is_some_and(|i| !i.contains(':')),
            None => widths.get(name) == Some(&1),
        };
        out.push(if one_bit && !name.is_empty() {
            '!'
        } else {
            '~'
        });
        rest = operand;
    }
    out + rest
}

/// How many low bits the hexadecimal mask `digits` sets, if it is all ones
/// (at any width: a wide core's masks pass 128 bits).
fn ones(digits: &str) -> Option<usize> {
    let digits = digits.trim_start_matches('0');
    let (first, rest) = digits.split_at_checked(1)?;
    let top = match first {
        "1" => 1,
        "3" => 2,
        "7" => 3,
        "f" | "F" => 4,
        _ => return None,
    };
    rest.chars()
        .all(|c| c == 'f' || c == 'F')
        .then_some(top + 4 * rest.len())
}

/// rust-hdl sizes a literal by its Rust type (`bytes_left$d = 32'h2` for a
/// 3-bit register: a WIDTH warning); only a named `Constant` per value would
/// avoid it. `32'hV` (an untyped literal) becomes `'hV`: unsigned (IEEE
/// 1364-2005 §3.5.1) and 32 bits wide in Verilator, Icarus and yosys, as
/// before. `64'hV` (a `usize`: an enum register's initial value) does so
/// only alone on the right of `=`, where only its value counts.
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
        let alone = before.ends_with("= ") && after.starts_with(';');
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
        let renamed = (ident && !out.ends_with('\'')).then(|| rename(word));
        out += renamed.flatten().as_deref().unwrap_or(word);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `~` of one bit is `!`, so that no wider expression around it widens
    /// it first; `~` of a vector or of a part select stays.
    #[test]
    fn the_not_of_one_bit_stays_one_bit() {
        let widths = BTreeMap::from([
            ("k".to_string(), 1),
            ("v$q".to_string(), 8),
            ("zero".to_string(), 8),
        ]);
        assert_eq!(bit_nots("a = zero + ~k;", &widths), "a = zero + !k;");
        assert_eq!(bit_nots("a = b & ~v$q[3];", &widths), "a = b & !v$q[3];");
        for kept in ["a = ~v$q;", "a = ~v$q[3:0];", "a = ~(k);", "a = ~unknown;"] {
            assert_eq!(bit_nots(kept, &widths), kept);
        }
    }

    /// A widening `bit_cast` becomes a zero extension at any width (the
    /// 512-bit one of a 16-lane core's words too); an AND with a mask that
    /// is not all ones, or whose width is not the one written, stays.
    #[test]
    fn widening_casts_become_zero_extensions_at_any_width() {
        let widths = BTreeMap::from([("x".to_string(), 128), ("y".to_string(), 3)]);
        let wide = format!("a = ((x) & 512'h{});", "f".repeat(128));
        assert_eq!(zero_extensions(&wide, &widths), "a = {{384{1'b0}}, x};");
        assert_eq!(
            zero_extensions("a = ((y) & 8'hff);", &widths),
            "a = {{5{1'b0}}, y};"
        );
        assert_eq!(
            zero_extensions("a = ((y) & 'h7f);", &widths),
            "a = {{4{1'b0}}, y};"
        );
        for kept in [
            "a = ((y) & 8'hfe);",
            "a = ((y) & 9'hff);",
            "a = ((y) & 2'h3);",
        ] {
            assert_eq!(zero_extensions(kept, &widths), kept);
        }
    }
}
