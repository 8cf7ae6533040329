//! Inlining every submodule into the top module.
//!
//! Verilator's DECLFILENAME (part of `-Wall`) fires for any module whose
//! name differs from its file's, so a single file that lints clean holds
//! exactly one module. rust-hdl's hierarchy is regular enough to inline by
//! renaming alone:
//!
//! * the parent connects port `x` of instance `i` to its own signal `i$x`
//!   (or, when rust-hdl links the two, to one of its own ports), so inside
//!   the child `x` becomes that signal;
//! * every other name the child declares (signals, constants) gets the
//!   instance path as a prefix, `i$name`, which is how rust-hdl already
//!   names them one level up, so the flat names read like the hierarchy
//!   (`decoder$bound$q`);
//! * enum values (`Bound$Any`) are the same in every module that declares
//!   them and are kept once, unprefixed;
//! * a signal the child drives from an `always` block is declared `reg` in
//!   the flat module (the parent had it as a `wire` fed by the port).
//!
//! Each `always`/`initial` block and each statement is kept as it was, so
//! the flat module behaves exactly as the hierarchy did: each signal still
//! has one driver, and a flop's clock still passes through the same
//! blocking assignments (all of them settle in the active region, before
//! any flop's nonblocking update, so no race is introduced).

use std::collections::{BTreeMap, BTreeSet};

use anyhow::{anyhow, bail, Result};

use super::{map_idents, modules, parse_decl, Decl, Module};

struct Flat {
    /// Enum values, by name, with their declaration text, in order.
    enums: Vec<(String, String)>,
    params: Vec<String>,
    signals: Vec<(String, String)>,
    body: Vec<String>,
    functions: BTreeMap<String, Vec<String>>,
    /// Names driven by a procedural assignment (must be `reg`).
    procedural: BTreeSet<String>,
}

/// Inlines the hierarchy under `top` into one module named `top`.
pub fn flatten(text: &str, top: &str) -> Result<String> {
    let mods: BTreeMap<String, Module> = modules(text)?
        .into_iter()
        .map(|m| (m.name.clone(), m))
        .collect();
    let root = mods.get(top).ok_or_else(|| anyhow!("no module `{top}`"))?;
    let mut flat = Flat {
        enums: Vec::new(),
        params: Vec::new(),
        signals: Vec::new(),
        body: Vec::new(),
        functions: BTreeMap::new(),
        procedural: BTreeSet::new(),
    };
    // The top's ports keep their names.
    let mut header = Vec::new();
    let mut port_decls = Vec::new();
    let mut ports = BTreeMap::new();
    for line in &root.lines {
        let t = line.trim();
        if t.starts_with("module ") {
            header.push(line.clone());
        } else if t.starts_with("input ") || t.starts_with("output ") || t.starts_with("inout ") {
            if let Some(Decl::Signal { name, .. }) = parse_decl(line)? {
                ports.insert(name.clone(), name.clone());
                port_decls.push((name, line.clone()));
            }
        }
    }
    inline(&mods, root, "", &ports, &mut flat)?;

    let mut out = Vec::new();
    out.extend(header);
    out.push("    ".into());
    out.push("    // Ports".into());
    for (name, line) in &port_decls {
        let line = if flat.procedural.contains(name) {
            line.replacen("output wire", "output reg", 1)
        } else {
            line.clone()
        };
        out.push(line);
    }
    if !flat.params.is_empty() {
        out.push("    ".into());
        out.push("    // Constants".into());
        out.extend(flat.params);
    }
    if !flat.enums.is_empty() {
        out.push("    ".into());
        out.push("    // Enums".into());
        out.extend(flat.enums.into_iter().map(|(_, text)| text));
    }
    out.push("    ".into());
    out.push("    // Signals, named by their path in the rust-hdl hierarchy".into());
    for (name, line) in &flat.signals {
        let t = line.trim_start();
        let line = if flat.procedural.contains(name) && t.starts_with("wire ") {
            format!("    reg {}", &t["wire ".len()..])
        } else {
            format!("    {t}")
        };
        out.push(line);
    }
    out.extend(flat.body);
    if !flat.functions.is_empty() {
        out.push("    ".into());
        out.push("    // Low bits of an expression".into());
        for lines in flat.functions.into_values() {
            out.extend(lines);
        }
    }
    out.push(format!("endmodule // {top}"));
    Ok(out.join("\n"))
}

/// The names `m` declares (other than enum values).
fn local_names(m: &Module) -> Result<BTreeSet<String>> {
    let mut names = BTreeSet::new();
    for line in &m.lines {
        match parse_decl(line)? {
            Some(Decl::Signal { name, .. }) => {
                names.insert(name);
            }
            Some(Decl::Param { name, .. }) if !name.contains('$') => {
                names.insert(name);
            }
            _ => {}
        }
    }
    Ok(names)
}

fn inline(
    mods: &BTreeMap<String, Module>,
    m: &Module,
    prefix: &str,
    ports: &BTreeMap<String, String>,
    flat: &mut Flat,
) -> Result<()> {
    let locals = local_names(m)?;
    let rename = |name: &str| -> Option<String> {
        if let Some(outer) = ports.get(name) {
            Some(outer.clone())
        } else if locals.contains(name) {
            Some(if prefix.is_empty() {
                name.to_string()
            } else {
                format!("{prefix}${name}")
            })
        } else {
            None
        }
    };
    let mut i = 0;
    let lines = &m.lines;
    let mut section_comment: Option<String> = None;
    while i < lines.len() {
        let line = &lines[i];
        let t = line.trim();
        i += 1;
        if t.starts_with("module ") || t.starts_with("endmodule") || t.is_empty() {
            continue;
        }
        if t.starts_with("function ") {
            let name = t
                .trim_end_matches(';')
                .split_whitespace()
                .last()
                .unwrap_or_default()
                .to_string();
            let mut body = vec![line.clone()];
            while i < lines.len() {
                body.push(lines[i].clone());
                i += 1;
                if lines[i - 1].trim() == "endfunction" {
                    break;
                }
            }
            flat.functions.insert(name, body);
            continue;
        }
        if t.starts_with("//") {
            // Section comments are rewritten below; keep the others.
            if t.starts_with("// Update code") {
                section_comment = Some(format!(
                    "    // {}",
                    if prefix.is_empty() { "top" } else { prefix }
                ));
            }
            continue;
        }
        if let Some(decl) = parse_decl(line)? {
            match decl {
                Decl::Signal { name, .. } => {
                    if ports.contains_key(&name) {
                        // A port: declared by the parent (or the top).
                        if t.starts_with("output reg") {
                            flat.procedural.insert(ports[&name].clone());
                        }
                        continue;
                    }
                    let new = rename(&name).unwrap();
                    let text =
                        map_idents(line, |w| if w == name { Some(new.clone()) } else { None });
                    if t.starts_with("reg ") {
                        flat.procedural.insert(new.clone());
                    }
                    flat.signals.push((new, text));
                }
                Decl::Param { name, .. } => {
                    if name.contains('$') {
                        let text = line.trim().to_string();
                        match flat.enums.iter().find(|(n, _)| *n == name) {
                            Some((_, prev)) if prev.trim() != text => {
                                bail!("enum value `{name}` is declared differently in two modules")
                            }
                            Some(_) => {}
                            None => flat.enums.push((name, format!("    {text}"))),
                        }
                    } else {
                        let text = map_idents(line, &rename);
                        flat.params.push(format!("    {}", text.trim()));
                    }
                }
            }
            continue;
        }
        // An instance: `kind name(` then `.port(signal),` lines, then `);`.
        if let Some(head) = t.strip_suffix('(') {
            let mut words = head.split_whitespace();
            if let (Some(kind), Some(inst), None) = (words.next(), words.next(), words.next()) {
                if let Some(child) = mods.get(kind) {
                    let mut child_ports = BTreeMap::new();
                    while i < lines.len() && lines[i].trim() != ");" {
                        let c = lines[i].trim().trim_end_matches(',');
                        let (port, sig) = c
                            .strip_prefix('.')
                            .and_then(|c| c.strip_suffix(')'))
                            .and_then(|c| c.split_once('('))
                            .ok_or_else(|| anyhow!("unexpected port connection `{c}`"))?;
                        let sig = sig.trim();
                        let outer =
                            rename(sig).ok_or_else(|| anyhow!("`{sig}` is not declared"))?;
                        child_ports.insert(port.trim().to_string(), outer);
                        i += 1;
                    }
                    i += 1;
                    let child_prefix = if prefix.is_empty() {
                        inst.to_string()
                    } else {
                        format!("{prefix}${inst}")
                    };
                    inline(mods, child, &child_prefix, &child_ports, flat)?;
                    continue;
                }
            }
        }
        // Code: rename what this module declares.
        if let Some(c) = section_comment.take() {
            flat.body.push("    ".into());
            flat.body.push(c);
        }
        flat.body.push(map_idents(line, &rename));
    }
    Ok(())
}
