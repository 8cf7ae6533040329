//! # A core, described once
//!
//! Every core of the family is an AXI4-Stream block: `clk`, `rst`, an input
//! stream `s_axis_*` and an output stream `m_axis_*`. A core is described by
//! an implementation of [`Core`], and nothing else:
//!
//! * **its rust-hdl block** ([`Core::block`]). The ports are the block's
//!   `In` and `Out` signals, found by rust-hdl's own reflection
//!   ([`Block::accept`]) in [`ports`]: their names, directions and widths
//!   are written once, in the block's struct. The AXI4-Stream naming gives
//!   each port its [`Role`];
//! * **how a beat goes in and comes out** ([`Core::drive`],
//!   [`Core::sample`]) and how `tuser` encodes the error kind
//!   ([`Word::of_unit`], [`Word::error`]);
//! * **the state its waveform shows** ([`Core::STATE`]), by the signals'
//!   paths inside the block;
//! * **its reference model**: [`crate::reference::Decoder`] of
//!   [`Core::profile`].
//!
//! From that one description come the cycle harness
//! ([`crate::harness::Harness`]), the streaming checker
//! ([`crate::checker`]), the VCD and its GTKWave save file
//! ([`crate::waveform`]), and, in `utf8hdl-synth`, the co-simulation
//! benches and the synthesis bench. A port added to the block reaches all
//! of them.

use std::fmt;

use anyhow::{bail, Result};
use bitvec::prelude::*;
use rust_hdl::core::prelude::*;
use utf8hdl_hdl::{ErrorKind, Profile, Utf8Decoder};

use crate::reference::Unit;

/// Which way a port points, seen from the core.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Dir {
    In,
    Out,
}

impl Dir {
    /// The Verilog keyword.
    pub fn verilog(self) -> &'static str {
        match self {
            Dir::In => "input",
            Dir::Out => "output",
        }
    }
}

/// What a port is for, from the AXI4-Stream naming convention.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Role {
    /// `clk`: the one clock, rising edge.
    Clock,
    /// `rst`: synchronous reset, active high.
    Reset,
    /// `s_axis_*`: the input stream.
    Input,
    /// `m_axis_*`: the output stream.
    Output,
}

/// One port of a core.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Port {
    pub name: String,
    pub dir: Dir,
    pub width: usize,
    pub role: Role,
}

impl Port {
    /// The Verilog range of a vector (`[7:0] `), or nothing for a bit.
    pub fn range(&self) -> String {
        match self.width {
            1 => String::new(),
            w => format!("[{}:0] ", w - 1),
        }
    }
}

/// The ports of `block`, in declaration order, found by rust-hdl's
/// reflection; each one's role comes from its name. A port that follows no
/// convention is an error, so a misnamed port cannot slip past the harnesses.
pub fn ports(block: &dyn Block) -> Result<Vec<Port>> {
    #[derive(Default)]
    struct Collect {
        depth: usize,
        ports: Vec<(String, Dir, usize)>,
    }
    impl Probe for Collect {
        fn visit_start_scope(&mut self, _name: &str, _node: &dyn Block) {
            self.depth += 1;
        }
        fn visit_end_scope(&mut self, _name: &str, _node: &dyn Block) {
            self.depth -= 1;
        }
        fn visit_atom(&mut self, name: &str, signal: &dyn Atom) {
            let dir = match signal.kind() {
                AtomKind::InputParameter => Dir::In,
                AtomKind::OutputParameter => Dir::Out,
                _ => return,
            };
            if self.depth == 1 {
                self.ports.push((name.to_string(), dir, signal.bits()));
            }
        }
    }
    let mut collect = Collect::default();
    block.accept("top", &mut collect);
    collect
        .ports
        .into_iter()
        .map(|(name, dir, width)| {
            let role = match (name.as_str(), dir) {
                ("clk", Dir::In) => Role::Clock,
                ("rst", Dir::In) => Role::Reset,
                (n, _) if n.starts_with("s_axis_") => Role::Input,
                (n, _) if n.starts_with("m_axis_") => Role::Output,
                _ => bail!(
                    "port '{name}' is not clk, rst, s_axis_* or m_axis_*: \
                     every port of a core belongs to one of its AXI4-Stream interfaces"
                ),
            };
            Ok(Port {
                name,
                dir,
                width,
                role,
            })
        })
        .collect()
}

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
    pub fn words(&self, i: usize) -> &[u32] {
        &self.words[self.starts[i]..self.starts[i + 1]]
    }

    /// Every word, signal after signal: what a compiled model writes into.
    pub fn all_words_mut(&mut self) -> &mut [u32] {
        &mut self.words
    }

    fn set(&mut self, i: usize, bits: impl Iterator<Item = bool>) {
        let range = self.starts[i]..self.starts[i + 1];
        let slot = self.words[range].view_bits_mut::<Lsb0>();
        slot.fill(false);
        for (mut bit, value) in slot.iter_mut().zip(bits) {
            *bit = value;
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

/// One byte offered on `s_axis`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Byte {
    pub tdata: u8,
    pub tlast: bool,
}

/// One word on `m_axis`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Word {
    pub tdata: u32,
    pub tuser: u8,
    pub tlast: bool,
}

impl Word {
    /// The word that carries `unit`: `tuser` bit 0 is set for an error, and
    /// bits 3:1 hold its [`ErrorKind`] code. This and [`Word::error`] are
    /// the one definition of the `tuser` encoding on the software side.
    pub fn of_unit(unit: &Unit, tlast: bool) -> Word {
        Word {
            tdata: unit.value,
            tuser: unit.error.map_or(0, |kind| kind.code() << 1 | 1),
            tlast,
        }
    }

    /// The error kind that `tuser` names, or `None` for a character. An
    /// undefined code is reported as `Err(tuser)`.
    pub fn error(&self) -> Result<Option<ErrorKind>, u8> {
        match (self.tuser & 1, self.tuser >> 1) {
            (0, 0) => Ok(None),
            (1, code) => ErrorKind::from_code(code).map(Some).ok_or(self.tuser),
            _ => Err(self.tuser),
        }
    }
}

impl fmt::Display for Word {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "tdata={:08X} tuser={:X} tlast={}",
            self.tdata, self.tuser, self.tlast as u8
        )
    }
}

/// What a harness drives in one cycle.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Inputs {
    pub rst: bool,
    /// The byte offered (`s_axis_tvalid` high), if any.
    pub s_axis: Option<Byte>,
    pub m_axis_tready: bool,
}

/// The handshake outputs, as they stand at the start of a cycle (flops).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    pub s_axis_tready: bool,
    /// The word shown (`m_axis_tvalid` high), if any.
    pub m_axis: Option<Word>,
}

/// The [`Core`] methods `clock`, `drive` and `sample` of a block with the
/// ports of a byte-in, word-out core (`clk`, `rst`, `s_axis_tdata[7:0]`,
/// `s_axis_tvalid`, `s_axis_tready`, `s_axis_tlast`, `m_axis_tdata[31:0]`,
/// `m_axis_tuser[3:0]`, `m_axis_tvalid`, `m_axis_tready`, `m_axis_tlast`),
/// for the decoder and for any block that wraps it.
#[macro_export]
macro_rules! byte_to_word_io {
    ($block:ty) => {
        fn clock(
            uut: &mut $block,
        ) -> &mut rust_hdl::core::prelude::Signal<
            rust_hdl::core::prelude::In,
            rust_hdl::core::prelude::Clock,
        > {
            &mut uut.clk
        }

        fn drive(uut: &mut $block, inputs: &$crate::core::Inputs) {
            uut.rst.next = inputs.rst;
            uut.s_axis_tvalid.next = inputs.s_axis.is_some();
            // An input holds its last value while no byte is offered, as a
            // real source's data lines do.
            if let Some(byte) = inputs.s_axis {
                uut.s_axis_tdata.next = u64::from(byte.tdata).into();
                uut.s_axis_tlast.next = byte.tlast;
            }
            uut.m_axis_tready.next = inputs.m_axis_tready;
        }

        fn sample(uut: &$block) -> $crate::core::Outputs {
            $crate::core::Outputs {
                s_axis_tready: uut.s_axis_tready.val(),
                m_axis: uut.m_axis_tvalid.val().then(|| $crate::core::Word {
                    tdata: uut.m_axis_tdata.val().to_u32(),
                    tuser: uut.m_axis_tuser.val().to_u32() as u8,
                    tlast: uut.m_axis_tlast.val(),
                }),
            }
        }
    };
}

/// A core of the family, described once (see the module documentation).
pub trait Core {
    /// The rust-hdl block.
    type Block: Block;

    /// The state a waveform shows, scope by scope: paths of signals inside
    /// the block (a register's path ends in `.q`). The ports are always
    /// shown.
    const STATE: &'static [&'static str];

    /// The name of its Verilog module.
    fn name(&self) -> String;

    /// Which UTF-8 it implements: its reference model is
    /// [`crate::reference::Decoder`] of this profile.
    fn profile(&self) -> Profile;

    /// A new block (not yet connected).
    fn block(&self) -> Self::Block;

    /// Its `clk` input.
    fn clock(block: &mut Self::Block) -> &mut Signal<In, Clock>;

    /// Drives the inputs of one cycle.
    fn drive(block: &mut Self::Block, inputs: &Inputs);

    /// The handshake outputs as they stand.
    fn sample(block: &Self::Block) -> Outputs;
}

/// The UTF-8 → UCS-4 decoder, one byte per clock ([`Utf8Decoder`]).
#[derive(Copy, Clone, Debug)]
pub struct Decoder(pub Profile);

impl Core for Decoder {
    type Block = Utf8Decoder;

    const STATE: &'static [&'static str] = &[
        "skid_buffer.buffered_valid.q",
        "skid_buffer.buffered_tdata.q",
        "classifier.classified.valid",
        "classifier.classified.byte_class",
        "classifier.classified.continuation",
        "classifier.classified.free_bits",
        "classifier.classified.last",
        "decoder.bytes_left.q",
        "decoder.allowed.q",
        "decoder.gathered.q",
        "decoder.units.pre_error_valid",
        "decoder.units.word_tvalid",
        "decoder.units.word_tdata",
        "decoder.units.word_tuser",
        "output_register.advance",
    ];

    fn name(&self) -> String {
        match self.0 {
            Profile::Rfc3629 => "utf8_decoder".into(),
            Profile::Iso10646 => "utf8_decoder_iso10646".into(),
        }
    }

    fn profile(&self) -> Profile {
        self.0
    }

    fn block(&self) -> Utf8Decoder {
        Utf8Decoder::new(self.0)
    }

    byte_to_word_io!(Utf8Decoder);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_decoder_ports_come_from_its_block() {
        let ports = ports(&Decoder(Profile::Rfc3629).block()).unwrap();
        let described: Vec<_> = ports
            .iter()
            .map(|p| (p.name.as_str(), p.dir, p.width, p.role))
            .collect();
        use {Dir::*, Role::*};
        assert_eq!(
            described,
            [
                ("clk", In, 1, Clock),
                ("rst", In, 1, Reset),
                ("s_axis_tdata", In, 8, Input),
                ("s_axis_tvalid", In, 1, Input),
                ("s_axis_tready", Out, 1, Input),
                ("s_axis_tlast", In, 1, Input),
                ("m_axis_tdata", Out, 32, Output),
                ("m_axis_tuser", Out, 4, Output),
                ("m_axis_tvalid", Out, 1, Output),
                ("m_axis_tready", In, 1, Output),
                ("m_axis_tlast", Out, 1, Output),
            ]
        );
    }

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
            "classifier.classified.byte_class",
        ]
        .map(String::from)
        .to_vec();
        let signals = Signals::find(&uut, &paths).unwrap();
        assert_eq!(signals.widths, [8, 3, 5]);
        let mut values = signals.values();
        signals.read(&uut, &mut values);
        assert_eq!(to_hex(values.get(0)), "c2");
        assert_eq!(to_hex(values.get(1)), "0");
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
