//! Signals read by path through rust-hdl's reflection: what a waveform
//! records of a core, cycle by cycle.

use anyhow::{bail, Result};
use bitvec::prelude::*;
use rust_hdl::core::prelude::*;

use super::*;

/// The values of some signals in one cycle, each in whole 32-bit words,
/// least significant first, with the bits above its width zero: a layout
/// that a compiled model fills with plain copies and that compares word by
/// word, so that recording a waveform costs little.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Values {
    words: Vec<u32>,
    /// Where each signal's words start; one more entry for the end.
    starts: Vec<usize>,
    widths: Vec<usize>,
}

impl Values {
    /// All zero, for signals of `widths`.
    pub fn new(widths: &[usize]) -> Values {
        let mut starts = vec![0];
        for w in widths {
            starts.push(starts.last().unwrap() + w.div_ceil(32));
        }
        Values {
            words: vec![0; *starts.last().unwrap()],
            starts,
            widths: widths.to_vec(),
        }
    }

    /// How many signals.
    pub fn len(&self) -> usize {
        self.widths.len()
    }

    pub fn is_empty(&self) -> bool {
        self.widths.is_empty()
    }

    /// Signal `i`'s value, bit 0 first.
    pub fn get(&self, i: usize) -> &BitSlice<u32, Lsb0> {
        &self.words(i).view_bits()[..self.widths[i]]
    }

    /// Signal `i`'s words.
    #[inline]
    pub fn words(&self, i: usize) -> &[u32] {
        &self.words[self.starts[i]..self.starts[i + 1]]
    }

    /// Signal `i`'s width, in bits.
    #[inline]
    pub fn width(&self, i: usize) -> usize {
        self.widths[i]
    }

    /// The signals whose values differ from those in `before` (values of
    /// the same signals), in order. All the words are compared at once,
    /// then each word that differs names its signal: this runs on every
    /// recorded cycle, where few of the signals change.
    pub fn changed<'a>(&'a self, before: &'a Values) -> impl Iterator<Item = usize> + 'a {
        debug_assert_eq!(self.widths, before.widths, "values of other signals");
        let (mut signal, mut named) = (0, None);
        (self.words.iter().zip(&before.words).enumerate())
            .filter(|(_, (now, then))| now != then)
            .filter_map(move |(word, _)| {
                while self.starts[signal + 1] <= word {
                    signal += 1;
                }
                (named != Some(signal)).then(|| {
                    named = Some(signal);
                    signal
                })
            })
    }

    /// Takes the values of `other`, values of the same signals, in place
    /// (a waveform keeps the last cycle's values so, on every recorded
    /// cycle).
    pub fn copy_from(&mut self, other: &Values) {
        debug_assert_eq!(self.widths, other.widths, "values of other signals");
        self.words.copy_from_slice(&other.words);
    }

    /// Every word, signal after signal: what a compiled model writes into.
    pub fn all_words_mut(&mut self) -> &mut [u32] {
        &mut self.words
    }

    /// Sets signal `i` to `bits`, bit 0 first, a word at a time (bitvec's
    /// bit references cost several times more, on every signal of every
    /// recorded cycle of rust-hdl's engine).
    fn set(&mut self, i: usize, bits: impl Iterator<Item = bool>) {
        let width = self.widths[i];
        let words = &mut self.words[self.starts[i]..self.starts[i + 1]];
        words.fill(0);
        for (bit, value) in bits.take(width).enumerate() {
            words[bit / 32] |= u32::from(value) << (bit % 32);
        }
    }
}

/// Writes `value` in hexadecimal, most significant digit first, with every
/// digit of its width (Verilog's `%h` and `$fscanf("%h")` read it).
pub fn to_hex(value: &BitSlice<u32, Lsb0>) -> String {
    let digits = value.len().div_ceil(4).max(1);
    (0..digits)
        .rev()
        .map(|d| {
            let nibble = value[4 * d..value.len().min(4 * d + 4)].load_le::<u8>();
            char::from_digit(u32::from(nibble), 16).unwrap()
        })
        .collect()
}

/// Some signals of a block, chosen by their paths (`decoder.bytes_left.q`,
/// or a port's name) and read through rust-hdl's reflection in one walk of
/// the block, so that a harness can record any signal without naming its
/// Rust type.
pub struct Signals {
    /// The paths, in the order they were asked for.
    pub paths: Vec<String>,
    pub widths: Vec<usize>,
    /// For each atom of the walk, in walk order, which path it is.
    slot_of_atom: Vec<Option<usize>>,
}

/// A walk of a block that tells each atom's path.
struct Walk<F: FnMut(&str, &dyn Atom)> {
    scopes: Vec<String>,
    visit: F,
}

impl<F: FnMut(&str, &dyn Atom)> Probe for Walk<F> {
    fn visit_start_scope(&mut self, name: &str, _node: &dyn Block) {
        self.scopes.push(name.to_string());
    }
    fn visit_end_scope(&mut self, _name: &str, _node: &dyn Block) {
        self.scopes.pop();
    }
    // A bundle (`LogicInterface`) is a namespace: its signals are
    // `block.bundle.signal`.
    fn visit_start_namespace(&mut self, name: &str, _node: &dyn Block) {
        self.scopes.push(name.to_string());
    }
    fn visit_end_namespace(&mut self, _name: &str, _node: &dyn Block) {
        self.scopes.pop();
    }
    fn visit_atom(&mut self, name: &str, signal: &dyn Atom) {
        // The first scope is the top block itself; paths start below it.
        let path = self.scopes[1..]
            .iter()
            .map(String::as_str)
            .chain([name])
            .collect::<Vec<_>>()
            .join(".");
        (self.visit)(&path, signal);
    }
}

/// The path of every signal of `block`, in walk order: its ports by name,
/// and the signals of its blocks and bundles below them
/// (`decoder.bytes_left.q`, `classifier.classified.in_bound`).
pub fn signal_paths(block: &dyn Block) -> Vec<String> {
    let mut paths = Vec::new();
    let mut walk = Walk {
        scopes: Vec::new(),
        visit: |path: &str, _: &dyn Atom| paths.push(path.to_string()),
    };
    block.accept("top", &mut walk);
    paths
}

impl Signals {
    /// Finds `paths` in `block`; an unknown path is an error that names it.
    pub fn find(block: &dyn Block, paths: &[String]) -> Result<Signals> {
        let mut widths = vec![None; paths.len()];
        let mut slot_of_atom = Vec::new();
        let mut walk = Walk {
            scopes: Vec::new(),
            visit: |path: &str, atom: &dyn Atom| {
                let slot = paths.iter().position(|p| p == path);
                if let Some(slot) = slot {
                    widths[slot] = Some(atom.bits());
                }
                slot_of_atom.push(slot);
            },
        };
        block.accept("top", &mut walk);
        let widths = paths
            .iter()
            .zip(widths)
            .map(|(path, width)| match width {
                Some(width) => Ok(width),
                None => bail!("the design has no signal '{path}'"),
            })
            .collect::<Result<_>>()?;
        Ok(Signals {
            paths: paths.to_vec(),
            widths,
            slot_of_atom,
        })
    }

    /// Values for these signals, all zero.
    pub fn values(&self) -> Values {
        Values::new(&self.widths)
    }

    /// Reads every signal's current value into `values` (made by
    /// [`Signals::values`]).
    pub fn read(&self, block: &dyn Block, values: &mut Values) {
        /// The walk that reads: atoms are known by their position alone, so
        /// it builds no path.
        struct Read<'a> {
            slot_of_atom: &'a [Option<usize>],
            atoms: usize,
            values: &'a mut Values,
        }
        impl Probe for Read<'_> {
            fn visit_atom(&mut self, _name: &str, signal: &dyn Atom) {
                if let Some(Some(slot)) = self.slot_of_atom.get(self.atoms) {
                    read_atom(signal, self.values, *slot);
                }
                self.atoms += 1;
            }
        }
        block.accept(
            "top",
            &mut Read {
                slot_of_atom: &self.slot_of_atom,
                atoms: 0,
                values,
            },
        );
    }
}

/// The value of one atom, bit 0 first. Enums (rust-hdl shows them to VCD
/// as names) are read as their codes, which is what the Verilog carries.
fn read_atom(atom: &dyn Atom, values: &mut Values, slot: usize) {
    let one = |v: &rust_hdl_vcd::Value| *v == rust_hdl_vcd::Value::V1;
    match atom.vcd() {
        VCDValue::Single(bit) => values.set(slot, std::iter::once(one(&bit))),
        VCDValue::Vector(bits) => values.set(slot, bits.iter().rev().map(one)),
        VCDValue::String(_) | VCDValue::Composite(_) => {
            let code = atom.verilog().as_usize();
            values.set(slot, (0..atom.bits()).map(|i| code >> i & 1 == 1));
        }
    }
}

/// What a waveform of `core` shows, in scope order: every port but the
/// clock (which a recorder draws itself), then the core's named state
/// ([`Core::STATE`]). Every block of a core has the same structure, so they
/// are found in a block of their own and read any of them.
pub fn probes<C: Core>(core: &C) -> Result<Signals> {
    let uut = core.block();
    let paths: Vec<String> = ports(&uut)?
        .into_iter()
        .filter(|p| p.role != Role::Clock)
        .map(|p| p.name)
        .chain(C::STATE.iter().map(|p| p.to_string()))
        .collect();
    Signals::find(&uut, &paths)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cores::utf8_decoder::Decoder;

    #[test]
    fn signals_read_ports_and_state_by_path() {
        let core = Decoder(Profile::Rfc3629);
        let mut uut = core.block();
        uut.connect_all();
        uut.s_axis_tdata.next = 0xC2u64.into();
        assert!(simulate(&mut uut, 8), "settles");
        let paths: Vec<String> = [
            "s_axis_tdata",
            "decoder.bytes_left.q",
            "classifier.read_class.q",
        ]
        .map(String::from)
        .to_vec();
        let signals = Signals::find(&uut, &paths).unwrap();
        assert_eq!(signals.widths, [8, 5, 5]);
        let mut values = signals.values();
        signals.read(&uut, &mut values);
        assert_eq!(to_hex(values.get(0)), "c2");
        assert_eq!(to_hex(values.get(1)), "00");
        let missing = Signals::find(&uut, &["decoder.nothing".into()]);
        assert!(missing.is_err());
    }

    #[test]
    fn hex_has_every_digit_of_the_width() {
        let mut v = Values::new(&[5, 12]);
        v.set(0, [true, false, false, false, true].into_iter());
        v.set(1, [true, false, false, false, true].into_iter());
        assert_eq!(to_hex(v.get(0)), "11");
        assert_eq!(to_hex(v.get(1)), "011");
    }
}
