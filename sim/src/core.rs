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
//! * **what its lanes carry** ([`Core::Input`], [`Core::Output`], each a
//!   [`Lane`]: its `tdata` and `tuser` bits), and **how a beat goes in and
//!   comes out** ([`Core::drive`], [`Core::sample`], written by
//!   [`axis_io!`](crate::axis_io)): [`Beat`]s of [`Lanes::count`] lanes,
//!   with `tkeep` when the ports have it;
//! * **its latency** ([`Core::LATENCY`]), the datasheet's figure, and
//!   **which side moves on every clock** ([`Core::RATE`]);
//! * **the state its waveform shows** ([`Core::STATE`]), by the signals'
//!   paths inside the block;
//! * **its reference model** ([`Core::Model`], a [`Model`]): what a
//!   message's inputs become, [`Unit`] by unit.
//!
//! The kinds are described in a module each, registered in
//! [`crate::cores`].
//!
//! From that one description come the cycle harness
//! ([`crate::harness::Harness`]), the streaming checker
//! ([`crate::checker`]), the VCD and its GTKWave save file
//! ([`crate::waveform`]), and, in `utf8hdl-synth`, the co-simulation
//! benches and the synthesis bench. A port added to the block reaches all
//! of them.

use std::collections::VecDeque;
use std::fmt;
use std::ops::Range;

use crate::cores::Kind;
use anyhow::{bail, Result};
use bitvec::prelude::*;
use rust_hdl::core::prelude::*;
use utf8hdl_hdl::{ErrorKind, Profile};

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
/// The most lanes a core's streams may have (items per clock).
pub const MAX_LANES: usize = 32;

/// What one lane of a stream carries, as its `tdata` and `tuser` bits: a
/// byte, a decoded word with its error kind, ... Lane *i* of a port is bits
/// `W`·*i* + `W` − 1 .. `W`·*i* of it, for `W` bits a lane.
pub trait Lane: Copy + Default + Eq + fmt::Debug + fmt::Display + 'static {
    /// What one is called (`byte`).
    const NAME: &'static str;

    /// `tdata` bits a lane, 1 to 32.
    const TDATA: usize;
    /// `tuser` bits a lane, 0 to 8; 0 for a stream without `tuser`.
    const TUSER: usize;

    /// Its `tdata` bits.
    fn tdata(&self) -> u32;

    /// Its `tuser` bits.
    fn tuser(&self) -> u32 {
        0
    }

    /// The lane whose ports hold these bits.
    fn from_bits(tdata: u32, tuser: u32) -> Self;
}

/// A byte: the lane of a UTF-8 stream, with no `tuser`.
impl Lane for u8 {
    const NAME: &'static str = "byte";
    const TDATA: usize = 8;
    const TUSER: usize = 0;

    fn tdata(&self) -> u32 {
        u32::from(*self)
    }

    fn from_bits(tdata: u32, _tuser: u32) -> u8 {
        tdata as u8
    }
}

/// A UCS-4 word: the lane of a stream of characters, with no `tuser`.
impl Lane for u32 {
    const NAME: &'static str = "word";
    const TDATA: usize = 32;
    const TUSER: usize = 0;

    fn tdata(&self) -> u32 {
        *self
    }

    fn from_bits(tdata: u32, _tuser: u32) -> u32 {
        tdata
    }
}

/// A code unit and one `tuser` bit: whether it belongs to the U+FFFD an
/// encoder sends for a value it cannot encode. The encoders' output lane:
/// an octet ([`Octet`](crate::cores::utf8_encoder::Octet)) or a UTF-16 code unit.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Flagged<T> {
    pub tdata: T,
    pub error: bool,
}

macro_rules! flagged_lanes {
    ($($code_unit:ty: $name:literal),*) => {$(
        impl Lane for Flagged<$code_unit> {
            const NAME: &'static str = $name;
            const TDATA: usize = <$code_unit>::BITS as usize;
            const TUSER: usize = 1;

            fn tdata(&self) -> u32 {
                u32::from(self.tdata)
            }

            fn tuser(&self) -> u32 {
                u32::from(self.error)
            }

            fn from_bits(tdata: u32, tuser: u32) -> Self {
                Flagged {
                    tdata: tdata as $code_unit,
                    error: tuser & 1 == 1,
                }
            }
        }
    )*};
}

flagged_lanes!(u8: "octet", u16: "code unit");

impl<T: fmt::UpperHex> fmt::Display for Flagged<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits = 2 * std::mem::size_of::<T>();
        write!(
            f,
            "tdata={:0digits$X} tuser={}",
            self.tdata,
            u8::from(self.error)
        )
    }
}

/// A UTF-16 code unit: the lane of a UTF-16 stream, with no `tuser`.
impl Lane for u16 {
    const NAME: &'static str = "code unit";
    const TDATA: usize = 16;
    const TUSER: usize = 0;

    fn tdata(&self) -> u32 {
        u32::from(*self)
    }

    fn from_bits(tdata: u32, _tuser: u32) -> u16 {
        tdata as u16
    }
}

/// Which side of a core moves on every clock at full rate: the rule its
/// checker holds it to ([`Core::RATE`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Rate {
    /// Its input: once `m_axis_tready` has been high for [`Core::LATENCY`]
    /// cycles, `s_axis_tready` is high. For a core whose input beat never
    /// makes more than one output beat (the decoders).
    Input,
    /// Its output: once beats have been offered on `s_axis` and
    /// `m_axis_tready` has been high for [`Core::LATENCY`] cycles,
    /// `m_axis_tvalid` is high; `s_axis_tready` falls while an input's
    /// outputs leave. For a core whose input may make several output beats
    /// (the encoders).
    Output,
}

/// How many lanes a core's streams have, and whether they say which of
/// them carry an item: what its ports say ([`Lanes::of`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Lanes {
    /// Items per beat, on `s_axis` and on `m_axis` alike.
    pub count: usize,
    /// The streams have `tkeep` (`s_axis_tkeep` and `m_axis_tkeep`): an
    /// input lane may be null, and an output beat carries from none to
    /// `count` items.
    pub tkeep: bool,
}

impl Lanes {
    /// The lanes of a core with `ports` whose streams carry `I` in and `O`
    /// out: `s_axis_tdata` is `I::TDATA` bits a lane, `s_axis_tuser`
    /// `I::TUSER` (no port at 0), and likewise `m_axis_*` for `O`; `tkeep`
    /// (one bit a lane) is on both streams or on neither. A core of several
    /// lanes needs it: a message need not fill its last beat.
    pub fn of<I: Lane, O: Lane>(ports: &[Port]) -> Result<Lanes> {
        let width = |name: &str| ports.iter().find(|p| p.name == name).map(|p| p.width);
        let Some(tdata) = width("s_axis_tdata") else {
            bail!("the core has no s_axis_tdata");
        };
        let count = tdata / I::TDATA;
        anyhow::ensure!(
            tdata % I::TDATA == 0 && (1..=MAX_LANES).contains(&count),
            "s_axis_tdata is {tdata} bits: not {} bits a lane for 1 to {MAX_LANES} lanes",
            I::TDATA
        );
        for (name, bits) in [
            ("s_axis_tuser", I::TUSER),
            ("m_axis_tdata", O::TDATA),
            ("m_axis_tuser", O::TUSER),
        ] {
            let expected = (bits > 0).then_some(bits * count);
            anyhow::ensure!(
                width(name) == expected,
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
    pub fn admit<L: Lane>(self, beat: &Beat<L>) -> bool {
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

/// One beat of a stream: an item in each lane whose `tkeep` bit is set,
/// lane 0 first in stream order. A null lane (`tkeep` low) carries no item,
/// whatever its bits; every lane counts in equality, since a stalled beat
/// holds all of its bits. On `m_axis` the kept lanes are 0 to *k*−1
/// ([`Beat::is_packed`]), and a null beat (`tkeep` 0) only ends a message.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Beat<L: Lane> {
    /// Lane *i*; lanes beyond the core's are unused.
    pub lanes: [L; MAX_LANES],
    /// Bit *i* high: lane *i* carries an item. All lanes of a core
    /// without `tkeep`.
    pub tkeep: u32,
    pub tlast: bool,
}

/// The ports' values in 32-bit words, least significant first.
pub type PortWords = [u32; MAX_LANES];

impl<L: Lane> Beat<L> {
    /// A beat of `lanes` (`None` for a null lane).
    pub fn new(lanes: &[Option<L>], tlast: bool) -> Beat<L> {
        let mut beat = Beat {
            lanes: [L::default(); MAX_LANES],
            tkeep: 0,
            tlast,
        };
        for (lane, item) in lanes.iter().enumerate() {
            if let Some(item) = item {
                beat.lanes[lane] = *item;
                beat.tkeep |= 1 << lane;
            }
        }
        beat
    }

    /// The beat of a 1-lane core: one item.
    pub fn one(item: L, tlast: bool) -> Beat<L> {
        Beat::new(&[Some(item)], tlast)
    }

    /// The items it carries, in stream order.
    pub fn items(&self) -> impl Iterator<Item = L> + '_ {
        kept_lanes(self.tkeep).map(|lane| self.lanes[lane])
    }

    /// Its `tkeep` has no hole: lanes 0 to *k*−1 and no others.
    pub fn is_packed(&self) -> bool {
        self.tkeep & self.tkeep.wrapping_add(1) == 0
    }

    /// `tdata` of its first `count` lanes, `L::TDATA` bits a lane.
    #[inline]
    pub fn tdata_words(&self, count: usize) -> PortWords {
        pack(self.lanes[..count].iter().map(Lane::tdata), L::TDATA)
    }

    /// `tuser` of its first `count` lanes, `L::TUSER` bits a lane.
    #[inline]
    pub fn tuser_words(&self, count: usize) -> PortWords {
        pack(self.lanes[..count].iter().map(Lane::tuser), L::TUSER)
    }

    /// Makes this beat the one on ports of `count` lanes whose values are
    /// `tdata` and `tuser` (in words, see [`PortWords`]), in place; `tkeep`
    /// is `None` for a core without it. Lanes beyond `count` keep their
    /// values.
    #[inline]
    pub fn load(
        &mut self,
        count: usize,
        tdata: &[u32],
        tuser: &[u32],
        tkeep: Option<u32>,
        tlast: bool,
    ) {
        self.tkeep = tkeep.unwrap_or_else(|| {
            Lanes {
                count,
                tkeep: false,
            }
            .all()
        });
        self.tlast = tlast;
        for (lane, item) in self.lanes[..count].iter_mut().enumerate() {
            *item = L::from_bits(unpack(tdata, L::TDATA, lane), unpack(tuser, L::TUSER, lane));
        }
    }

    /// The beat on ports of `count` lanes (see [`Beat::load`]).
    pub fn from_words(
        count: usize,
        tdata: &[u32],
        tuser: &[u32],
        tkeep: Option<u32>,
        tlast: bool,
    ) -> Beat<L> {
        let mut beat = Beat::new(&[], tlast);
        beat.load(count, tdata, tuser, tkeep, tlast);
        beat
    }
}

/// `values` side by side, `width` bits each (at most 32), in 32-bit
/// words; a lane's bits may straddle two words. Two shifts rather than
/// bitvec's `store_le`, which is general over any bit order and storage:
/// this runs on every lane of every cycle of the Verilator engine.
fn pack(values: impl Iterator<Item = u32>, width: usize) -> PortWords {
    let mut words = [0; MAX_LANES];
    if width > 0 {
        let mask = u32::MAX >> (32 - width);
        for (lane, value) in values.enumerate() {
            let (word, shift) = (width * lane / 32, width * lane % 32);
            words[word] |= (value & mask) << shift;
            if shift + width > 32 {
                words[word + 1] |= (value & mask) >> (32 - shift);
            }
        }
    }
    words
}

/// Lane `lane` of `width`-bit lanes in `words` (0 when `width` is 0).
fn unpack(words: &[u32], width: usize, lane: usize) -> u32 {
    if width == 0 {
        return 0;
    }
    let (word, shift) = (width * lane / 32, width * lane % 32);
    let mut value = words[word] >> shift;
    if shift + width > 32 {
        value |= words[word + 1] << (32 - shift);
    }
    value & (u32::MAX >> (32 - width))
}

impl<L: Lane> fmt::Display for Beat<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let items: Vec<String> = self.items().map(|w| w.to_string()).collect();
        match items.is_empty() {
            true => write!(f, "a null beat (tkeep 0)")?,
            false => write!(f, "{}", items.join(" | "))?,
        }
        if !self.is_packed() {
            write!(f, " tkeep={:b}", self.tkeep)?;
        }
        write!(f, " tlast={}", self.tlast as u8)
    }
}

/// What a harness drives in one cycle, for a core whose input lanes are `I`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Inputs<I: Lane> {
    pub rst: bool,
    /// The beat offered (`s_axis_tvalid` high), if any.
    pub s_axis: Option<Beat<I>>,
    pub m_axis_tready: bool,
}

impl<I: Lane> Default for Inputs<I> {
    fn default() -> Self {
        Inputs {
            rst: false,
            s_axis: None,
            m_axis_tready: false,
        }
    }
}

/// The handshake outputs, as they stand at the start of a cycle (flops).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Outputs<O: Lane> {
    pub s_axis_tready: bool,
    /// The beat shown (`m_axis_tvalid` high), if any.
    pub m_axis: Option<Beat<O>>,
}

impl<O: Lane> Default for Outputs<O> {
    fn default() -> Self {
        Outputs {
            s_axis_tready: false,
            m_axis: None,
        }
    }
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

/// A port's value in words.
pub fn port_words<const W: usize>(value: Bits<W>) -> PortWords {
    let mut words = [0; MAX_LANES];
    words_from_bits(value, &mut words);
    words
}

/// The [`Core`] methods `clock`, `drive` and `sample` of a block with the
/// AXI4-Stream ports `clk`, `rst`, `s_axis_tdata`, `s_axis_tvalid`,
/// `s_axis_tready`, `s_axis_tlast`, `m_axis_tdata`, `m_axis_tvalid`,
/// `m_axis_tready` and `m_axis_tlast`, with each of the optional ports its
/// block has named after the block's type: `s_tuser` (`s_axis_tuser`),
/// `m_tuser` (`m_axis_tuser`) and `tkeep` (`s_axis_tkeep` and
/// `m_axis_tkeep`). The lanes' widths are the core's [`Core::Input`] and
/// [`Core::Output`]: `axis_io!(Utf8Decoder; m_tuser)`,
/// `axis_io!(Utf8DecoderX4; m_tuser tkeep)`.
#[macro_export]
macro_rules! axis_io {
    ($block:ty $(; $($port:ident)*)?) => {
        fn clock(
            uut: &mut $block,
        ) -> &mut rust_hdl::core::prelude::Signal<
            rust_hdl::core::prelude::In,
            rust_hdl::core::prelude::Clock,
        > {
            &mut uut.clk
        }

        fn drive(uut: &mut $block, inputs: &$crate::core::Inputs<Self::Input>) {
            uut.rst.next = inputs.rst;
            uut.s_axis_tvalid.next = inputs.s_axis.is_some();
            // An input holds its last value while no beat is offered, as a
            // real source's data lines do.
            if let Some(beat) = &inputs.s_axis {
                let count = rust_hdl::core::prelude::Atom::bits(&uut.s_axis_tdata)
                    / <Self::Input as $crate::core::Lane>::TDATA;
                uut.s_axis_tdata.next = $crate::core::bits_from_words(&beat.tdata_words(count));
                $($($crate::axis_io!(@drive $port uut beat count);)*)?
                uut.s_axis_tlast.next = beat.tlast;
            }
            uut.m_axis_tready.next = inputs.m_axis_tready;
        }

        fn sample(uut: &$block) -> $crate::core::Outputs<Self::Output> {
            let count = rust_hdl::core::prelude::Atom::bits(&uut.m_axis_tdata)
                / <Self::Output as $crate::core::Lane>::TDATA;
            let tuser = $crate::axis_io!(@tuser uut $($($port)*)?);
            let tkeep = $crate::axis_io!(@tkeep uut $($($port)*)?);
            $crate::core::Outputs {
                s_axis_tready: uut.s_axis_tready.val(),
                m_axis: uut.m_axis_tvalid.val().then(|| {
                    $crate::core::Beat::from_words(
                        count,
                        &$crate::core::port_words(uut.m_axis_tdata.val()),
                        &tuser,
                        tkeep,
                        uut.m_axis_tlast.val(),
                    )
                }),
            }
        }
    };
    (@drive tkeep $uut:ident $beat:ident $count:ident) => {
        $uut.s_axis_tkeep.next = $crate::core::bits_from_words(&[$beat.tkeep]);
    };
    (@drive s_tuser $uut:ident $beat:ident $count:ident) => {
        $uut.s_axis_tuser.next = $crate::core::bits_from_words(&$beat.tuser_words($count));
    };
    (@drive m_tuser $uut:ident $beat:ident $count:ident) => {};
    (@tuser $uut:ident) => {
        [0u32; $crate::core::MAX_LANES]
    };
    (@tuser $uut:ident m_tuser $($rest:ident)*) => {
        $crate::core::port_words($uut.m_axis_tuser.val())
    };
    (@tuser $uut:ident $other:ident $($rest:ident)*) => {
        $crate::axis_io!(@tuser $uut $($rest)*)
    };
    (@tkeep $uut:ident) => {
        None::<u32>
    };
    (@tkeep $uut:ident tkeep $($rest:ident)*) => {
        Some($uut.m_axis_tkeep.val().to_u32())
    };
    (@tkeep $uut:ident $other:ident $($rest:ident)*) => {
        $crate::axis_io!(@tkeep $uut $($rest)*)
    };
}

/// A core's reference model, as the checker reads it: what a message's
/// inputs become, unit by unit, decided from the inputs accepted so far.
pub trait Model {
    /// What a lane of `s_axis` carries.
    type Input: Lane;
    /// What a lane of `m_axis` carries.
    type Output: Lane;
    /// One step of the model: some inputs and the outputs they become.
    type Unit: Unit<Output = Self::Output>;

    /// The first unit of a message whose inputs accepted so far are
    /// `message` (`closed`: its last input is among them), with its span
    /// in `message`; what comes instead when there is none, or when more
    /// inputs could change it.
    fn first(&self, message: &VecDeque<Self::Input>, closed: bool) -> Next<Self::Unit>;
}

/// What a model says comes next on `m_axis`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next<U> {
    Unit(U),
    /// The message has no more units: its `tlast` is due.
    EndOfMessage,
    /// The inputs accepted so far do not decide the next unit.
    Undecided,
}

impl<U> Next<U> {
    /// The same, with `f` applied to its unit.
    pub fn map_unit<V>(self, f: impl FnOnce(U) -> V) -> Next<V> {
        match self {
            Next::Unit(unit) => Next::Unit(f(unit)),
            Next::EndOfMessage => Next::EndOfMessage,
            Next::Undecided => Next::Undecided,
        }
    }

    /// What a message with no unit left to start says: its end once it is
    /// closed, and nothing yet before that.
    pub fn none_left(closed: bool) -> Next<U> {
        match closed {
            true => Next::EndOfMessage,
            false => Next::Undecided,
        }
    }

    /// For a model whose unit is decided by one input as soon as it is
    /// accepted (the encoders, the properties core): `unit` of the first.
    pub fn of_first_input<I: Copy>(
        message: &VecDeque<I>,
        closed: bool,
        unit: impl FnOnce(I) -> U,
    ) -> Next<U> {
        match message.front() {
            Some(&input) => Next::Unit(unit(input)),
            None => Next::none_left(closed),
        }
    }
}

/// One unit of a model: the inputs it reads (its span), the output lanes
/// it becomes, in order, and its error, if it is one.
pub trait Unit: Clone + fmt::Debug + PartialEq {
    type Output: Lane;

    /// What a unit is called in a run's summary: a decoder's is a `word`.
    const NAME: &'static str;

    /// Its output lanes, in stream order (at most [`MAX_UNIT_OUTPUTS`]).
    fn outputs(&self) -> impl Iterator<Item = Self::Output>;

    /// The offsets of its inputs, end exclusive.
    fn span(&self) -> Range<usize>;

    /// The same, to move.
    fn span_mut(&mut self) -> &mut Range<usize>;

    /// Moves its span `by` inputs later (from a message's offsets to the
    /// stream's).
    fn shift(&mut self, by: usize) {
        let span = self.span_mut();
        *span = span.start + by..span.end + by;
    }

    /// Its error, if it is one.
    fn error(&self) -> Option<ErrorKind>;

    /// What it is, for a report: `U+20AC ok`.
    fn describe(&self) -> String;
}

/// The most output lanes a unit becomes (six bytes: an iso10646 sequence).
pub const MAX_UNIT_OUTPUTS: usize = 6;

/// A core of the family, described once (see the module documentation).
pub trait Core {
    /// Its kind, whose entry in the registry ([`crate::cores`]) tells its
    /// name, profiles and lane counts.
    const KIND: Kind;

    /// The rust-hdl block.
    type Block: Block;

    /// What a lane of `s_axis` carries.
    type Input: Lane;

    /// What a lane of `m_axis` carries.
    type Output: Lane;

    /// Its reference model.
    type Model: Model<Input = Self::Input, Output = Self::Output>;

    /// The state a waveform shows, scope by scope: paths of signals inside
    /// the block (a register's path ends in `.q`). The ports are always
    /// shown.
    const STATE: &'static [&'static str];

    /// Cycles from a beat's acceptance to the first of its outputs on
    /// `m_axis`, with `m_axis_tready` high: the datasheet's figure. Once
    /// `m_axis_tready` has been high this long, `s_axis_tready` is high.
    const LATENCY: u64;

    /// Which side moves on every clock at full rate.
    const RATE: Rate = Rate::Input;

    /// The errors its units can carry, in the order a summary lists them:
    /// every kind, for a UTF-8 decoder.
    const ERROR_KINDS: &'static [ErrorKind] = &ErrorKind::ALL;

    /// The name of its Verilog module.
    fn name(&self) -> String;

    /// Which UTF-8 it implements.
    fn profile(&self) -> Profile;

    /// Its reference model.
    fn model(&self) -> Self::Model;

    /// A new block (not yet connected).
    fn block(&self) -> Self::Block;

    /// Its lanes, from its ports.
    fn lanes(&self) -> Result<Lanes> {
        Lanes::of::<Self::Input, Self::Output>(&ports(&self.block())?)
    }

    /// Its `clk` input.
    fn clock(block: &mut Self::Block) -> &mut Signal<In, Clock>;

    /// Drives the inputs of one cycle.
    fn drive(block: &mut Self::Block, inputs: &Inputs<Self::Input>);

    /// The handshake outputs as they stand.
    fn sample(block: &Self::Block) -> Outputs<Self::Output>;
}

/// The [`Inputs`] of core `C`.
pub type InputsOf<C> = Inputs<<C as Core>::Input>;
/// The [`Outputs`] of core `C`.
pub type OutputsOf<C> = Outputs<<C as Core>::Output>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cores::utf8_decoder::{Decoder, Word};

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
        let beat = Beat::<u8>::new(
            &[Some(0x11), None, Some(0x33), Some(0x44), Some(0x55)],
            true,
        );
        assert_eq!(beat.tkeep, 0b11101);
        assert_eq!(beat.items().collect::<Vec<_>>(), [0x11, 0x33, 0x44, 0x55]);
        assert_eq!(beat.tdata_words(5)[..2], [0x4433_0011, 0x55]);
        let out = Beat::<Word>::from_words(3, &[0xA, 0xB, 0xC], &[0x3F1], Some(0b011), false);
        let words: Vec<_> = out.items().collect();
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
            out.lanes[2],
            Word {
                tdata: 0xC,
                tuser: 3
            },
            "a null lane still holds its bits"
        );
        let one = Beat::<Word>::from_words(1, &[0x41], &[0], None, true);
        assert_eq!(
            (one.tkeep, one.items().count()),
            (1, 1),
            "no tkeep: every lane"
        );
    }

    /// A lane whose widths do not divide 32: 12 bits of `tdata` and 3 of
    /// `tuser`.
    #[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
    struct Odd(u32, u32);

    impl fmt::Display for Odd {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "{:03X}/{}", self.0, self.1)
        }
    }

    impl Lane for Odd {
        const NAME: &'static str = "odd";
        const TDATA: usize = 12;
        const TUSER: usize = 3;
        fn tdata(&self) -> u32 {
            self.0
        }
        fn tuser(&self) -> u32 {
            self.1
        }
        fn from_bits(tdata: u32, tuser: u32) -> Odd {
            Odd(tdata, tuser)
        }
    }

    /// Lanes that straddle 32-bit words go out and come back bit for bit,
    /// where a hand count of the bits puts them.
    #[test]
    fn lanes_of_any_width_pack_and_unpack() {
        let lanes: Vec<Option<Odd>> = (0..11).map(|i| Some(Odd(0xA00 + i, i % 8))).collect();
        let beat = Beat::new(&lanes, false);
        let (tdata, tuser) = (beat.tdata_words(11), beat.tuser_words(11));
        // Lane 2 is bits 35..24 of tdata: 0xA02, its low byte in word 0.
        assert_eq!(tdata[0] >> 24, 0x02);
        assert_eq!(tdata[1] & 0xF, 0xA);
        // Lane 10's tuser is bits 32..30: 2.
        assert_eq!((tuser[0] >> 30, tuser[1] & 1), (2, 0));
        let back = Beat::<Odd>::from_words(11, &tdata, &tuser, Some(beat.tkeep), false);
        assert_eq!(back, beat);
    }

    #[test]
    fn lanes_come_from_the_ports() {
        let decoder = ports(&Decoder(Profile::Rfc3629).block()).unwrap();
        assert_eq!(
            Lanes::of::<u8, Word>(&decoder).unwrap(),
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
            Lanes::of::<u8, Word>(&ports)
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

    #[test]
    fn hex_has_every_digit_of_the_width() {
        let mut v = Values::new(&[5, 12]);
        v.set(0, [true, false, false, false, true].into_iter());
        v.set(1, [true, false, false, false, true].into_iter());
        assert_eq!(to_hex(v.get(0)), "11");
        assert_eq!(to_hex(v.get(1)), "011");
    }
}
