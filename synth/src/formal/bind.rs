//! # A block's internal signals, bound by name for its proof
//!
//! Some invariants of a block are about its registers, not its ports (the
//! queue's count is its write pointer less its read pointer). A property
//! file names each register it reads as a connection of its `dut`
//! instance, by the register's name in the block's exported Verilog:
//! `.write_pointer$q(f_write_pointer)`. The proof's copy of the block then
//! has each bound name as an output port of the same name: a register or
//! wire is declared `output` where it stands; a memory becomes an output of
//! all its words side by side (word `k` at bits `k*W +: W`), the memory
//! itself renamed `<name>$words` inside the module.
//!
//! Every bound name is looked up in the block's Verilog before the proof
//! runs: one that the block does not declare (a register renamed since the
//! property file was written) is an error that names it, so a proof never
//! reads a signal that is no longer there.
//!
//! A core's proof binds its internal names the same way (its instance is
//! `` `UTF8_DUT dut``), and may also read a [`Probe`] of its formal plan: an
//! output port added to the core's formal build, the sum of terms over its
//! internal names, for what depends on its lane count (the registers of a
//! packer's log₂ N levels). Each name a term reads is looked up likewise.

use anyhow::{bail, Context, Result};

use utf8hdl_hdl::Profile;
use utf8hdl_sim::cores::formal::Probe;

use crate::verilog::{declaration, map_idents};

/// A memory's suffix inside the module once the memory is bound.
const MEMORY_SUFFIX: &str = "$words";

/// The names that the instance of module `block` in `properties` connects
/// (`.name(...)`), in order: the instance is the statement that begins
/// with `block`, the module's name.
pub fn bound_names(properties: &str, block: &str) -> Result<Vec<String>> {
    let code = without_comments(properties);
    let instance = code
        .split(';')
        .find(|statement| statement.split_whitespace().next() == Some(block))
        .with_context(|| format!("the property file has no instance of {block}"))?;
    Ok(connected_names(instance))
}

/// The internal names that a core's proof binds: the connections
/// (`, .name(...)`) of the `` `define F_DUT_INTERNALS`` in its `sources`
/// (its property file and what that file includes), which the N-lane
/// cores' harness (`faxis_lanes_harness.vh`) adds to the core's instance,
/// with the macros it names expanded; none when there is no such define.
pub fn dut_internals(sources: &str) -> Vec<String> {
    let code = without_comments(sources);
    connected_names(&expanded("F_DUT_INTERNALS", &code, 0))
}

/// The body of the last `` `define name`` in `code` (the property file
/// comes after the harness that gives a default), its continued lines
/// joined, each `` `macro`` in it replaced by that macro's body; empty when
/// `code` defines no such macro.
fn expanded(name: &str, code: &str, depth: usize) -> String {
    let lines: Vec<&str> = code.lines().map(str::trim).collect();
    let defines = |line: &&str| {
        let mut words = line.split_whitespace();
        words.next() == Some("`define") && words.next() == Some(name)
    };
    let Some(start) = lines.iter().rposition(defines) else {
        return String::new();
    };
    let mut body = String::new();
    for line in &lines[start..] {
        body.push_str(line.trim_end_matches('\\'));
        body.push(' ');
        if !line.ends_with('\\') {
            break;
        }
    }
    let body = body
        .split_once(name)
        .map_or("", |(_, rest)| rest)
        .to_string();
    if depth > 8 {
        return body;
    }
    let mut parts = body.split('`');
    let mut out = parts.next().unwrap_or_default().to_string();
    for part in parts {
        let end = part
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(part.len());
        out += &expanded(&part[..end], code, depth + 1);
        out += &part[end..];
    }
    out
}

fn without_comments(verilog: &str) -> String {
    verilog
        .lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The port names that `connections` connects: each `.name(`.
fn connected_names(connections: &str) -> Vec<String> {
    let is_name = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    connections
        .split('.')
        .skip(1)
        .filter_map(|rest| {
            let end = rest.find(|c| !is_name(c))?;
            rest[end..]
                .trim_start()
                .starts_with('(')
                .then(|| rest[..end].to_string())
        })
        .filter(|name| !name.is_empty())
        .collect()
}

/// A memory declaration `reg [hi:0] name [0:last];`: its name, word
/// width and number of words.
fn memory(line: &str) -> Option<(&str, usize, usize)> {
    let rest = line.trim().strip_prefix("reg")?.trim_start();
    let rest = rest.strip_prefix('[')?;
    let (width, rest) = rest.split_once(']')?;
    let (hi, lo) = width.split_once(':')?;
    let (name, rest) = rest.trim_start().split_once(char::is_whitespace)?;
    let words = rest.trim().strip_prefix('[')?.strip_suffix("];")?;
    let (first, last) = words.split_once(':')?;
    let bits = |s: &str| s.trim().parse::<usize>().ok();
    let (hi, lo, first, last) = (bits(hi)?, bits(lo)?, bits(first)?, bits(last)?);
    (lo == 0 && first == 0).then_some((name, hi + 1, last + 1))
}

/// `verilog` with every internal signal of module `block` that
/// `properties` binds made an output port of the same name; a bound name
/// that is neither a port nor declared in the module is an error naming
/// it.
pub fn bind_internals(verilog: &str, block: &str, properties: &str) -> Result<String> {
    bind_names(verilog, block, &bound_names(properties, block)?)
}

/// The formal build of the core `module` for the proof of `sources` (every
/// file it reads, one after the other): `verilog` with `probes` (for
/// `lanes` lanes and `profile`) added as output ports, then every internal name that the
/// proof binds ([`dut_internals`]) made an output port.
pub fn formal_build(
    verilog: &str,
    module: &str,
    sources: &str,
    probes: &[Probe],
    lanes: usize,
    profile: Profile,
) -> Result<String> {
    let probed = add_probes(verilog, module, probes, lanes, profile)?;
    bind_names(&probed, module, &dut_internals(sources))
}

/// `verilog` with each probe an output port of module `module`, assigned
/// the sum of its terms; a term that reads a name the module does not
/// declare is an error naming it.
fn add_probes(
    verilog: &str,
    module: &str,
    probes: &[Probe],
    lanes: usize,
    profile: Profile,
) -> Result<String> {
    if probes.is_empty() {
        return Ok(verilog.to_string());
    }
    let declared: Vec<&str> = verilog
        .lines()
        .filter_map(|l| declaration(l).map(|(_, name)| name))
        .collect();
    let (mut declarations, mut assigns) = (Vec::new(), Vec::new());
    for probe in probes {
        let terms = (probe.terms)(lanes, profile);
        for term in &terms {
            let mut missing = None;
            map_idents(term, |name| {
                if missing.is_none() && !declared.contains(&name) {
                    missing = Some(name.to_string());
                }
                None
            });
            if let Some(name) = missing {
                bail!(
                    "the probe {} reads `{name}`, which module {module} does not declare: \
                     renamed? (update the core's formal plan)",
                    probe.port
                );
            }
        }
        let sum: Vec<String> = terms.iter().map(|t| format!("({t})")).collect();
        let (port, width) = (probe.port, probe.width);
        declarations.push(format!("    output wire [{}:0] {port};", width - 1));
        assigns.push(format!("    assign {port} = {};", sum.join(" + ")));
    }
    let (header, rest) = verilog
        .split_once(&format!("module {module}("))
        .with_context(|| format!("no module {module}(...) in the core's Verilog"))?;
    let (port_list, rest) = rest
        .split_once(");\n")
        .with_context(|| format!("module {module}'s header is not on one line"))?;
    let (body, after) = rest
        .split_once("endmodule")
        .with_context(|| format!("module {module} has no endmodule"))?;
    let names: Vec<&str> = probes.iter().map(|p| p.port).collect();
    Ok(format!(
        "{header}module {module}({port_list},{});\n{}\n{body}{}\nendmodule{after}",
        names.join(","),
        declarations.join("\n"),
        assigns.join("\n")
    ))
}

/// `verilog` with the internal signals `names` of module `block` made
/// output ports (the names that are ports already are left as they are).
fn bind_names(verilog: &str, block: &str, names: &[String]) -> Result<String> {
    let lines: Vec<&str> = verilog.lines().collect();
    let header = lines
        .iter()
        .position(|l| {
            l.trim_start()
                .strip_prefix("module")
                .and_then(|r| r.trim_start().strip_prefix(block))
                .is_some_and(|r| r.trim_start().starts_with('('))
        })
        .with_context(|| format!("no module {block}(...) in the block's Verilog"))?;
    let end = header
        + lines[header..]
            .iter()
            .position(|l| l.trim_start().starts_with("endmodule"))
            .with_context(|| format!("module {block} has no endmodule"))?;
    let (_, port_list) = lines[header]
        .split_once('(')
        .context("the module header has no port list")?;
    let port_list = port_list
        .strip_suffix(");")
        .with_context(|| format!("module {block}'s header is not on one line"))?;
    let ports: Vec<&str> = port_list.split(',').map(str::trim).collect();

    let mut body: Vec<String> = lines[header + 1..end]
        .iter()
        .map(|l| l.to_string())
        .collect();
    let mut exposed = Vec::new();
    let mut assigns = Vec::new();
    for name in names.iter().filter(|n| !ports.contains(&n.as_str())) {
        let signal = body
            .iter()
            .position(|l| matches!(declaration(l), Some(("reg" | "wire", n)) if n == name));
        let memory_at = body
            .iter()
            .position(|l| memory(l).is_some_and(|(n, _, _)| n == name));
        match (signal, memory_at) {
            (Some(at), _) => {
                let line = &body[at];
                let indent = &line[..line.len() - line.trim_start().len()];
                body[at] = format!("{indent}output {}", line.trim_start());
            }
            (None, Some(at)) => {
                let (_, width, words) = memory(&body[at]).expect("found as a memory");
                let inner = format!("{name}{MEMORY_SUFFIX}");
                if body
                    .iter()
                    .any(|l| declaration(l).is_some_and(|(_, n)| n == inner))
                {
                    bail!("module {block} already declares {inner}: cannot bind the memory {name}");
                }
                body = body
                    .iter()
                    .map(|l| map_idents(l, |w| (w == name).then(|| inner.clone())))
                    .collect();
                body.insert(
                    at + 1,
                    format!("    output wire [{}:0] {name};", width * words - 1),
                );
                let all: Vec<String> = (0..words).rev().map(|k| format!("{inner}[{k}]")).collect();
                assigns.push(format!("    assign {name} = {{{}}};", all.join(", ")));
            }
            (None, None) => bail!(
                "the proof of {block} binds `{name}`, which is not a port, register, wire or \
                 memory of module {block}: renamed? (update its property file)"
            ),
        }
        exposed.push(name.as_str());
    }

    let mut out: Vec<String> = lines[..header].iter().map(|l| l.to_string()).collect();
    let all_ports: Vec<&str> = ports.iter().copied().chain(exposed).collect();
    out.push(format!(
        "{}({});",
        lines[header].split_once('(').expect("checked above").0,
        all_ports.join(",")
    ));
    out.extend(body);
    out.extend(assigns);
    out.extend(lines[end..].iter().map(|l| l.to_string()));
    Ok(out.join("\n") + "\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    const BLOCK: &str = "module counter(clock,count);
    input wire  clock;
    output reg  [1:0] count;
    reg  [3:0] total$q;
    reg [7:0] log [0:1];
    always @(posedge clock) log[0] <= total$q;
endmodule // counter
";

    fn properties(bound: &str) -> String {
        format!("module counter_properties;\n    counter dut (.clock(clk), // a port\n        .count(c){bound});\nendmodule\n")
    }

    #[test]
    fn names_are_the_instance_connections() {
        let text = properties(", .total$q(t), .log(l)");
        assert_eq!(
            bound_names(&text, "counter").unwrap(),
            ["clock", "count", "total$q", "log"]
        );
    }

    #[test]
    fn a_bound_register_and_memory_become_outputs() {
        let bound =
            bind_internals(BLOCK, "counter", &properties(", .total$q(t), .log(l)")).unwrap();
        assert!(bound.starts_with("module counter(clock,count,total$q,log);\n"));
        assert!(bound.contains("    output reg  [3:0] total$q;\n"));
        assert!(bound.contains("    reg [7:0] log$words [0:1];\n    output wire [15:0] log;\n"));
        assert!(bound.contains("log$words[0] <= total$q;"));
        assert!(bound.contains("    assign log = {log$words[1], log$words[0]};\nendmodule"));
    }

    #[test]
    fn ports_alone_change_nothing() {
        assert_eq!(
            bind_internals(BLOCK, "counter", &properties("")).unwrap(),
            BLOCK
        );
    }

    const PROBES: [Probe; 1] = [Probe {
        port: "f_total_odd",
        width: 2,
        terms: |lanes, _| vec![format!("total$q[{}]", lanes - 1), "count[0]".to_string()],
    }];

    /// A probe is an output port of the core's formal build, the sum of its
    /// terms for the lane count; then each name that the file's
    /// `` `define F_DUT_INTERNALS`` connects is bound as a block's is.
    #[test]
    fn a_core_gets_its_probes_and_its_bound_names() {
        // The harness's default first, then the property file's define.
        let properties = "`define F_DUT_INTERNALS\n    wire p;\n`define F_DUT_INTERNALS \\\n        , .f_total_odd(p) \\\n        , .total$q(t) // the total\n`include \"faxis_lanes_harness.vh\"\n    other o (.sum$q(x));\n";
        let build =
            formal_build(BLOCK, "counter", properties, &PROBES, 1, Profile::Rfc3629).unwrap();
        assert!(build.starts_with("module counter(clock,count,f_total_odd,total$q);\n"));
        assert!(build.contains("    output wire [1:0] f_total_odd;\n"));
        assert!(build.contains("    assign f_total_odd = (total$q[0]) + (count[0]);\nendmodule"));
        assert!(build.contains("    output reg  [3:0] total$q;\n"));
        // A core whose file binds nothing and has no probes is unchanged.
        assert_eq!(
            formal_build(BLOCK, "counter", "", &[], 1, Profile::Rfc3629).unwrap(),
            BLOCK
        );
    }

    #[test]
    fn a_probe_of_a_missing_name_is_an_error_naming_it() {
        let probes = [Probe {
            terms: |_, _| vec!["sum$q[0]".to_string()],
            ..PROBES[0]
        }];
        let err = formal_build(BLOCK, "counter", "", &probes, 1, Profile::Rfc3629).unwrap_err();
        assert!(err.to_string().contains("reads `sum$q`"), "{err}");
    }

    #[test]
    fn a_missing_name_is_an_error_naming_it() {
        let err = bind_internals(BLOCK, "counter", &properties(", .sum$q(t)")).unwrap_err();
        assert!(err.to_string().contains("binds `sum$q`"), "{err}");
        // A core's file, likewise, through a macro of another file.
        let core = "`define F_QUEUE , .sum$q(t)\n`define F_DUT_INTERNALS \\\n        `F_QUEUE\n";
        let err = formal_build(BLOCK, "counter", core, &[], 1, Profile::Rfc3629).unwrap_err();
        assert!(err.to_string().contains("binds `sum$q`"), "{err}");
    }
}
