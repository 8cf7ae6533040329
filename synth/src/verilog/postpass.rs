//! The text passes over rust-hdl's Verilog ([`super`] says why each is
//! needed): the split into modules, the widening casts, `!` for a bit's
//! `~`, bit 0 of a scalar, the literals' widths, identifier renaming and the unread
//! parameters. With [`super::flatten`], this is all the export rewrites.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::{anyhow, Result};

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
            module
                .lines
                .push(scalar_selects(&bit_nots(&line, &widths), &widths));
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

/// rust-hdl declares a `Bits<1>` as a scalar (`input wire s_axis_tkeep;`)
/// but writes its bit 0 as `s_axis_tkeep[0]`, which Icarus and Verilator
/// reject (a select of a scalar): a one-lane core's `tkeep` and lane
/// masks are such. Bit 0 of a one-bit name is the name.
pub fn scalar_selects(line: &str, widths: &BTreeMap<String, usize>) -> String {
    let continues = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find("[0]") {
        let name_at = rest[..at].trim_end_matches(continues).len();
        let scalar = at > name_at && widths.get(&rest[name_at..at]) == Some(&1);
        out += &rest[..at];
        out += if scalar { "" } else { "[0]" };
        rest = &rest[at + 3..];
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

    /// Bit 0 of a one-bit name is the name; of a vector, of a name of
    /// unknown width and any other bit, it stays.
    #[test]
    fn bit_zero_of_a_scalar_is_the_scalar() {
        let widths = BTreeMap::from([("k".to_string(), 1), ("v$q".to_string(), 8)]);
        assert_eq!(
            scalar_selects("a = {t, k[0], v$q[0]};", &widths),
            "a = {t, k, v$q[0]};"
        );
        for kept in ["a = v$q[0];", "a = m[0];", "a = k[1];", "a = b[k[0]];"] {
            let expected = kept.replace("k[0]", "k");
            assert_eq!(scalar_selects(kept, &widths), expected);
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
