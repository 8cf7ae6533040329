//! Verilog export: one self-contained Verilog-2005 file per profile.
//!
//! `rust_hdl::generate_verilog` names the top module `top` and each
//! submodule by its path (`top$decoder$bound`), writes integer literals as
//! 32 bits and enum values as unsized parameters, and may use SystemVerilog
//! keywords as names (the decoder's `class` port). [`clean`] rewrites that
//! text so that it lints clean (`verilator --lint-only -Wall`, no warning
//! disabled) without changing what it means, and [`flatten`] then inlines
//! the hierarchy:
//!
//! 1. **Names.** The top module is [`top_name`]: `utf8_decoder` for
//!    rfc3629, `utf8_decoder_iso10646` for iso10646. The published file
//!    ([`verilog()`]) holds that one module and nothing else — Verilator's
//!    DECLFILENAME (part of `-Wall`) fires for any second module in a file —
//!    so the two profiles can be instantiated in one design, and the
//!    hierarchy survives in the signal names (`decoder$bound$q`). The
//!    hierarchical form ([`verilog_hierarchical`]) names every submodule
//!    `<top>__<path>` (`utf8_decoder__decoder__bound`), so it too can sit
//!    beside the other profile. Identifiers that are SystemVerilog keywords
//!    but legal Verilog-2005 (`class`, `logic`, ...) get a `_` suffix, so
//!    the file also parses as SystemVerilog (Verilator's default language).
//!    The top's ports keep their names.
//! 2. **Widths.** Every expression is parsed and written back with every
//!    operand at the width Verilog evaluates it at ([`expr`] documents each
//!    rule and why it is exact). This turns `((free_bits) & 32'hffffffff)`
//!    into `{{24{1'b0}}, free_bits}`, `x << 32'h6` into `x << 3'd6`,
//!    `x[32'h7]` into `x[7]` and the `q = 64'h0` of a 5-bit enum register's
//!    `initial` block into `q = 5'h0`.
//! 3. **Parameters.** An enum's values are declared with the enum's width
//!    (`localparam [4:0] ByteClass$Lead2 = 5'h6;`: rust-hdl encodes an enum of
//!    n variants in clog2(n) bits, its variants numbered from 0); every
//!    constant gets an explicit range. rust-hdl declares every enum value in
//!    every module that touches the enum; the ones a module never reads are
//!    dropped (an unread `localparam` has no effect).
//! 4. **Case statements** that neither cover every value of their selector
//!    nor have a `default` get an empty `default` arm: a case that matches
//!    no arm executes nothing either way.
//!
//! The `initial` blocks of rust-hdl's registers stay: they give every flop
//! the power-up value 0 that rust-hdl's simulator starts from, which yosys
//! turns into init attributes (iCE40 and ECP5 flops power up at 0).
//!
//! The tests check the result rather than trust these arguments: yosys
//! proves the published file equivalent to rust-hdl's own Verilog
//! (`equiv_make`/`equiv_induct`), and Icarus and Verilator run it cycle for
//! cycle against the rust-hdl simulation.
//!
//! The file lints clean under its own name, `<top>.v` (DECLFILENAME):
//! [`write_verilog`] writes it so.

pub mod expr;
pub mod flatten;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use rust_hdl::prelude::*;
use utf8hdl_hdl::{Profile, Utf8Decoder};

use expr::{literal, narrower, tokenize, Expr, Parser, Sizer, Tok};

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

/// rust-hdl's own Verilog for the design, before [`clean`].
pub fn raw_verilog(profile: Profile) -> Result<String> {
    let mut uut = Utf8Decoder::new(profile);
    uut.connect_all();
    raw_of(&uut)
}

fn raw_of<U: Block>(uut: &U) -> Result<String> {
    check_all(uut).map_err(|e| anyhow!("the design fails rust-hdl's checks: {e:?}"))?;
    Ok(generate_verilog(uut))
}

/// Any rust-hdl block (already `connect_all`ed) as one lint-clean module
/// named `top`, by the rewrites of this module. This is what
/// [`try_verilog`] does for the decoder, without the header comment.
pub fn export<U: Block>(uut: &U, top: &str) -> Result<String> {
    Ok(flatten::flatten(&clean(&raw_of(uut)?, top)?, top)? + "\n")
}

/// [`export`] keeping the hierarchy (see [`verilog_hierarchical`]).
pub fn export_hierarchical<U: Block>(uut: &U, top: &str) -> Result<String> {
    clean(&raw_of(uut)?, top)
}

/// The design as one self-contained, lint-clean Verilog-2005 file holding
/// one module, [`top_name`]`(profile)`.
pub fn try_verilog(profile: Profile) -> Result<String> {
    let top = top_name(profile);
    let body = flatten::flatten(&clean(&raw_verilog(profile)?, top)?, top)?;
    Ok(format!(
        "{}\n{body}\n",
        header(
            profile,
            "one module; the rust-hdl hierarchy is kept in signal names (decoder$bound$q)"
        )
    ))
}

/// The design with rust-hdl's hierarchy kept: the top module [`top_name`]
/// and one module per block and register, each named `<top>__<path>`, so
/// both profiles can be instantiated in one design. Every rewrite of
/// [`try_verilog`] applies; being several modules in one file, it draws
/// Verilator's DECLFILENAME (and only that) under `-Wall`.
pub fn verilog_hierarchical(profile: Profile) -> Result<String> {
    let top = top_name(profile);
    let body = clean(&raw_verilog(profile)?, top)?;
    Ok(format!(
        "{}{body}",
        header(
            profile,
            &format!("every submodule is named {top}__<path>, so both profiles can share a design")
        )
    ))
}

fn header(profile: Profile, shape: &str) -> String {
    let top = top_name(profile);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// {top}: utf8hdl UTF-8 -> UCS-4 decoder, profile {profile}.\n\
         // Generated by utf8hdl-synth from the rust-hdl design; do not edit.\n\
         // Verilog-2005 (also valid SystemVerilog). Save as {top}.v.\n\
         // Shape: {shape}.\n\
         //\n\
         // Ports (AXI4-Stream in and out; rst is synchronous, active high):"
    );
    for (name, dir, width) in PORTS {
        let range = if width == 1 {
            String::new()
        } else {
            format!("[{}:0]", width - 1)
        };
        let _ = writeln!(out, "//   {dir:<6} {range:<6} {name}");
    }
    let _ = write!(
        out,
        "// m_axis_tuser: bit 0 = error, bits 3:1 = error kind code."
    );
    out
}

/// [`try_verilog`], for callers that treat a failure as a bug.
pub fn verilog(profile: Profile) -> String {
    try_verilog(profile).unwrap_or_else(|e| panic!("Verilog export for {profile} failed: {e:#}"))
}

/// Writes [`verilog`]`(profile)` to `<dir>/<top>.v` and returns the path.
pub fn write_verilog(profile: Profile, dir: &Path) -> Result<PathBuf> {
    let path = dir.join(format!("{}.v", top_name(profile)));
    std::fs::write(&path, try_verilog(profile)?)
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(path)
}

/// SystemVerilog (IEEE 1800-2017 Annex B) keywords that are not Verilog-2005
/// keywords, so may be rust-hdl identifiers.
#[rustfmt::skip]
const SV_KEYWORDS: &[&str] = &[
    "accept_on", "alias", "always_comb", "always_ff", "always_latch", "assert", "assume", "before",
    "bind", "bins", "binsof", "bit", "break", "byte", "chandle", "checker", "class", "clocking",
    "const", "constraint", "context", "continue", "cover", "covergroup", "coverpoint", "cross",
    "dist", "do", "endchecker", "endclass", "endclocking", "endgroup", "endinterface", "endpackage",
    "endprogram", "endproperty", "endsequence", "enum", "eventually", "expect", "export", "extends",
    "extern", "final", "first_match", "foreach", "forkjoin", "global", "iff", "ignore_bins",
    "illegal_bins", "implies", "import", "inside", "int", "interface", "intersect", "join_any",
    "join_none", "let", "local", "logic", "longint", "matches", "modport", "new", "nexttime",
    "null", "package", "packed", "priority", "program", "property", "protected", "pure", "rand",
    "randc", "randcase", "randsequence", "ref", "reject_on", "restrict", "return", "s_always",
    "s_eventually", "s_nexttime", "s_until", "s_until_with", "sequence", "shortint", "shortreal",
    "soft", "solve", "static", "string", "strong", "struct", "super", "sync_accept_on",
    "sync_reject_on", "tagged", "this", "throughout", "timeprecision", "timeunit", "type",
    "typedef", "union", "unique", "unique0", "until", "until_with", "untyped", "var", "virtual",
    "void", "wait_order", "weak", "wildcard", "with", "within",
];

struct Module {
    name: String,
    lines: Vec<String>,
}

/// Splits generated text into its modules.
fn modules(raw: &str) -> Result<Vec<Module>> {
    let mut out = Vec::new();
    let mut current: Option<Module> = None;
    for line in raw.lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("module ") {
            if current.is_some() {
                bail!("module inside a module at `{t}`");
            }
            let name = rest
                .split('(')
                .next()
                .unwrap_or_default()
                .trim()
                .to_string();
            current = Some(Module {
                name,
                lines: vec![line.to_string()],
            });
        } else if let Some(m) = current.as_mut() {
            m.lines.push(line.to_string());
            if t.starts_with("endmodule") {
                out.push(current.take().unwrap());
            }
        } else if !t.is_empty() {
            bail!("text outside any module: `{t}`");
        }
    }
    if current.is_some() {
        bail!("unterminated module");
    }
    Ok(out)
}

/// Applies `f` to each identifier of `line` outside a `//` comment.
fn map_idents(line: &str, mut f: impl FnMut(&str) -> Option<String>) -> String {
    let (code, comment) = match line.find("//") {
        Some(p) => line.split_at(p),
        None => (line, ""),
    };
    let mut out = String::with_capacity(line.len());
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i] as char;
        let starts_ident = (c.is_ascii_alphabetic() || c == '_')
            && (i == 0 || {
                let p = bytes[i - 1] as char;
                !(p.is_ascii_alphanumeric() || p == '_' || p == '$' || p == '\'')
            });
        if starts_ident {
            let start = i;
            while i < bytes.len() && {
                let c = bytes[i] as char;
                c.is_ascii_alphanumeric() || c == '_' || c == '$'
            } {
                i += 1;
            }
            let word = &code[start..i];
            out.push_str(&f(word).unwrap_or_else(|| word.to_string()));
        } else if c == '\'' {
            // A based literal: copy its base and digits, which may look like
            // identifiers (`8'hff`).
            out.push(c);
            i += 1;
            while i < bytes.len() && (bytes[i] as char).is_ascii_alphanumeric() {
                out.push(bytes[i] as char);
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out.push_str(comment);
    out
}

/// The identifiers of `line` outside a comment.
fn idents(line: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    map_idents(line, |w| {
        found.insert(w.to_string());
        None
    });
    found
}

enum Decl {
    Signal {
        name: String,
        width: usize,
    },
    Param {
        indent: String,
        name: String,
        value: Expr,
    },
}

fn parse_decl(line: &str) -> Result<Option<Decl>> {
    let t = line.trim();
    let Some(body) = t.strip_suffix(';') else {
        return Ok(None);
    };
    let mut words: Vec<&str> = body.split_whitespace().collect();
    if words.first() == Some(&"localparam") {
        let rest = body["localparam".len()..].trim();
        let (name, value) = rest
            .split_once('=')
            .ok_or_else(|| anyhow!("localparam without a value: `{t}`"))?;
        let mut name = name.trim();
        if name.starts_with("signed") {
            bail!("unexpected localparam form `{t}`");
        }
        if name.starts_with('[') {
            // Already rewritten: `localparam [N:0] name = ...`.
            name = name
                .split_once(']')
                .map(|(_, n)| n.trim())
                .ok_or_else(|| anyhow!("unexpected localparam form `{t}`"))?;
        }
        let indent = line[..line.len() - line.trim_start().len()].to_string();
        return Ok(Some(Decl::Param {
            indent,
            name: name.to_string(),
            value: Parser::parse_all(value.trim())?,
        }));
    }
    let kinds = [
        &["input", "wire"][..],
        &["output", "reg"],
        &["output", "wire"],
        &["inout", "wire"],
        &["reg"],
        &["wire"],
    ];
    let Some(kind) = kinds.iter().find(|k| words.starts_with(k)) else {
        return Ok(None);
    };
    words.drain(..kind.len());
    if words.first() == Some(&"signed") {
        bail!("signed signals are not supported: `{t}`");
    }
    let (width, name) = match words.as_slice() {
        [name] => (1, *name),
        [range, name] => {
            let msb = range
                .strip_prefix('[')
                .and_then(|r| r.strip_suffix(":0]"))
                .ok_or_else(|| anyhow!("unexpected range in `{t}`"))?;
            (msb.parse::<usize>()? + 1, *name)
        }
        _ => bail!("unexpected declaration `{t}`"),
    };
    Ok(Some(Decl::Signal {
        name: name.to_string(),
        width,
    }))
}

fn clog2(n: usize) -> usize {
    let mut bits = 0;
    while (1usize << bits) < n {
        bits += 1;
    }
    bits
}

/// The lvalue of an assignment and its width.
fn lvalue(sizer: &mut Sizer, e: &Expr) -> Result<(String, usize)> {
    Ok(match e {
        Expr::Ident(name) => (name.clone(), sizer.width(e)?),
        Expr::Index(base, index) | Expr::Slice(base, index, _) => {
            let Expr::Ident(base) = base.as_ref() else {
                bail!("assignment to a select of an expression");
            };
            let index = match index.as_ref() {
                Expr::Lit { value, .. } => value.to_string(),
                other => {
                    let w = sizer.width(other)?;
                    sizer.emit(other, w)?
                }
            };
            match e {
                Expr::Slice(_, _, w) => (format!("{base}[({index})+:({w})]"), *w),
                _ => (format!("{base}[{index}]"), 1),
            }
        }
        other => bail!("cannot assign to {other:?}"),
    })
}

/// Splits `lhs = rhs` (or `<=`) at its assignment operator.
fn split_assignment(stmt: &str) -> Option<(&str, &str, &str)> {
    let toks = tokenize(stmt).ok()?;
    // The lvalue is an identifier with optional selects; the first `=` or
    // `<=` at bracket depth 0 after it is the assignment.
    let mut depth = 0i32;
    let mut offset = 0;
    for tok in &toks {
        let text = match tok {
            Tok::Op(op) => *op,
            _ => "",
        };
        match text {
            "[" | "(" => depth += 1,
            "]" | ")" => depth -= 1,
            "=" | "<=" if depth == 0 => {
                let p = stmt[offset..].find(text)? + offset;
                return Some((&stmt[..p], text, &stmt[p + text.len()..]));
            }
            _ => {}
        }
        // Keep `offset` past the text of the tokens consumed so far.
        let shown = match tok {
            Tok::Ident(s) | Tok::System(s) => s.clone(),
            Tok::Op(op) => op.to_string(),
            Tok::Number { .. } => String::new(),
        };
        if !shown.is_empty() {
            offset = stmt[offset..]
                .find(&shown)
                .map(|p| p + offset + shown.len())?;
        }
    }
    None
}

/// What the case pass settles for one `case`.
struct Case {
    /// The width of the selector and every label.
    width: usize,
    /// No label matches some value of the selector, and there is no default.
    needs_default: bool,
}

/// A case statement being read: its line, selector, labels (line and
/// expression) and whether it has a default.
type OpenCase = (usize, Expr, Vec<(usize, Expr)>, bool);

/// The module-level rewrite; see the module documentation.
pub fn clean(raw: &str, top: &str) -> Result<String> {
    let mods = modules(raw)?;
    // 1. Module names.
    let mut renames = BTreeMap::new();
    for m in &mods {
        let new = if m.name == "top" {
            top.to_string()
        } else if let Some(path) = m.name.strip_prefix("top$") {
            format!("{top}__{}", path.replace('$', "__"))
        } else {
            bail!("unexpected module name `{}`", m.name);
        };
        if renames.values().any(|v| *v == new) {
            bail!("two modules would both be named `{new}`");
        }
        renames.insert(m.name.clone(), new);
    }
    let mut out = String::new();
    for m in &mods {
        let text = clean_module(m, &renames).with_context(|| format!("in module {}", m.name))?;
        out.push_str("\n\n");
        out.push_str(&text);
    }
    out.push('\n');
    Ok(out)
}

fn clean_module(m: &Module, renames: &BTreeMap<String, String>) -> Result<String> {
    // Keyword renaming, checked against the names the module already has.
    let mut names = BTreeSet::new();
    for line in &m.lines {
        names.extend(idents(line));
    }
    let mut lines: Vec<String> = Vec::with_capacity(m.lines.len());
    for line in &m.lines {
        let mut clash = None;
        let mapped = map_idents(line, |w| {
            SV_KEYWORDS.contains(&w).then(|| {
                let new = format!("{w}_");
                if names.contains(&new) {
                    clash = Some(new.clone());
                }
                new
            })
        });
        if let Some(c) = clash {
            bail!("renaming a SystemVerilog keyword would clash with `{c}`");
        }
        lines.push(mapped);
    }

    // Declarations and their widths.
    let mut widths = BTreeMap::new();
    let mut enum_sizes: BTreeMap<String, usize> = BTreeMap::new();
    for line in &lines {
        match parse_decl(line)? {
            Some(Decl::Signal { name, width }) => {
                widths.insert(name, width);
            }
            Some(Decl::Param { name, value, .. }) => match value {
                Expr::Lit { width: Some(w), .. } => {
                    widths.insert(name, w);
                }
                Expr::Lit { width: None, .. } => {
                    let (group, _) = name.rsplit_once('$').ok_or_else(|| {
                        anyhow!("unsized localparam `{name}` is not an enum value")
                    })?;
                    *enum_sizes.entry(group.to_string()).or_default() += 1;
                }
                _ => bail!("localparam `{name}` is not a literal"),
            },
            None => {}
        }
    }
    let enum_width = |name: &str| -> usize {
        let group = name.rsplit_once('$').map(|(g, _)| g).unwrap_or_default();
        clog2(enum_sizes[group]).max(1)
    };
    let mut param_values: BTreeMap<String, u128> = BTreeMap::new();
    for line in &lines {
        if let Some(Decl::Param {
            name,
            value: Expr::Lit { value, .. },
            ..
        }) = parse_decl(line)?
        {
            param_values.insert(name, value);
        }
    }
    for line in &lines {
        if let Some(Decl::Param {
            name,
            value: Expr::Lit { width: None, value },
            ..
        }) = parse_decl(line)?
        {
            let w = enum_width(&name);
            if value >> w != 0 {
                bail!("enum value `{name}` = {value} does not fit {w} bits");
            }
            widths.insert(name, w);
        }
    }

    // Case statements: each selector and its labels at one width, the
    // narrowest that changes no comparison (IEEE 1364-2005 §9.5: the
    // selector and all labels are compared at the widest of them).
    let mut sizer = Sizer::new(&widths);
    let mut cases: BTreeMap<usize, Case> = BTreeMap::new();
    let mut label_width: BTreeMap<usize, usize> = BTreeMap::new();
    {
        let mut open: Vec<OpenCase> = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            let t = line.trim();
            if let Some(sel) = t.strip_prefix("case (").and_then(|r| r.strip_suffix(')')) {
                open.push((i, Parser::parse_all(sel)?, Vec::new(), false));
            } else if t == "endcase" {
                let (at, sel, labels, has_default) =
                    open.pop().ok_or_else(|| anyhow!("endcase without case"))?;
                let mut sides = vec![&sel];
                sides.extend(labels.iter().map(|(_, e)| e));
                let width = sizer.compare_width(&sides)?;
                let values: Option<BTreeSet<u128>> = labels
                    .iter()
                    .map(|(_, e)| match e {
                        Expr::Lit { value, .. } => Some(*value),
                        Expr::Ident(name) => param_values.get(name).copied(),
                        _ => None,
                    })
                    .collect();
                let complete =
                    values.is_some_and(|v| width < 64 && v.len() as u128 == 1u128 << width);
                for (j, _) in &labels {
                    label_width.insert(*j, width);
                }
                cases.insert(
                    at,
                    Case {
                        width,
                        needs_default: !has_default && !complete,
                    },
                );
            } else if let (Some(case), Some(label)) = (open.last_mut(), t.strip_suffix(':')) {
                if label == "default" {
                    case.3 = true;
                } else {
                    case.2.push((i, Parser::parse_all(label)?));
                }
            }
        }
        if !open.is_empty() {
            bail!("case without endcase");
        }
    }

    // Every statement, with its expressions re-sized.
    let mut open_cases: Vec<&Case> = Vec::new();
    let mut text_lines: Vec<String> = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        let indent = &line[..line.len() - line.trim_start().len()];
        let t = line.trim();
        let rewritten = if let Some(decl) = parse_decl(line)? {
            match decl {
                Decl::Param {
                    indent,
                    name,
                    value,
                } => {
                    let Expr::Lit { value, .. } = value else {
                        unreachable!()
                    };
                    let w = widths[&name];
                    let range = if w == 1 {
                        String::new()
                    } else {
                        format!("[{}:0] ", w - 1)
                    };
                    format!("{indent}localparam {range}{name} = {};", literal(w, value))
                }
                Decl::Signal { .. } => line.to_string(),
            }
        } else if let Some(cond) = t
            .strip_prefix("if (")
            .or_else(|| t.strip_prefix("else if ("))
            .and_then(|r| r.strip_suffix(") begin"))
        {
            let prefix = if t.starts_with("else") {
                "else if"
            } else {
                "if"
            };
            let e = Parser::parse_all(cond)?;
            format!("{indent}{prefix} ({}) begin", sizer.condition(&e)?)
        } else if let Some(case) = cases.get(&i) {
            let sel = t
                .strip_prefix("case (")
                .and_then(|r| r.strip_suffix(')'))
                .unwrap();
            open_cases.push(case);
            format!(
                "{indent}case ({})",
                sizer.emit(&Parser::parse_all(sel)?, case.width)?
            )
        } else if t == "endcase" {
            let case = open_cases.pop().unwrap();
            if case.needs_default {
                text_lines.push(format!("{indent}    default:"));
                text_lines.push(format!("{indent}        begin"));
                text_lines.push(format!("{indent}        end"));
            }
            line.to_string()
        } else if let Some(w) = label_width.get(&i) {
            let label = t.strip_suffix(':').unwrap();
            format!("{indent}{}:", sizer.emit(&Parser::parse_all(label)?, *w)?)
        } else if t == "default:" && !open_cases.is_empty() {
            line.to_string()
        } else if let Some((prefix, stmt)) = statement(t) {
            let stmt = stmt.strip_suffix(';').unwrap_or(stmt);
            let (lhs, op, rhs) =
                split_assignment(stmt).ok_or_else(|| anyhow!("unrecognised statement `{t}`"))?;
            let (lhs, w) = lvalue(&mut sizer, &Parser::parse_all(lhs.trim())?)?;
            let rhs = sizer.emit(&Parser::parse_all(rhs.trim())?, w)?;
            format!("{indent}{prefix}{lhs} {op} {rhs};")
        } else {
            line.to_string()
        };
        text_lines.push(rewritten);
    }

    // Narrowing functions, before `endmodule`.
    let narrowers: Vec<String> = sizer
        .narrowers
        .iter()
        .map(|(f, t)| narrower(*f, *t))
        .collect();
    if !narrowers.is_empty() {
        let end = text_lines.len() - 1;
        let mut block = vec![
            "    ".to_string(),
            "    // Low bits of an expression".to_string(),
        ];
        block.extend(narrowers.iter().map(|n| format!("    {n}")));
        text_lines.splice(end..end, block);
    }

    // Unread parameters.
    let mut used = BTreeSet::new();
    let mut params = BTreeSet::new();
    for line in &text_lines {
        match parse_decl(line)? {
            Some(Decl::Param { name, .. }) => {
                params.insert(name);
            }
            _ => used.extend(idents(line)),
        }
    }
    text_lines.retain(|line| match parse_decl(line) {
        Ok(Some(Decl::Param { name, .. })) => used.contains(&name),
        _ => true,
    });
    // Section comments left with nothing under them.
    let mut kept: Vec<String> = Vec::with_capacity(text_lines.len());
    for (i, line) in text_lines.iter().enumerate() {
        let t = line.trim();
        if (t == "// Enums" || t == "// Constant declarations")
            && text_lines.get(i + 1).is_none_or(|n| n.trim().is_empty())
        {
            continue;
        }
        kept.push(line.clone());
    }

    // Module names: the header, instances and the closing comment.
    let renamed = kept
        .iter()
        .map(|line| {
            let t = line.trim_start();
            let indent = &line[..line.len() - t.len()];
            for (old, new) in renames {
                for (prefix, sep) in [("module ", "("), ("endmodule // ", ""), ("", " ")] {
                    let lead = format!("{prefix}{old}{sep}");
                    if t.starts_with(&lead) && (!sep.is_empty() || t.len() == lead.len()) {
                        if prefix.is_empty() && !t.ends_with('(') {
                            continue;
                        }
                        return format!("{indent}{prefix}{new}{sep}{}", &t[lead.len()..]);
                    }
                }
            }
            line.clone()
        })
        .collect::<Vec<_>>();
    Ok(renamed
        .into_iter()
        .map(|l| l.trim_end().to_string())
        .collect::<Vec<_>>()
        .join("\n"))
}

/// A statement line: an assignment, possibly after `always @(*) ` or
/// `assign ` (rust-hdl's one-line links). Returns the prefix and the
/// statement.
fn statement(t: &str) -> Option<(&'static str, &str)> {
    if !t.ends_with(';') || t.starts_with("//") {
        return None;
    }
    for prefix in ["always @(*) ", "assign "] {
        if let Some(rest) = t.strip_prefix(prefix) {
            return Some((prefix, rest));
        }
    }
    let first = t.split_whitespace().next()?;
    if matches!(
        first,
        "input" | "output" | "inout" | "reg" | "wire" | "localparam" | "module" | "end"
    ) || first.starts_with('.')
        || first.starts_with(')')
    {
        return None;
    }
    Some(("", t))
}
