//! Expressions of the Verilog that rust-hdl emits, and their exact re-sizing.
//!
//! rust-hdl writes every integer literal as 32 bits (`x << 32'h6`,
//! `x[32'h7]`, `x == 32'h3`), a `bit_cast` as `((x) & N'hMASK)`, and enum
//! values as unsized parameters. Verilog gives all of these a well-defined
//! meaning (IEEE 1364-2005 §5.4: operands are extended to the width of their
//! context, then the result is truncated to the target), but lint tools warn
//! about every implicit extension or truncation. This module parses each
//! expression, works out the width that Verilog evaluates it at, and writes
//! it back with every operand of every operator at exactly that width, so the
//! meaning is unchanged and no width is implicit.
//!
//! The one function doing the work is [`Sizer::emit`]. Its contract, on which
//! every rewrite below rests:
//!
//! > `emit(e, W)` is text whose self-determined width is exactly `W` and
//! > whose value is the low `W` bits of `e` evaluated (as Verilog would) in
//! > any context at least `max(W, width(e))` bits wide.
//!
//! An assignment `lhs = e` evaluates `e` at `max(width(lhs), width(e))` and
//! keeps the low `width(lhs)` bits (§5.5.1), so writing `lhs = emit(e,
//! width(lhs))` is exact by the contract. The rules that keep the contract:
//!
//! * `+ - * & | ^ ~ <<`: the low `W` bits of the result depend only on the
//!   low `W` bits of the operands (carries and left shifts move information
//!   upward only), so each operand is emitted at `W`.
//! * `x & N'h(2**N-1)` (how rust-hdl writes `bit_cast::<N>`) keeps the low
//!   `N` bits of `x`: at `W <= N` it is `emit(x, W)`, at `W > N` it is
//!   `emit(x, N)` zero-extended.
//! * An identifier narrower than `W` is zero-extended with `{{k{1'b0}}, x}`:
//!   every signal rust-hdl declares is unsigned, and Verilog extends unsigned
//!   operands with zeros. One wider than `W` is part-selected `x[W-1:0]`.
//! * A literal is rewritten as a `W`-bit literal of its value modulo 2**W.
//! * `>>`, comparisons, reductions and logical operators depend on high bits,
//!   so their operands are emitted at their own (self-determined) width; a
//!   comparison may use a narrower width when both sides provably have only
//!   zeros above it ([`Sizer::zero_above`]), which is how `x == 32'h3` becomes
//!   `x == 5'h3`. A result that must be narrower than its natural width goes
//!   through a module-local `function` that takes the low bits (Verilog-2005
//!   cannot part-select an expression).
//! * A shift amount and an index are self-determined (§5.4.1), so a literal
//!   there is written with just the bits its value needs (`<< 3'd6`, `[7]`).
//!
//! Anything outside the subset rust-hdl emits (signed arithmetic,
//! concatenation, `?:`) is an error, never a silent guess.

use std::collections::BTreeMap;

use anyhow::{anyhow, bail, Result};

// ---------------------------------------------------------------- tokens

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Ident(String),
    /// `$signed`, `$unsigned`, ...
    System(String),
    /// A literal: `Some(width)` when sized.
    Number {
        width: Option<usize>,
        value: u128,
    },
    Op(&'static str),
}

const OPS: [&str; 30] = [
    "<<<", ">>>", "===", "!==", "+:", "-:", "<<", ">>", "==", "!=", "<=", ">=", "&&", "||", "~&",
    "~|", "~^", "^~", "(", ")", "[", "]", "{", "}", ",", ":", "?", "+", "-", "*",
];
const SINGLE: &str = "&|^~!<>=/%@#;";

pub fn tokenize(text: &str) -> Result<Vec<Tok>> {
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut out = Vec::new();
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_alphabetic() || c == '_' || c == '$' {
            let start = i;
            i += 1;
            while i < chars.len()
                && (chars[i].is_ascii_alphanumeric() || chars[i] == '_' || chars[i] == '$')
            {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            if c == '$' {
                out.push(Tok::System(word));
            } else {
                out.push(Tok::Ident(word));
            }
        } else if c.is_ascii_digit() || c == '\'' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '_') {
                i += 1;
            }
            let size: String = chars[start..i].iter().filter(|c| **c != '_').collect();
            if i < chars.len() && chars[i] == '\'' {
                i += 1;
                let base = chars
                    .get(i)
                    .ok_or_else(|| anyhow!("truncated literal in `{text}`"))?
                    .to_ascii_lowercase();
                i += 1;
                let radix = match base {
                    'h' => 16,
                    'b' => 2,
                    'd' => 10,
                    'o' => 8,
                    _ => bail!("unsupported literal base '{base}' in `{text}`"),
                };
                let dstart = i;
                while i < chars.len() && (chars[i].is_ascii_hexdigit() || chars[i] == '_') {
                    i += 1;
                }
                let digits: String = chars[dstart..i].iter().filter(|c| **c != '_').collect();
                let value = u128::from_str_radix(&digits, radix)
                    .map_err(|e| anyhow!("literal `{digits}` in `{text}`: {e}"))?;
                let width = if size.is_empty() {
                    None
                } else {
                    Some(size.parse::<usize>()?)
                };
                if let Some(w) = width {
                    if w == 0 || w > 128 {
                        bail!("literal width {w} in `{text}` is outside 1..=128");
                    }
                    if w < 128 && value >> w != 0 {
                        bail!("literal `{w}'..{value:x}` in `{text}` does not fit its width");
                    }
                }
                out.push(Tok::Number { width, value });
            } else {
                out.push(Tok::Number {
                    width: None,
                    value: size.parse::<u128>()?,
                });
            }
        } else {
            let rest: String = chars[i..chars.len().min(i + 3)].iter().collect();
            if let Some(op) = OPS.iter().find(|op| rest.starts_with(**op)) {
                out.push(Tok::Op(op));
                i += op.len();
            } else if let Some(p) = SINGLE.find(c) {
                out.push(Tok::Op(&SINGLE[p..p + 1]));
                i += 1;
            } else {
                bail!("unexpected character '{c}' in `{text}`");
            }
        }
    }
    Ok(out)
}

// ---------------------------------------------------------------- syntax

#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Ident(String),
    /// A literal; `width` is `None` for an unsized (32-bit) one.
    Lit {
        width: Option<usize>,
        value: u128,
    },
    Unary(&'static str, Box<Expr>),
    Binary(Box<Expr>, &'static str, Box<Expr>),
    /// `base[index]`
    Index(Box<Expr>, Box<Expr>),
    /// `base[(offset)+:(width)]`
    Slice(Box<Expr>, Box<Expr>, usize),
    System(String, Box<Expr>),
}

/// Binary operators by Verilog precedence, loosest first (IEEE 1364-2005
/// Table 5-4).
const LEVELS: [&[&str]; 10] = [
    &["||"],
    &["&&"],
    &["|"],
    &["^", "^~", "~^"],
    &["&"],
    &["==", "!=", "===", "!=="],
    &["<", "<=", ">", ">="],
    &["<<", ">>", "<<<", ">>>"],
    &["+", "-"],
    &["*", "/", "%"],
];

pub struct Parser {
    toks: Vec<Tok>,
    pos: usize,
}

impl Parser {
    pub fn new(toks: Vec<Tok>) -> Self {
        Parser { toks, pos: 0 }
    }

    pub fn parse_all(text: &str) -> Result<Expr> {
        let mut p = Parser::new(tokenize(text)?);
        let e = p.expr()?;
        if p.pos != p.toks.len() {
            bail!("trailing tokens after expression in `{text}`");
        }
        Ok(e)
    }

    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }

    fn eat(&mut self, op: &str) -> bool {
        if self.peek() == Some(&Tok::Op(op_static(op))) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, op: &str) -> Result<()> {
        if self.eat(op) {
            Ok(())
        } else {
            bail!("expected '{op}', found {:?}", self.peek())
        }
    }

    pub fn expr(&mut self) -> Result<Expr> {
        if let Some(Tok::Op("?")) = self.toks.get(self.pos) {
            bail!("'?' without a condition");
        }
        let e = self.binary(0)?;
        if self.peek() == Some(&Tok::Op("?")) {
            bail!("the conditional operator is not in the subset rust-hdl emits");
        }
        Ok(e)
    }

    fn binary(&mut self, level: usize) -> Result<Expr> {
        if level == LEVELS.len() {
            return self.unary();
        }
        let mut left = self.binary(level + 1)?;
        loop {
            let op = match self.peek() {
                Some(Tok::Op(op)) if LEVELS[level].contains(op) => *op,
                _ => break,
            };
            self.pos += 1;
            let right = self.binary(level + 1)?;
            left = Expr::Binary(Box::new(left), op, Box::new(right));
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Expr> {
        for op in ["~", "!", "-", "&", "|", "^", "+"] {
            if self.eat(op) {
                let x = self.unary()?;
                return Ok(Expr::Unary(op_static(op), Box::new(x)));
            }
        }
        if self.eat("~&") || self.eat("~|") || self.eat("~^") || self.eat("^~") {
            bail!("negated reductions are not in the subset rust-hdl emits");
        }
        self.postfix()
    }

    fn postfix(&mut self) -> Result<Expr> {
        let mut e = self.primary()?;
        while self.eat("[") {
            let index = self.expr()?;
            if self.eat("+:") {
                let width = match self.expr()? {
                    Expr::Lit { value, .. } => value as usize,
                    w => bail!("slice width {w:?} is not a literal"),
                };
                self.expect("]")?;
                e = Expr::Slice(Box::new(e), Box::new(index), width);
            } else if self.eat(":") {
                let lsb = self.expr()?;
                self.expect("]")?;
                let (Expr::Lit { value: msb, .. }, Expr::Lit { value: lsb, .. }) = (&index, &lsb)
                else {
                    bail!("part-select bounds are not literals");
                };
                if msb < lsb {
                    bail!("part-select [{msb}:{lsb}] is reversed");
                }
                e = Expr::Slice(
                    Box::new(e),
                    Box::new(Expr::Lit {
                        width: None,
                        value: *lsb,
                    }),
                    (msb - lsb + 1) as usize,
                );
            } else {
                self.expect("]")?;
                e = Expr::Index(Box::new(e), Box::new(index));
            }
        }
        Ok(e)
    }

    fn primary(&mut self) -> Result<Expr> {
        let tok = self.peek().cloned();
        match tok {
            Some(Tok::Ident(name)) => {
                self.pos += 1;
                Ok(Expr::Ident(name))
            }
            Some(Tok::Number { width, value }) => {
                self.pos += 1;
                Ok(Expr::Lit { width, value })
            }
            Some(Tok::System(name)) => {
                self.pos += 1;
                self.expect("(")?;
                let x = self.expr()?;
                self.expect(")")?;
                Ok(Expr::System(name, Box::new(x)))
            }
            Some(Tok::Op("(")) => {
                self.pos += 1;
                let e = self.expr()?;
                self.expect(")")?;
                Ok(e)
            }
            Some(Tok::Op("{")) => bail!("concatenation is not in the subset rust-hdl emits"),
            other => bail!("unexpected {other:?} in an expression"),
        }
    }
}

fn op_static(op: &str) -> &'static str {
    OPS.iter()
        .copied()
        .find(|o| *o == op)
        .or_else(|| {
            SINGLE
                .find(op)
                .filter(|_| op.len() == 1)
                .map(|p| &SINGLE[p..p + 1])
        })
        .unwrap_or("?")
}

// ---------------------------------------------------------------- widths

fn bits_of(value: u128) -> usize {
    (128 - value.leading_zeros() as usize).max(1)
}

fn ring(op: &str) -> bool {
    matches!(op, "+" | "-" | "*" | "&" | "|" | "^")
}

fn compare(op: &str) -> bool {
    matches!(op, "==" | "!=" | "<" | "<=" | ">" | ">=")
}

fn mask(width: usize) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

/// `N'h(2**N - 1)`: how rust-hdl writes the mask of `bit_cast::<N>`.
fn all_ones(e: &Expr) -> Option<usize> {
    match e {
        Expr::Lit {
            width: Some(w),
            value,
        } if *value == mask(*w) => Some(*w),
        _ => None,
    }
}

/// A literal written with exactly `width` bits.
pub fn literal(width: usize, value: u128) -> String {
    let value = value & mask(width);
    if width == 1 {
        format!("1'b{value}")
    } else {
        format!("{width}'h{value:x}")
    }
}

/// Zero-extends `text`, whose self-determined width is `from`, to `to`.
fn zext(text: String, from: usize, to: usize) -> String {
    match to.cmp(&from) {
        std::cmp::Ordering::Equal => text,
        std::cmp::Ordering::Greater => format!("{{{{{}{{1'b0}}}}, {text}}}", to - from),
        std::cmp::Ordering::Less => unreachable!("zext narrows"),
    }
}

/// Widths of the names a module declares, and the narrowing functions it
/// needs.
pub struct Sizer<'a> {
    pub widths: &'a BTreeMap<String, usize>,
    /// `(from, to)` for each `low_<to>_of_<from>` function used.
    pub narrowers: std::collections::BTreeSet<(usize, usize)>,
}

impl<'a> Sizer<'a> {
    pub fn new(widths: &'a BTreeMap<String, usize>) -> Self {
        Sizer {
            widths,
            narrowers: Default::default(),
        }
    }

    fn ident_width(&self, name: &str) -> Result<usize> {
        self.widths
            .get(name)
            .copied()
            .ok_or_else(|| anyhow!("`{name}` is not declared in this module"))
    }

    /// The self-determined width (IEEE 1364-2005 Table 5-22).
    pub fn width(&self, e: &Expr) -> Result<usize> {
        Ok(match e {
            Expr::Ident(name) => self.ident_width(name)?,
            Expr::Lit { width, .. } => width.unwrap_or(32),
            Expr::Unary(op, x) => match *op {
                "~" | "-" | "+" => self.width(x)?,
                _ => 1,
            },
            Expr::Binary(l, op, r) => {
                if ring(op) {
                    self.width(l)?.max(self.width(r)?)
                } else if matches!(*op, "<<" | ">>") {
                    self.width(l)?
                } else {
                    1
                }
            }
            Expr::Index(..) => 1,
            Expr::Slice(_, _, w) => *w,
            Expr::System(name, _) => bail!("{name} is not in the subset rust-hdl emits"),
        })
    }

    /// A bound `z` such that, in any context at least as wide as the
    /// expression, every bit of its value at position `z` or above is zero;
    /// `None` when there is no such bound (`~`, `-`).
    pub fn zero_above(&self, e: &Expr) -> Result<Option<usize>> {
        Ok(match e {
            Expr::Ident(name) => Some(self.ident_width(name)?),
            Expr::Lit { value, .. } => Some(bits_of(*value)),
            Expr::Index(..) => Some(1),
            Expr::Slice(_, _, w) => Some(*w),
            Expr::Unary(op, _) if matches!(*op, "&" | "|" | "^" | "!") => Some(1),
            Expr::Unary(..) => None,
            Expr::Binary(l, op, r) => {
                let (zl, zr) = (self.zero_above(l)?, self.zero_above(r)?);
                match *op {
                    "&" => match (zl, zr) {
                        (Some(a), Some(b)) => Some(a.min(b)),
                        (a, b) => a.or(b),
                    },
                    "|" | "^" => zl.zip(zr).map(|(a, b)| a.max(b)),
                    "+" => zl.zip(zr).map(|(a, b)| a.max(b) + 1),
                    "*" => zl.zip(zr).map(|(a, b)| a + b),
                    "<<" => match (zl, r.as_ref()) {
                        (Some(a), Expr::Lit { value, .. }) if *value < 128 => {
                            Some(a + *value as usize)
                        }
                        _ => None,
                    },
                    ">>" => zl,
                    op if compare(op) || op == "&&" || op == "||" => Some(1),
                    _ => None,
                }
            }
            Expr::System(..) => None,
        })
    }

    /// `e` as text whose self-determined width is exactly `w`; see the module
    /// documentation for the contract.
    pub fn emit(&mut self, e: &Expr, w: usize) -> Result<String> {
        Ok(match e {
            Expr::Ident(name) => {
                let have = self.ident_width(name)?;
                if have > w {
                    if have == 1 {
                        unreachable!()
                    }
                    if w == 1 {
                        format!("{name}[0]")
                    } else {
                        format!("{name}[{}:0]", w - 1)
                    }
                } else {
                    zext(name.clone(), have, w)
                }
            }
            Expr::Lit { value, .. } => literal(w, *value),
            Expr::Unary(op, x) if matches!(*op, "~" | "-") => {
                format!("{op}{}", self.operand(x, w, Parent::Unary)?)
            }
            Expr::Unary("+", x) => self.emit(x, w)?,
            Expr::Binary(l, "&", r) if all_ones(r).or(all_ones(l)).is_some() => {
                // `x & N'h(2**N-1)`: the low N bits of x.
                let (x, n) = match all_ones(r) {
                    Some(n) => (l, n),
                    None => (r, all_ones(l).unwrap()),
                };
                if w <= n {
                    self.emit(x, w)?
                } else {
                    let inner = self.emit(x, n)?;
                    zext(inner, n, w)
                }
            }
            Expr::Binary(l, op, r) if ring(op) => {
                let left = self.operand(l, w, Parent::Left(op))?;
                let right = self.operand(r, w, Parent::Right)?;
                format!("{left} {op} {right}")
            }
            Expr::Binary(l, "<<", r) => {
                let left = self.operand(l, w, Parent::Left("<<"))?;
                let amount = self.self_sized(r, Parent::Right)?;
                format!("{left} << {amount}")
            }
            Expr::Binary(_, op, _) if *op == ">>" => {
                let natural = self.width(e)?;
                let text = self.natural(e)?;
                self.resize(text, natural, w)
            }
            _ => {
                // Results that are one bit wide, or depend on high bits.
                let natural = self.width(e)?;
                let text = self.natural(e)?;
                self.resize(text, natural, w)
            }
        })
    }

    /// `text` (self-determined width `from`) at width `to`.
    fn resize(&mut self, text: String, from: usize, to: usize) -> String {
        if to >= from {
            zext(text, from, to)
        } else {
            self.narrowers.insert((from, to));
            format!("{}({text})", narrower_name(from, to))
        }
    }

    /// An operator's operand at width `w`, parenthesised as [`wrap`] says.
    fn operand(&mut self, e: &Expr, w: usize, parent: Parent) -> Result<String> {
        let text = self.emit(e, w)?;
        Ok(wrap(text, e, parent))
    }

    /// A self-determined operand (shift amount, index): a literal gets only
    /// the bits its value needs.
    fn self_sized(&mut self, e: &Expr, parent: Parent) -> Result<String> {
        match e {
            Expr::Lit { value, .. } => Ok(format!("{}'d{value}", bits_of(*value))),
            _ => {
                let w = self.width(e)?;
                self.operand(e, w, parent)
            }
        }
    }

    /// A condition (if, `&&`, `||`, `!`): one bit, true when nonzero.
    pub fn condition(&mut self, e: &Expr) -> Result<String> {
        let w = self.width(e)?;
        let z = self.zero_above(e)?.unwrap_or(w).min(w);
        if w == 1 {
            self.emit(e, 1)
        } else {
            // Nonzero at w bits is nonzero at z bits: bits z.. are zero.
            let text = self.operand(e, z, Parent::Left("!="))?;
            Ok(format!("{text} != {}", literal(z, 0)))
        }
    }

    /// The width at which both sides of a comparison (or a case) can be
    /// compared without changing the result.
    pub fn compare_width(&self, sides: &[&Expr]) -> Result<usize> {
        let mut natural = 0;
        let mut bound = Some(0usize);
        for side in sides {
            natural = natural.max(self.width(side)?);
            bound = bound.zip(self.zero_above(side)?).map(|(a, b)| a.max(b));
        }
        Ok(bound.map_or(natural, |b| b.min(natural).max(1)))
    }

    /// An expression at its natural width, for operators whose result
    /// depends on the high bits of their operands.
    fn natural(&mut self, e: &Expr) -> Result<String> {
        Ok(match e {
            Expr::Binary(l, op, r) if compare(op) => {
                let m = self.compare_width(&[l, r])?;
                let left = self.operand(l, m, Parent::Left(op))?;
                let right = self.operand(r, m, Parent::Right)?;
                format!("{left} {op} {right}")
            }
            Expr::Binary(l, op, r) if *op == "&&" || *op == "||" => {
                let left = self.condition(l)?;
                let right = self.condition(r)?;
                let left = wrap_condition(left, l, Parent::Left(op));
                let right = wrap_condition(right, r, Parent::Right);
                format!("{left} {op} {right}")
            }
            Expr::Binary(l, ">>", r) => {
                let w = self.width(l)?;
                let left = self.operand(l, w, Parent::Left(">>"))?;
                let amount = self.self_sized(r, Parent::Right)?;
                format!("{left} >> {amount}")
            }
            Expr::Binary(_, op, _) => bail!("operator {op} is not in the subset rust-hdl emits"),
            Expr::Unary("!", x) => {
                let c = self.condition(x)?;
                if c.contains(' ') {
                    format!("!({c})")
                } else {
                    format!("!{c}")
                }
            }
            Expr::Unary(op, x) => {
                // Reductions: the operand at its own width.
                let w = self.width(x)?;
                format!("{op}{}", self.operand(x, w, Parent::Unary)?)
            }
            Expr::Index(base, index) => {
                let base_text = self.base(base)?;
                let index_text = match index.as_ref() {
                    Expr::Lit { value, .. } => format!("{value}"),
                    other => {
                        let bw = self.width(base)?;
                        let need = bits_of(bw as u128 - 1);
                        let iw = self.width(other)?;
                        let z = self.zero_above(other)?.unwrap_or(iw);
                        // Index with the bits that address the base, when the
                        // index provably has no higher bits set.
                        self.emit(other, if z <= need { need } else { iw })?
                    }
                };
                format!("{base_text}[{index_text}]")
            }
            Expr::Slice(base, offset, width) => {
                let base_text = self.base(base)?;
                let offset_text = match offset.as_ref() {
                    Expr::Lit { value, .. } => format!("{value}"),
                    other => {
                        let ow = self.width(other)?;
                        self.emit(other, ow)?
                    }
                };
                format!("{base_text}[({offset_text})+:({width})]")
            }
            other => bail!("cannot size {other:?}"),
        })
    }

    fn base(&self, e: &Expr) -> Result<String> {
        match e {
            Expr::Ident(name) => Ok(name.clone()),
            other => bail!("select of a non-identifier {other:?}"),
        }
    }
}

pub fn narrower_name(from: usize, to: usize) -> String {
    format!("low_{to}_of_{from}")
}

/// A Verilog-2005 function returning the low `to` bits of a `from`-bit value:
/// the only way to truncate an expression that is not a plain identifier.
/// The bits it drops go to `unused_high`, a name Verilator's default
/// `--unused-regexp` (`*unused*`) recognises as deliberately unread.
pub fn narrower(from: usize, to: usize) -> String {
    let name = narrower_name(from, to);
    let range = |w: usize| {
        if w == 1 {
            String::new()
        } else {
            format!("[{}:0] ", w - 1)
        }
    };
    format!(
        "function {}{name};\n        input {}x;\n        reg {}unused_high;\n        begin\n            \
         {{unused_high, {name}}} = x;\n        end\n    endfunction",
        range(to),
        range(from),
        range(from - to),
    )
}

/// Where an operand stands.
#[derive(Copy, Clone)]
enum Parent {
    Unary,
    Left(&'static str),
    Right,
}

/// Parentheses around a compound operand: always, except for the left
/// operand of the same operator (`a | b | c`, which Verilog reads as
/// `(a | b) | c`). Mixed operators always get them, for the reader, so the
/// text never leans on Verilog's precedence table.
fn wrap(text: String, e: &Expr, parent: Parent) -> String {
    let compound = matches!(e, Expr::Binary(..)) && !is_wrapped(&text);
    let chain = matches!((e, parent), (Expr::Binary(_, op, _), Parent::Left(p)) if *op == p);
    if compound && !chain {
        format!("({text})")
    } else {
        text
    }
}

/// [`wrap`] for an operand of `&&`, `||`: a non-1-bit operand became
/// `x != 0`, which is compound too.
fn wrap_condition(text: String, e: &Expr, parent: Parent) -> String {
    let chain = matches!((e, parent), (Expr::Binary(_, op, _), Parent::Left(p)) if *op == p);
    if text.contains(' ') && !is_wrapped(&text) && !chain {
        format!("({text})")
    } else {
        text
    }
}

/// `text` is one parenthesised group, or a concatenation.
fn is_wrapped(text: &str) -> bool {
    let open = match text.chars().next() {
        Some('(') => '(',
        Some('{') => '{',
        _ => return false,
    };
    let close = if open == '(' { ')' } else { '}' };
    let mut depth = 0;
    for (i, c) in text.char_indices() {
        if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return i == text.len() - 1;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sizer_widths() -> BTreeMap<String, usize> {
        [
            ("a", 8),
            ("b", 8),
            ("c", 5),
            ("wide", 32),
            ("bit", 1),
            ("s$q", 3),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
    }

    fn emit(text: &str, w: usize) -> String {
        let widths = sizer_widths();
        let mut s = Sizer::new(&widths);
        s.emit(&Parser::parse_all(text).unwrap(), w).unwrap()
    }

    #[test]
    fn cast_widening_is_zero_extension() {
        assert_eq!(emit("((a) & 32'hffffffff)", 32), "{{24{1'b0}}, a}");
        assert_eq!(emit("((wide) & 8'hff)", 8), "wide[7:0]");
        assert_eq!(emit("((wide) & 8'hff)", 32), "{{24{1'b0}}, wide[7:0]}");
    }

    #[test]
    fn shift_amounts_and_indices_are_self_sized() {
        assert_eq!(
            emit("((wide << 32'h6) | a) & wide", 32),
            "((wide << 3'd6) | {{24{1'b0}}, a}) & wide"
        );
        assert_eq!(emit("~a[32'h7]", 1), "~a[7]");
    }

    #[test]
    fn literals_take_the_context_width() {
        assert_eq!(emit("s$q - 32'h1", 3), "s$q - 3'h1");
        assert_eq!(emit("64'h0", 5), "5'h0");
        assert_eq!(emit("c == 32'h3", 1), "c == 5'h3");
        assert_eq!(emit("c == 32'h40", 1), "{{2{1'b0}}, c} == 7'h40");
    }

    #[test]
    fn comparison_chains_keep_their_shape() {
        assert_eq!(
            emit("(c == 5'h1) | (c == 5'h2) | bit", 1),
            "(c == 5'h1) | (c == 5'h2) | bit"
        );
        assert_eq!(
            emit("c == 5'h1 || c == 5'h2", 1),
            "(c == 5'h1) || (c == 5'h2)"
        );
    }

    #[test]
    fn narrowing_a_compound_expression_uses_a_function() {
        let widths = sizer_widths();
        let mut s = Sizer::new(&widths);
        let e = Parser::parse_all("wide >> 32'h4").unwrap();
        assert_eq!(s.emit(&e, 8).unwrap(), "low_8_of_32(wide >> 3'd4)");
        assert!(s.narrowers.contains(&(32, 8)));
    }

    #[test]
    fn outside_the_subset_is_an_error() {
        let widths = sizer_widths();
        let mut s = Sizer::new(&widths);
        for text in ["$signed(a)", "{a, b}", "a ? b : a"] {
            let r = Parser::parse_all(text).and_then(|e| s.emit(&e, 8));
            assert!(r.is_err(), "{text}");
        }
    }
}
