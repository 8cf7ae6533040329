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
//!   [`Core::sample`], written by [`axis_io!`]): [`ByteBeat`]s of
//!   [`Lanes::count`] bytes in, [`WordBeat`]s out, with `tkeep` when the
//!   ports have it, and how `tuser` encodes the error kind
//!   ([`Word::of_unit`], [`Word::error`]);
//! * **its latency** ([`Core::LATENCY`]), the datasheet's figure;
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
use utf8hdl_hdl::wide::{
    Utf8DecoderX16, Utf8DecoderX2, Utf8DecoderX32, Utf8DecoderX4, Utf8DecoderX8,
};
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

/// The most byte lanes a core may have (bytes per clock on `s_axis`).
pub const MAX_LANES: usize = 32;

/// How many byte lanes a core's streams have, and whether its input says
/// which of them carry a byte: what its ports say ([`Lanes::of`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Lanes {
    /// Bytes per beat on `s_axis`, words per beat on `m_axis`.
    pub count: usize,
    /// The streams have `tkeep` (`s_axis_tkeep` and `m_axis_tkeep`): an
    /// input lane may be null, and an output beat carries from none to
    /// `count` words.
    pub tkeep: bool,
}

impl Lanes {
    /// The lanes of a core with `ports`: `s_axis_tdata` is 8 bits a lane,
    /// `m_axis_tdata` 32 and `m_axis_tuser` 4, and `tkeep` (one bit a lane)
    /// is on both streams or on neither. A core of several lanes needs it:
    /// a message's bytes need not fill its last beat.
    pub fn of(ports: &[Port]) -> Result<Lanes> {
        let width = |name: &str| ports.iter().find(|p| p.name == name).map(|p| p.width);
        let Some(tdata) = width("s_axis_tdata") else {
            bail!("the core has no s_axis_tdata");
        };
        let count = tdata / 8;
        anyhow::ensure!(
            tdata % 8 == 0 && (1..=MAX_LANES).contains(&count),
            "s_axis_tdata is {tdata} bits: not 8 bits a lane for 1 to {MAX_LANES} lanes"
        );
        for (name, bits) in [("m_axis_tdata", 32), ("m_axis_tuser", 4)] {
            anyhow::ensure!(
                width(name) == Some(bits * count),
                "{name} is not {bits} bits for each of the {count} lanes of s_axis_tdata"
            );
        }
        let tkeep = match (width("s_axis_tkeep"), width("m_axis_tkeep")) {
            (None, None) if count == 1 => false,
            (None, None) => bail!("a core of {count} lanes needs s_axis_tkeep and m_axis_tkeep"),
            (Some(s), Some(m)) if s == count && m == count => true,
            _ => bail!("s_axis_tkeep and m_axis_tkeep must both be one bit a lane"),
        };
        Ok(Lanes { count, tkeep })
    }

    /// `tkeep` with every lane kept.
    pub fn all(self) -> u32 {
        u32::MAX >> (32 - self.count)
    }

    /// Whether `beat` fits these lanes: it keeps no lane beyond them, and
    /// without `tkeep`, every lane.
    pub fn admit(self, beat: &ByteBeat) -> bool {
        match self.tkeep {
            true => beat.tkeep & !self.all() == 0,
            false => beat.tkeep == self.all(),
        }
    }
}

/// The lanes whose bits are set in `tkeep`, lane 0 first (a step per
/// kept lane: this runs on every beat).
fn kept_lanes(mut tkeep: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let lane = tkeep.trailing_zeros() as usize;
        tkeep &= tkeep.wrapping_sub(1);
        (lane < 32).then_some(lane)
    })
}

/// One beat offered on `s_axis`: a byte in each lane whose `tkeep` bit is
/// set, lane 0 first in stream order. A null lane (`tkeep` low) carries no
/// byte, whatever its `tdata`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ByteBeat {
    /// Lane *i* is `tdata[i]`; lanes beyond the core's are unused.
    pub tdata: [u8; MAX_LANES],
    /// Bit *i* high: lane *i* carries a byte.
    pub tkeep: u32,
    pub tlast: bool,
}

impl ByteBeat {
    /// A beat of the bytes `lanes` (`None` for a null lane).
    pub fn new(lanes: &[Option<u8>], tlast: bool) -> ByteBeat {
        let mut beat = ByteBeat {
            tdata: [0; MAX_LANES],
            tkeep: 0,
            tlast,
        };
        for (lane, byte) in lanes.iter().enumerate() {
            if let Some(byte) = byte {
                beat.tdata[lane] = *byte;
                beat.tkeep |= 1 << lane;
            }
        }
        beat
    }

    /// The beat of a 1-lane core: one byte.
    pub fn byte(tdata: u8, tlast: bool) -> ByteBeat {
        ByteBeat::new(&[Some(tdata)], tlast)
    }

    /// The bytes it carries, in stream order.
    pub fn bytes(&self) -> impl Iterator<Item = u8> + '_ {
        kept_lanes(self.tkeep).map(|lane| self.tdata[lane])
    }

    /// `s_axis_tdata` in 32-bit words, least significant first: lane *i* is
    /// bits 8*i*+7..8*i*.
    #[inline]
    pub fn tdata_words(&self) -> [u32; MAX_LANES / 4] {
        std::array::from_fn(|w| {
            u32::from_le_bytes(self.tdata[4 * w..4 * w + 4].try_into().unwrap())
        })
    }
}

/// One word of `m_axis`: a unit, with its error kind in `tuser`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Word {
    pub tdata: u32,
    pub tuser: u8,
}

impl Word {
    /// The word that carries `unit`: `tuser` bit 0 is set for an error, and
    /// bits 3:1 hold its [`ErrorKind`] code ([`ErrorKind::tuser`]).
    pub fn of_unit(unit: &Unit) -> Word {
        Word {
            tdata: unit.value,
            tuser: unit.error.map_or(0, ErrorKind::tuser),
        }
    }

    /// The error kind that `tuser` names, or `None` for a character. An
    /// undefined code is reported as `Err(tuser)`.
    pub fn error(&self) -> Result<Option<ErrorKind>, u8> {
        ErrorKind::from_tuser(self.tuser)
    }
}

impl fmt::Display for Word {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tdata={:08X} tuser={:X}", self.tdata, self.tuser)
    }
}

/// One beat shown on `m_axis`: its words fill lanes 0 to *k*−1, *k* set
/// bits of `tkeep` (packed); a null beat (`tkeep` 0) only ends a message.
/// Every lane counts in equality: a stalled beat holds all of its bits.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WordBeat {
    pub tdata: [u32; MAX_LANES],
    pub tuser: [u8; MAX_LANES],
    /// Bit *i* high: lane *i* carries a word. All lanes of a core without
    /// `m_axis_tkeep`.
    pub tkeep: u32,
    pub tlast: bool,
}

impl WordBeat {
    /// The beat on ports whose values are `tdata` (one 32-bit word a lane)
    /// and `tuser` (4 bits a lane, in 32-bit words, least significant
    /// first); `tkeep` is `None` for a core without `m_axis_tkeep`.
    #[inline]
    pub fn from_words(tdata: &[u32], tuser: &[u32], tkeep: Option<u32>, tlast: bool) -> WordBeat {
        let mut beat = WordBeat {
            tdata: [0; MAX_LANES],
            tuser: [0; MAX_LANES],
            tkeep: 0,
            tlast,
        };
        beat.load(tdata, tuser, tkeep, tlast);
        beat
    }

    /// Makes this beat the one on such ports, in place (see
    /// [`WordBeat::from_words`]); lanes beyond `tdata`'s keep their values.
    #[inline]
    pub fn load(&mut self, tdata: &[u32], tuser: &[u32], tkeep: Option<u32>, tlast: bool) {
        let lanes = tdata.len();
        self.tkeep = tkeep.unwrap_or_else(|| {
            Lanes {
                count: lanes,
                tkeep: false,
            }
            .all()
        });
        self.tlast = tlast;
        for lane in 0..lanes {
            self.tdata[lane] = tdata[lane];
            self.tuser[lane] = (tuser[lane / 8] >> (4 * (lane % 8)) & 0xF) as u8;
        }
    }

    /// Its `tkeep` has no hole: lanes 0 to *k*−1 and no others.
    pub fn is_packed(&self) -> bool {
        self.tkeep & self.tkeep.wrapping_add(1) == 0
    }

    /// The words of the lanes it keeps, lane 0 first.
    pub fn words(&self) -> impl Iterator<Item = Word> + '_ {
        kept_lanes(self.tkeep).map(|lane| Word {
            tdata: self.tdata[lane],
            tuser: self.tuser[lane],
        })
    }
}

impl fmt::Display for WordBeat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words: Vec<String> = self.words().map(|w| w.to_string()).collect();
        match words.is_empty() {
            true => write!(f, "a null beat (tkeep 0)")?,
            false => write!(f, "{}", words.join(" | "))?,
        }
        if !self.is_packed() {
            write!(f, " tkeep={:b}", self.tkeep)?;
        }
        write!(f, " tlast={}", self.tlast as u8)
    }
}

/// What a harness drives in one cycle.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Inputs {
    pub rst: bool,
    /// The beat offered (`s_axis_tvalid` high), if any.
    pub s_axis: Option<ByteBeat>,
    pub m_axis_tready: bool,
}

/// The handshake outputs, as they stand at the start of a cycle (flops).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    pub s_axis_tready: bool,
    /// The beat shown (`m_axis_tvalid` high), if any.
    pub m_axis: Option<WordBeat>,
}

/// A rust-hdl value of `W` bits from 32-bit `words`, least significant
/// first. rust-hdl converts only up to 64 bits from an integer (and keeps
/// values above 32 bits as one `bool` a bit), so wide ports go word by word.
pub fn bits_from_words<const W: usize>(words: &[u32]) -> Bits<W> {
    (words.iter().take(W.div_ceil(32)).enumerate()).fold(Bits::default(), |value, (i, &word)| {
        value | bit_cast::<W, 32>(Bits::<32>::from(u64::from(word))) << (32 * i) as u64
    })
}

/// Fills `words` (32-bit, least significant first) with `value`, up to its
/// width.
pub fn words_from_bits<const W: usize>(value: Bits<W>, words: &mut [u32]) {
    for (i, word) in words.iter_mut().take(W.div_ceil(32)).enumerate() {
        *word = bit_cast::<32, W>(value >> (32 * i) as u64).to_u32();
    }
}

/// The beat on a block's `m_axis` ports, from their rust-hdl values (see
/// [`WordBeat::from_words`]).
#[inline]
pub fn word_beat<const TDATA: usize, const TUSER: usize>(
    tdata: Bits<TDATA>,
    tuser: Bits<TUSER>,
    tkeep: Option<u32>,
    tlast: bool,
) -> WordBeat {
    let (mut data, mut user) = ([0; MAX_LANES], [0; MAX_LANES / 8]);
    words_from_bits(tdata, &mut data);
    words_from_bits(tuser, &mut user);
    WordBeat::from_words(&data[..TDATA / 32], &user, tkeep, tlast)
}

/// The [`Core`] methods `clock`, `drive` and `sample` of a block with the
/// AXI4-Stream ports of a decoder: `clk`, `rst`, `s_axis_tdata` (8 bits a
/// lane), `s_axis_tvalid`, `s_axis_tready`, `s_axis_tlast`, `m_axis_tdata`
/// (32 bits a lane), `m_axis_tuser` (4 bits a lane), `m_axis_tvalid`,
/// `m_axis_tready`, `m_axis_tlast`, and with `; tkeep`, `s_axis_tkeep` and
/// `m_axis_tkeep` (a bit a lane). One lane or many, and any block that
/// wraps a decoder: `axis_io!(Utf8Decoder)`,
/// `axis_io!(Utf8WideDecoder<4, 32, 128, 16>; tkeep)`.
#[macro_export]
macro_rules! axis_io {
    ($block:ty $(; $tkeep:ident)?) => {
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
            // An input holds its last value while no beat is offered, as a
            // real source's data lines do.
            if let Some(beat) = &inputs.s_axis {
                uut.s_axis_tdata.next = $crate::core::bits_from_words(&beat.tdata_words());
                $($crate::axis_io!(@drive_keep uut beat $tkeep);)?
                uut.s_axis_tlast.next = beat.tlast;
            }
            uut.m_axis_tready.next = inputs.m_axis_tready;
        }

        fn sample(uut: &$block) -> $crate::core::Outputs {
            let tkeep: Option<u32> = None $(.or($crate::axis_io!(@sample_keep uut $tkeep)))?;
            $crate::core::Outputs {
                s_axis_tready: uut.s_axis_tready.val(),
                m_axis: uut.m_axis_tvalid.val().then(|| {
                    $crate::core::word_beat(
                        uut.m_axis_tdata.val(),
                        uut.m_axis_tuser.val(),
                        tkeep,
                        uut.m_axis_tlast.val(),
                    )
                }),
            }
        }
    };
    (@drive_keep $uut:ident $beat:ident tkeep) => {
        $uut.s_axis_tkeep.next = $crate::core::bits_from_words(&[$beat.tkeep]);
    };
    (@sample_keep $uut:ident tkeep) => {
        Some($uut.m_axis_tkeep.val().to_u32())
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

    /// Cycles from a beat's acceptance to the first of its words on
    /// `m_axis`, with `m_axis_tready` high: the datasheet's figure. Once
    /// `m_axis_tready` has been high this long, `s_axis_tready` is high.
    const LATENCY: u64;

    /// The name of its Verilog module.
    fn name(&self) -> String;

    /// Which UTF-8 it implements: its reference model is
    /// [`crate::reference::Decoder`] of this profile.
    fn profile(&self) -> Profile;

    /// A new block (not yet connected).
    fn block(&self) -> Self::Block;

    /// Its lanes, from its ports.
    fn lanes(&self) -> Result<Lanes> {
        Lanes::of(&ports(&self.block())?)
    }

    /// Its `clk` input.
    fn clock(block: &mut Self::Block) -> &mut Signal<In, Clock>;

    /// Drives the inputs of one cycle.
    fn drive(block: &mut Self::Block, inputs: &Inputs);

    /// The handshake outputs as they stand.
    fn sample(block: &Self::Block) -> Outputs;
}

/// The lane counts of the family: bytes per clock.
pub const LANE_COUNTS: [usize; 6] = [1, 2, 4, 8, 16, 32];

/// The Verilog module name of the decoder of `profile` with `lanes` lanes:
/// `utf8_decoder`, `utf8_decoder_iso10646`, `utf8_decoder_x4`, ...
pub fn module_name(profile: Profile, lanes: usize) -> String {
    let base = match profile {
        Profile::Rfc3629 => "utf8_decoder".to_string(),
        Profile::Iso10646 => format!("utf8_decoder_{}", profile.name()),
    };
    match lanes {
        1 => base,
        n => format!("{base}_x{n}"),
    }
}

/// The UTF-8 → UCS-4 decoder, one byte per clock ([`Utf8Decoder`]).
#[derive(Copy, Clone, Debug)]
pub struct Decoder(pub Profile);

impl Core for Decoder {
    type Block = Utf8Decoder;

    const STATE: &'static [&'static str] = &[
        "skid_buffer.buffered_valid.q",
        "skid_buffer.buffered_tdata.q",
        "classifier.read_valid.q",
        "classifier.read_class.q",
        "classifier.classified.valid",
        "classifier.classified.continuation",
        "classifier.classified.in_bound",
        "classifier.classified.free_bits",
        "classifier.classified.last",
        "decoder.bytes_left.q",
        "decoder.gathered.q",
        "decoder.units.pre_error_valid",
        "decoder.units.word_tvalid",
        "decoder.units.word_tdata",
        "decoder.units.word_tuser",
        "output_register.advance",
    ];

    const LATENCY: u64 = Utf8Decoder::LATENCY;

    fn name(&self) -> String {
        module_name(self.0, 1)
    }

    fn profile(&self) -> Profile {
        self.0
    }

    fn block(&self) -> Utf8Decoder {
        Utf8Decoder::new(self.0)
    }

    axis_io!(Utf8Decoder);
}

/// The UTF-8 → UCS-4 decoder of `N` bytes per clock
/// ([`utf8hdl_hdl::wide::Utf8WideDecoder`]), for N = 2, 4, 8, 16, 32.
#[derive(Copy, Clone, Debug)]
pub struct WideDecoder<const N: usize>(pub Profile);

/// The description of each wide decoder: its block is the alias of its lane
/// count (the other widths are ones stable Rust cannot compute from N).
macro_rules! wide_decoders {
    ($($lanes:literal => $block:ident),* $(,)?) => {$(
        impl Core for WideDecoder<$lanes> {
            type Block = $block;

            /// The credits that make `s_axis_tready`, and each stage's
            /// beat: the stages never stall, so a beat is its `valid`
            /// moving down the pipeline, one stage a cycle.
            const STATE: &'static [&'static str] = &[
                "credits.in_flight.q",
                "byte_lanes.valid",
                "byte_lanes.tlast",
                "hold.valid",
                "hold.tlast",
                "lane_decoder.beat_valid",
                "lane_decoder.beat_tlast",
                "word_lanes.write",
                "queue.fetched.q",
            ];

            /// The datasheet's figure (`hdl/src/wide/mod.rs`): the units
            /// of a beat accepted in cycle t are on `m_axis` in t + LATENCY.
            const LATENCY: u64 = $block::LATENCY;

            fn name(&self) -> String {
                module_name(self.0, $lanes)
            }

            fn profile(&self) -> Profile {
                self.0
            }

            fn block(&self) -> $block {
                $block::new(self.0)
            }

            axis_io!($block; tkeep);
        }
    )*};
}

wide_decoders!(
    2 => Utf8DecoderX2,
    4 => Utf8DecoderX4,
    8 => Utf8DecoderX8,
    16 => Utf8DecoderX16,
    32 => Utf8DecoderX32,
);

/// Runs `$body` with `$core` bound to the decoder of `$lanes` lanes and
/// `$profile`: the one place that maps a lane count to a core type, one
/// arm per lane count. Any other count makes the enclosing function (which
/// returns an `anyhow::Result`) return an error.
#[macro_export]
macro_rules! with_core {
    ($lanes:expr, $profile:expr, |$core:ident| $body:expr) => {
        match $lanes {
            1 => {
                let $core = $crate::core::Decoder($profile);
                $body
            }
            2 => {
                let $core = $crate::core::WideDecoder::<2>($profile);
                $body
            }
            4 => {
                let $core = $crate::core::WideDecoder::<4>($profile);
                $body
            }
            8 => {
                let $core = $crate::core::WideDecoder::<8>($profile);
                $body
            }
            16 => {
                let $core = $crate::core::WideDecoder::<16>($profile);
                $body
            }
            32 => {
                let $core = $crate::core::WideDecoder::<32>($profile);
                $body
            }
            n => {
                return Err(anyhow::anyhow!(
                    "no {n}-lane core: the family has 1, 2, 4, 8, 16 and 32 lanes"
                ))
            }
        }
    };
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

    /// Wide values go through rust-hdl word by word: every bit lands where
    /// rust-hdl's own `get_bit` says, at widths on both sides of its 32-bit
    /// short form and of 64 bits.
    #[test]
    fn port_values_convert_bit_for_bit_at_any_width() {
        fn roundtrip<const W: usize>() {
            let mut state = 0x9E37_79B9u32 ^ W as u32;
            let mut words = [0u32; 32];
            for (i, word) in words.iter_mut().enumerate().take(W.div_ceil(32)) {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                let bits_here = (W - 32 * i).min(32);
                *word = state & (u32::MAX >> (32 - bits_here));
            }
            let value: Bits<W> = bits_from_words(&words);
            for bit in 0..W {
                assert_eq!(
                    value.get_bit(bit),
                    words[bit / 32] >> (bit % 32) & 1 == 1,
                    "W={W} bit {bit}"
                );
            }
            let mut back = [0u32; 32];
            words_from_bits(value, &mut back);
            assert_eq!(back, words, "W={W}");
        }
        roundtrip::<4>();
        roundtrip::<8>();
        roundtrip::<32>();
        roundtrip::<33>();
        roundtrip::<64>();
        roundtrip::<128>();
        roundtrip::<256>();
        roundtrip::<1024>();
    }

    /// Lane *i* of a beat is bits 8*i*+7..8*i* of `s_axis_tdata`; word lane
    /// *i* is bits 32*i*+31..32*i* of `m_axis_tdata`, and its `tuser`
    /// bits 4*i*+3..4*i*.
    #[test]
    fn lanes_sit_where_the_ports_say() {
        let beat = ByteBeat::new(
            &[Some(0x11), None, Some(0x33), Some(0x44), Some(0x55)],
            true,
        );
        assert_eq!(beat.tkeep, 0b11101);
        assert_eq!(beat.bytes().collect::<Vec<_>>(), [0x11, 0x33, 0x44, 0x55]);
        assert_eq!(beat.tdata_words()[..2], [0x4433_0011, 0x55]);
        let tdata: Bits<96> = bits_from_words(&[0xA, 0xB, 0xC]);
        let tuser: Bits<12> = bits_from_words(&[0x3F1]);
        let out = word_beat(tdata, tuser, Some(0b011), false);
        let words: Vec<_> = out.words().collect();
        assert_eq!(
            words,
            [
                Word {
                    tdata: 0xA,
                    tuser: 1
                },
                Word {
                    tdata: 0xB,
                    tuser: 0xF
                }
            ]
        );
        assert_eq!(
            (out.tdata[2], out.tuser[2]),
            (0xC, 3),
            "a null lane still holds its bits"
        );
        let one = word_beat(
            bits_from_words::<32>(&[0x41]),
            bits_from_words::<4>(&[0]),
            None,
            true,
        );
        assert_eq!(
            (one.tkeep, one.words().count()),
            (1, 1),
            "no tkeep: every lane"
        );
    }

    #[test]
    fn lanes_come_from_the_ports() {
        let decoder = ports(&Decoder(Profile::Rfc3629).block()).unwrap();
        assert_eq!(
            Lanes::of(&decoder).unwrap(),
            Lanes {
                count: 1,
                tkeep: false
            }
        );
        let port = |name: &str, dir, width| Port {
            name: name.into(),
            dir,
            width,
            role: if name.starts_with("s_") {
                Role::Input
            } else {
                Role::Output
            },
        };
        let wide = |keep: Option<usize>, tuser| {
            let mut ports = vec![
                port("s_axis_tdata", Dir::In, 32),
                port("m_axis_tdata", Dir::Out, 128),
                port("m_axis_tuser", Dir::Out, tuser),
            ];
            ports.extend(keep.map(|w| port("s_axis_tkeep", Dir::In, w)));
            ports.extend(keep.map(|_| port("m_axis_tkeep", Dir::Out, 4)));
            Lanes::of(&ports)
        };
        assert_eq!(
            wide(Some(4), 16).unwrap(),
            Lanes {
                count: 4,
                tkeep: true
            }
        );
        assert!(wide(None, 16)
            .unwrap_err()
            .to_string()
            .contains("needs s_axis_tkeep"));
        assert!(wide(Some(4), 4).is_err(), "tuser is 4 bits a lane");
        assert!(wide(Some(3), 16).is_err(), "tkeep is a bit a lane");
    }

    /// Each wide decoder's lanes come from its block's ports, and its
    /// waveform state is in its block.
    #[test]
    fn wide_decoders_are_described_by_their_ports() {
        fn check<C: Core>(core: C, count: usize, name: &str) {
            let lanes = core.lanes().unwrap();
            assert_eq!(lanes, Lanes { count, tkeep: true }, "{name}");
            assert_eq!(core.name(), name);
            probes(&core).unwrap();
        }
        check(WideDecoder::<2>(Profile::Rfc3629), 2, "utf8_decoder_x2");
        check(
            WideDecoder::<4>(Profile::Iso10646),
            4,
            "utf8_decoder_iso10646_x4",
        );
        check(WideDecoder::<8>(Profile::Rfc3629), 8, "utf8_decoder_x8");
        check(WideDecoder::<16>(Profile::Rfc3629), 16, "utf8_decoder_x16");
        check(
            WideDecoder::<32>(Profile::Iso10646),
            32,
            "utf8_decoder_iso10646_x32",
        );
    }

    #[test]
    fn module_names_carry_profile_and_lanes() {
        assert_eq!(module_name(Profile::Rfc3629, 1), "utf8_decoder");
        assert_eq!(module_name(Profile::Iso10646, 1), "utf8_decoder_iso10646");
        assert_eq!(module_name(Profile::Rfc3629, 8), "utf8_decoder_x8");
        assert_eq!(
            module_name(Profile::Iso10646, 32),
            "utf8_decoder_iso10646_x32"
        );
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
