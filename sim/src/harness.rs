//! Cycle stepping of the rust-hdl design, with no testbench threads.
//!
//! Each [`Harness::cycle`] is one clock period: drive the inputs while the
//! clock is low, let the logic settle, sample both handshakes, then raise the
//! clock. The outputs are flops, so what is sampled is what a real consumer
//! would see in that cycle.

use rust_hdl::prelude::*;
use utf8hdl_hdl::{ErrorKind, Profile, Utf8Decoder};

/// Settling iterations allowed per half cycle; the design settles in far fewer.
const SETTLE_LIMIT: usize = 64;

/// One byte offered on `s_axis`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Byte {
    pub tdata: u8,
    pub tlast: bool,
}

/// One word taken from `m_axis`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Word {
    pub tdata: u32,
    pub tuser: u8,
    pub tlast: bool,
}

impl Word {
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

/// The decoder under test and its clock.
pub struct Harness {
    pub uut: Utf8Decoder,
    pub cycles: u64,
}

impl Harness {
    /// Builds, checks and resets a decoder for `profile`.
    pub fn new(profile: Profile) -> Self {
        let mut uut = Utf8Decoder::new(profile);
        uut.connect_all();
        check_all(&uut).expect("the design passes rust-hdl's structural checks");
        let mut harness = Harness { uut, cycles: 0 };
        harness.reset(2);
        harness.cycles = 0;
        harness
    }

    /// Holds `rst` high for `cycles` cycles, with both sides idle.
    pub fn reset(&mut self, cycles: usize) {
        self.uut.rst.next = true;
        for _ in 0..cycles {
            self.cycle(None, false);
        }
        self.uut.rst.next = false;
    }

    /// The flop outputs, as they stand before the inputs of a cycle are driven.
    pub fn outputs(&self) -> (bool, Option<Word>) {
        let uut = &self.uut;
        let word = uut.m_axis_tvalid.val().then(|| Word {
            tdata: uut.m_axis_tdata.val().to_u32(),
            tuser: uut.m_axis_tuser.val().to_u32() as u8,
            tlast: uut.m_axis_tlast.val(),
        });
        (uut.s_axis_tready.val(), word)
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
        observe: &mut dyn FnMut(u64, &Utf8Decoder),
    ) -> Cycle {
        let (s_axis_tready, m_axis) = self.outputs();
        let uut = &mut self.uut;
        uut.s_axis_tvalid.next = byte.is_some();
        if let Some(b) = byte {
            uut.s_axis_tdata.next = (b.tdata as u64).into();
            uut.s_axis_tlast.next = b.tlast;
        }
        uut.m_axis_tready.next = m_axis_tready;
        uut.clk.next = Clock::from(false);
        settle(uut);
        observe(self.cycles, uut);
        uut.clk.next = Clock::from(true);
        settle(uut);
        self.cycles += 1;
        Cycle {
            s_axis_tready,
            accepted: byte.is_some() && s_axis_tready,
            m_axis_tvalid: m_axis.is_some(),
            m_axis,
            delivered: m_axis.filter(|_| m_axis_tready),
        }
    }
}

fn settle(uut: &mut Utf8Decoder) {
    assert!(
        simulate(uut, SETTLE_LIMIT),
        "the design did not settle: a combinational loop"
    );
}
