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

use std::fmt;
use std::ops::Range;

use crate::cores::Kind;
use anyhow::Result;
use rust_hdl::core::prelude::*;
use utf8hdl_hdl::{ErrorKind, Profile};

mod axis_io;
mod beat;
mod lanes;
mod ports;
mod probes;
mod shared_methods;
mod words;

pub use beat::*;
pub use lanes::*;
pub use ports::*;
pub use probes::*;
pub use words::*;

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
    /// inputs could change it. A unit is final once the input after it is
    /// among `message`: more inputs never change it.
    fn first(&self, message: &[Self::Input], closed: bool) -> Next<Self::Unit>;

    /// Every unit that `message` decides (as [`Model::first`] does, unit
    /// after unit), in order, each with its span in `message`, given to
    /// `decided`; returns how many inputs they span. The checker decides a
    /// block of inputs at once through it.
    fn decide(
        &self,
        message: &[Self::Input],
        closed: bool,
        decided: &mut dyn FnMut(Self::Unit),
    ) -> usize {
        let mut start = 0;
        while let Next::Unit(mut unit) = self.first(&message[start..], closed) {
            unit.shift(start);
            start = unit.span().end;
            decided(unit);
        }
        start
    }

    /// The outputs of a whole message, `message`, in order.
    fn outputs_of(&self, message: &[Self::Input]) -> Vec<Self::Output> {
        let mut outputs = Vec::new();
        self.decide(message, true, &mut |unit| outputs.extend(unit.outputs()));
        outputs
    }
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
        message: &[I],
        closed: bool,
        unit: impl FnOnce(I) -> U,
    ) -> Next<U> {
        match message.first() {
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

    /// Whether its `m_axis_tkeep` is packed (lanes 0 to *k*−1), as a core
    /// that makes its own beats keeps it; a core that passes its input's
    /// beats on keeps their null lanes where they are.
    const PACKED: bool = true;

    /// The errors its units can carry, of the family's `tuser` codes
    /// ([`ErrorKind`]), in the order a summary lists them.
    const ERROR_KINDS: &'static [ErrorKind];

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
