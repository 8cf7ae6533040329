//! Inlining every submodule into the top module, by renaming alone: a
//! child's port becomes the parent's signal connected to it, any other name
//! `i$name` for instance `i` (as rust-hdl names them one level up, so flat
//! names read like the hierarchy), enum values are kept once, and a signal
//! is a `reg` unless an `assign` drives it. Each `always`/`initial` block
//! and statement stays as it was, so the flat module behaves as the
//! hierarchy did: one driver per signal, and a flop's clock still passes
//! through the same blocking assignments (all settle in the active region,
//! before any flop's nonblocking update, so no race is introduced).

use std::collections::{BTreeMap, BTreeSet};

use anyhow::{anyhow, Result};

use super::{declaration, drop_unused_params, map_idents, Module};

/// What the inlined modules add up to.
#[derive(Default)]
struct Flat {
    /// The top's ports, then every signal, constant and enum value (once each).
    decls: Vec<String>,
    body: Vec<String>,
}

/// Inlines the hierarchy under rust-hdl's `top` into one module named `top`.
pub fn flatten(mods: &[Module], top: &str) -> Result<String> {
    let mods: BTreeMap<&str, &Module> = mods.iter().map(|m| (m.name.as_str(), m)).collect();
    let root = mods.get("top").ok_or_else(|| anyhow!("no module `top`"))?;
    // The top's ports keep their names.
    let ports = (root.lines.iter())
        .filter_map(|line| declaration(line))
        .filter(|(keyword, _)| matches!(*keyword, "input" | "output" | "inout"))
        .map(|(_, name)| (name.to_string(), name.to_string()))
        .collect();
    let mut flat = Flat::default();
    inline(&mods, root, "", &ports, &mut flat)?;

    // With no port connections left, every signal is driven by an `always`
    // or `initial` block, so is a `reg`, unless an `assign` drives it.
    let assigned: BTreeSet<&str> = (flat.body.iter())
        .filter_map(|line| line.trim().strip_prefix("assign ")?.split(' ').next())
        .collect();
    let mut out = vec![root.lines[0].replacen("module top(", &format!("module {top}("), 1)];
    for line in &flat.decls {
        let name = declaration(line).map_or("", |(_, name)| name);
        let reg = !assigned.contains(name) && !line.trim().starts_with("input");
        out.push(line.replacen("wire ", if reg { "reg " } else { "wire " }, 1));
    }
    out.extend(flat.body);
    drop_unused_params(&mut out);
    out.push(format!("endmodule // {top}"));
    Ok(out.join("\n"))
}

fn inline(
    mods: &BTreeMap<&str, &Module>,
    m: &Module,
    prefix: &str,
    ports: &BTreeMap<String, String>,
    flat: &mut Flat,
) -> Result<()> {
    // `prefix` is the instance path with a trailing `$`, empty for the top.
    let prefixed = |name: &str| format!("{prefix}{name}");
    let locals: BTreeSet<&str> = (m.lines.iter())
        .filter_map(|line| declaration(line))
        .filter(|(keyword, name)| match *keyword {
            "input" | "output" | "inout" => false,
            "localparam" => !name.contains('$'),
            _ => true,
        })
        .map(|(_, name)| name)
        .collect();
    let rename =
        |w: &str| (ports.get(w).cloned()).or_else(|| locals.contains(w).then(|| prefixed(w)));
    let label = prefix.strip_suffix('$').unwrap_or("top");
    let mut section = Some(format!("    // {label}"));
    let mut lines = m.lines.iter();
    while let Some(line) = lines.next() {
        let t = line.trim();
        if t.starts_with("module ") || t == "endmodule" {
            continue;
        }
        match declaration(line) {
            Some(("input" | "output" | "inout", name)) => {
                // Declared by the parent, or here if this is the top.
                ports
                    .get(name)
                    .ok_or_else(|| anyhow!("port `{name}` unconnected"))?;
                if prefix.is_empty() {
                    flat.decls.push(line.clone());
                }
            }
            Some(("localparam", name)) if name.contains('$') => {
                if !flat.decls.contains(line) {
                    flat.decls.push(line.clone());
                }
            }
            Some(_) => flat.decls.push(map_idents(line, &rename)),
            None => {
                // An instance: `kind name(`, then `.port(signal),` lines, `);`.
                let mut head = t.strip_suffix('(').unwrap_or_default().split_whitespace();
                if let (Some(child), Some(inst)) =
                    (head.next().and_then(|k| mods.get(k)), head.next())
                {
                    let mut child_ports = BTreeMap::new();
                    for c in lines.by_ref().map(|c| c.trim()).take_while(|c| *c != ");") {
                        let (port, signal) = (c.trim_end_matches(',').strip_prefix('.'))
                            .and_then(|c| c.strip_suffix(')')?.split_once('('))
                            .ok_or_else(|| anyhow!("unexpected port connection `{c}`"))?;
                        let outer =
                            rename(signal).ok_or_else(|| anyhow!("`{signal}` is not declared"))?;
                        child_ports.insert(port.to_string(), outer);
                    }
                    let path = format!("{prefix}{inst}$");
                    inline(mods, child, &path, &child_ports, flat)?;
                } else {
                    flat.body.extend(section.take());
                    flat.body.push(map_idents(line, &rename));
                }
            }
        }
    }
    Ok(())
}
