//! Cycle stepping of a core's rust-hdl block, with no testbench threads.
//!
//! Each [`Harness::cycle`] is one clock period: drive the inputs while the
//! clock is low, let the logic settle, sample both handshakes, then raise the
//! clock. The outputs are flops, so what is sampled is what a real consumer
//! would see in that cycle.

use rust_hdl::prelude::*;

pub use crate::core::{Byte, Word};
use crate::core::{Core, Inputs, Outputs};

/// Settling iterations allowed per half cycle; the design settles in far fewer.
const SETTLE_LIMIT: usize = 64;

/// What happened in one cycle.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Cycle {
    /// `s_axis_tready` in this cycle (a flop).
    pub s_axis_tready: bool,
    /// A byte was offered and accepted.
    pub accepted: bool,
    /// `m_axis_tvalid` in this cycle.
    pub m_axis_tvalid: bool,
    /// The word on `m_axis` in this cycle, whether or not it was taken.
    pub m_axis: Option<Word>,
    /// The word was taken (`m_axis_tvalid & m_axis_tready`).
    pub delivered: Option<Word>,
}

/// A core under test and its clock.
pub struct Harness<C: Core> {
    pub core: C,
    pub uut: C::Block,
    pub cycles: u64,
}

impl<C: Core> Harness<C> {
    /// Builds, checks and resets the core's block.
    pub fn new(core: C) -> Self {
        let mut uut = core.block();
        uut.connect_all();
        check_all(&uut).expect("the design passes rust-hdl's structural checks");
        let mut harness = Harness {
            core,
            uut,
            cycles: 0,
        };
        harness.reset(2);
        harness.cycles = 0;
        harness
    }

    /// Holds `rst` high for `cycles` cycles, with both sides idle.
    pub fn reset(&mut self, cycles: usize) {
        for _ in 0..cycles {
            self.step(
                &Inputs {
                    rst: true,
                    ..Inputs::default()
                },
                &mut |_, _| {},
            );
        }
    }

    /// The handshake outputs as they stand (flops), before a cycle's inputs
    /// are driven.
    pub fn outputs(&self) -> Outputs {
        C::sample(&self.uut)
    }

    /// Runs one clock cycle: offers `byte` (tvalid low when `None`) and
    /// drives `m_axis_tready`.
    pub fn cycle(&mut self, byte: Option<Byte>, m_axis_tready: bool) -> Cycle {
        self.cycle_observed(byte, m_axis_tready, &mut |_, _| {})
    }

    /// [`Harness::cycle`], showing `observe` the design once its inputs for
    /// the cycle have settled, just before the rising edge that ends it:
    /// the values a waveform shows for the cycle.
    pub fn cycle_observed(
        &mut self,
        byte: Option<Byte>,
        m_axis_tready: bool,
        observe: &mut dyn FnMut(u64, &C::Block),
    ) -> Cycle {
        let inputs = Inputs {
            rst: false,
            s_axis: byte,
            m_axis_tready,
        };
        self.step(&inputs, observe)
    }

    /// One clock cycle with any inputs, reset included.
    pub fn step(&mut self, inputs: &Inputs, observe: &mut dyn FnMut(u64, &C::Block)) -> Cycle {
        let outputs = C::sample(&self.uut);
        C::drive(&mut self.uut, inputs);
        C::clock(&mut self.uut).next = Clock::from(false);
        settle(&mut self.uut);
        observe(self.cycles, &self.uut);
        C::clock(&mut self.uut).next = Clock::from(true);
        settle(&mut self.uut);
        self.cycles += 1;
        let m_axis = outputs.m_axis;
        Cycle {
            s_axis_tready: outputs.s_axis_tready,
            accepted: inputs.s_axis.is_some() && outputs.s_axis_tready && !inputs.rst,
            m_axis_tvalid: m_axis.is_some(),
            m_axis,
            delivered: m_axis.filter(|_| inputs.m_axis_tready && !inputs.rst),
        }
    }
}

fn settle<B: Block>(uut: &mut B) {
    assert!(
        simulate(uut, SETTLE_LIMIT),
        "the design did not settle: a combinational loop"
    );
}
