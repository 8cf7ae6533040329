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
pub mod postpass;

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use anyhow::{anyhow, Context, Result};
use rust_hdl::prelude::*;
use utf8hdl_hdl::Profile;
use utf8hdl_sim::core::{ports, Core, Lane, Lanes, Rate};
use utf8hdl_sim::cores::utf8_decoder::Decoder;
use utf8hdl_sim::cores::Kind;

pub use postpass::*;

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
        kind.variants()
            .map(move |(profile, lanes)| (kind, profile, lanes))
    })
}

/// The `utf8hdl` command that writes the core of `kind`, `profile` and
/// `lanes`.
pub fn command(kind: &str, profile: Profile, lanes: usize) -> String {
    format!("utf8hdl verilog --core {kind} --profile {profile} --lanes {lanes}")
}

/// [`core_verilog`] of the core of `kind`, `profile` and `lanes`, and its
/// file name.
///
/// Exported once a process: an export is a function of the design alone,
/// and rust-hdl's code generator spends seconds on a wide core (it
/// compiles a regular expression per signal it writes), while the
/// datasheet's check, the committed files' check and `verilog --all` each
/// want every core.
pub fn verilog_file(kind: Kind, profile: Profile, lanes: usize) -> Result<(String, String)> {
    type Exports = HashMap<(Kind, Profile, usize), (String, String)>;
    static EXPORTED: OnceLock<Mutex<Exports>> = OnceLock::new();
    let exported = EXPORTED.get_or_init(Mutex::default);
    let lock = || {
        exported
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    };
    if let Some(file) = lock().get(&(kind, profile, lanes)) {
        return Ok(file.clone());
    }
    // Exported outside the lock, so that threads export different cores
    // at once.
    let file = utf8hdl_sim::with_any_core!(kind, lanes, profile, |core| (
        format!("{}.v", core.name()),
        core_verilog(&core)?
    ));
    lock().insert((kind, profile, lanes), file.clone());
    Ok(file)
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

/// What `core` is, in one line: `utf8hdl UTF-8 -> UCS-4 decoder, profile
/// rfc3629, 8 bytes per clock`.
pub fn summary<C: Core>(core: &C, lanes: usize) -> String {
    let rate = match (C::RATE, lanes) {
        (Rate::Input, 1) => format!("one {} per clock", <C::Input as Lane>::NAME),
        (Rate::Input, n) => format!("{n} {}s per clock", <C::Input as Lane>::NAME),
        (Rate::Output, 1) => format!("one {} per clock", <C::Output as Lane>::NAME),
        (Rate::Output, n) => format!("{n} {}s per clock", <C::Output as Lane>::NAME),
    };
    let title = C::KIND.description().title;
    format!("utf8hdl {title}, profile {}, {rate}", core.profile())
}

/// The comment a Verilog file of `core` starts with: what it is, and its
/// ports.
fn header<C: Core>(core: &C, shape: &str) -> Result<String> {
    let ports = ports(&core.block())?;
    let lanes = Lanes::of::<C::Input, C::Output>(&ports)?;
    let (top, profile) = (core.name(), core.profile());
    let mut out = format!(
        "// {top}: {summary}.\n\
         // Generated by utf8hdl-synth from the rust-hdl design; do not edit.\n\
         // Written by: {command}\n\
         // Every core into {RTL_DIR}/: {REGENERATE}\n\
         // Verilog-2005 (also valid SystemVerilog). Save as {top}.v.\n\
         // Shape: {shape}.\n//\n\
         // utf8hdl-latency: {latency}\n\
         // (cycles from a beat's acceptance to its first beat on m_axis, m_axis_tready high)\n//\n\
         // Ports (AXI4-Stream in and out; rst is synchronous, active high):\n",
        summary = summary(core, lanes.count),
        command = command(C::KIND.name(), profile, lanes.count),
        latency = C::LATENCY,
    );
    let ranges = ports.iter().map(|p| p.range().len()).max().unwrap_or(0);
    for port in ports {
        let (dir, range) = (port.dir.verilog(), port.range());
        out += &format!("//   {dir:<6} {range:<ranges$}{}\n", port.name);
    }
    let notes: Vec<String> = (C::KIND.description().port_notes)(lanes.count)
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
