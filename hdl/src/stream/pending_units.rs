//! # `PendingUnits`: a word's code units, sent one a clock through the `m_axis` register
//!
//! The encoders turn each word into one to `K` units (octets, or UTF-16
//! code units). This block takes a word's units all at once, when it has
//! sent the previous word's last unit, and offers them one a beat to its
//! own [`AxisOutputRegister`], so that `m_axis_tvalid` has no gap between
//! words that are waiting.
//!
//! ## Parameters
//! * `W`: the width of a unit: 8 for an octet, 16 for a UTF-16 code unit.
//! * `K`: the most units a word becomes: 6 (UTF-8 in iso10646), 2 (UTF-16).
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `rst` | in | 1 | clock; synchronous reset, active high |
//! | `units_in[k]` | in | W | the offered word's units, the first in 0 |
//! | `keep_in[k]` | in | 1 | unit `k` is one of the word's: set for its first one to `K` units, clear above |
//! | `error_in` | in | 1 | the word could not be encoded: every unit is flagged |
//! | `last_in` | in | 1 | the word is its message's last |
//! | `valid_in` | in | 1 | a word is offered |
//! | `take` | out | 1 | registered: no unit is left after this cycle, so the offered word is taken |
//! | `take_next` | out | 1 | `take`'s next value, for an owner's enables figured a cycle ahead |
//! | `m_axis_tdata`/`tuser`/`tvalid`/`tlast` | out | W/1/1/1 | registered: a unit, its flag, `tlast` on the last unit of a message's last word |
//! | `m_axis_tready` | in | 1 | handshake |
//!
//! Each unit waits beside a flag, `keep[k]`, set while it is still to be
//! sent; the units and their flags move down together. So "nothing is
//! left" is `!keep[0]` and "one is left" is `keep[0] & !keep[1]`: flops,
//! not a count compared with 0 and 1. `take`, which the encoders' every
//! enable reads, is itself a flop (`take_ahead`): `!keep[0] | !keep[1] &
//! s_axis_tready` of the output register, figured a cycle ahead from the
//! flags' next values and the output register's `s_axis_tready_next`, so
//! that the enables behind it are one LUT from a flop.
//!
//! ## Latency
//! Two cycles from a word's `take` to its first unit on `m_axis`: the
//! pending units, then the output register; then one unit a cycle.
//!
//! ```text
//! cycle            0     1     2     3     4     5
//! valid_in, take   1,1   1,1   1,0   1,0   1,1
//! keep_in          1     111   1     1     1
//! keep             0     1     111   11    1     1
//! m_axis_tdata                 a     b0    b1    b2
//! ```
//!
//! ## Invariants
//! * `keep` is a run of set flags from `keep[0]`, and a word is taken
//!   only in a cycle where none is set, or one with its unit leaving;
//!   `take` is high in every such cycle (`take_ahead` equals what the
//!   flags and the output register's `s_axis_tready` say).
//! * Units leave in order, each once, with the `error_in` and, on the
//!   last, the `last_in` of their word.
//! * While words are offered and `m_axis_tready` is high, `m_axis_tvalid`
//!   stays high.
//!
//! The first two are proven for the block alone, for all time
//! (`utf8hdl formal --block pending_units`,
//! `hdl/formal/blocks/pending_units_properties.v`); the third is the
//! encoders' P3, proven on each of them.

use rust_hdl::prelude::*;

use crate::many;
use crate::stream::AxisOutputRegister;

#[derive(LogicBlock)]
pub struct PendingUnits<const W: usize, const K: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub units_in: Vec<Signal<In, Bits<W>>>,
    pub keep_in: Vec<Signal<In, Bit>>,
    pub error_in: Signal<In, Bit>,
    pub last_in: Signal<In, Bit>,
    pub valid_in: Signal<In, Bit>,
    pub take: Signal<Out, Bit>,
    /// `take`'s next value: an owner figures its own stage's enable a
    /// cycle ahead from it, so that the enable is a flop too.
    pub take_next: Signal<Out, Bit>,
    pub m_axis_tdata: Signal<Out, Bits<W>>,
    pub m_axis_tuser: Signal<Out, Bits<1>>,
    pub m_axis_tvalid: Signal<Out, Bit>,
    pub m_axis_tlast: Signal<Out, Bit>,
    pub m_axis_tready: Signal<In, Bit>,
    output_register: AxisOutputRegister<W, 1>,
    /// The current word's units, the next in `units[0]`; `keep[k]` while
    /// `units[k]` is still to be sent.
    units: Vec<DFF<Bits<W>>>,
    keep: Vec<DFF<Bit>>,
    /// Whether the units are flagged, and whether the word ends its
    /// message.
    error: DFF<Bit>,
    last: DFF<Bit>,
    /// `take`, registered: figured from the flags' next values and the
    /// output register's next `s_axis_tready`.
    take_ahead: DFF<Bit>,
}

impl<const W: usize, const K: usize> Default for PendingUnits<W, K> {
    fn default() -> Self {
        assert!(K >= 2, "a word of one unit needs no PendingUnits");
        PendingUnits {
            clock: Default::default(),
            rst: Default::default(),
            units_in: many(K),
            keep_in: many(K),
            error_in: Default::default(),
            last_in: Default::default(),
            valid_in: Default::default(),
            take: Default::default(),
            take_next: Default::default(),
            m_axis_tdata: Default::default(),
            m_axis_tuser: Default::default(),
            m_axis_tvalid: Default::default(),
            m_axis_tlast: Default::default(),
            m_axis_tready: Default::default(),
            output_register: Default::default(),
            units: many(K),
            keep: many(K),
            error: Default::default(),
            last: Default::default(),
            take_ahead: Default::default(),
        }
    }
}

impl<const W: usize, const K: usize> Logic for PendingUnits<W, K> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, error, last, take_ahead);
        clock!(self, clock, output_register);
        for k in 0..K {
            self.units[k].clock.next = self.clock.val();
            self.keep[k].clock.next = self.clock.val();
            self.units[k].d.next = self.units[k].q.val();
            self.keep[k].d.next = self.keep[k].q.val();
        }
        self.output_register.rst.next = self.rst.val();
        self.output_register.m_axis_tready.next = self.m_axis_tready.val();
        self.m_axis_tdata.next = self.output_register.m_axis_tdata.val();
        self.m_axis_tuser.next = self.output_register.m_axis_tuser.val();
        self.m_axis_tvalid.next = self.output_register.m_axis_tvalid.val();
        self.m_axis_tlast.next = self.output_register.m_axis_tlast.val();

        // The next unit is offered to the output register, which takes it
        // when it has room.
        self.output_register.s_axis_tvalid.next = self.keep[0].q.val();
        self.output_register.s_axis_tdata.next = self.units[0].q.val();
        self.output_register.s_axis_tuser.next = self.error.q.val().into();
        self.output_register.s_axis_tlast.next = self.last.q.val() & !self.keep[1].q.val();
        self.take.next = self.take_ahead.q.val();
        // A unit leaves: the rest move down, and a clear flag comes in at
        // the top.
        if self.output_register.s_axis_tready.val() & self.keep[0].q.val() {
            for k in 0..K {
                self.keep[k].d.next = false;
            }
            for k in 1..K {
                self.keep[k - 1].d.next = self.keep[k].q.val();
            }
        }
        // A unit moves down only while it is kept (so every kept one below
        // it is too): each unit's enable reads its own flag, and none
        // reaches more than one unit's flops.
        for k in 1..K {
            if self.output_register.s_axis_tready.val() & self.keep[k - 1].q.val() {
                self.units[k - 1].d.next = self.units[k].q.val();
            }
        }
        // The units load on every `take`, word offered or not (a unit whose
        // flag is clear is never read), so that their enables do not read
        // `valid_in`; the flags, the error and `last` load with a word.
        if self.take.val() {
            for k in 0..K {
                self.units[k].d.next = self.units_in[k].val();
            }
        }
        if self.take.val() & self.valid_in.val() {
            for k in 0..K {
                self.keep[k].d.next = self.keep_in[k].val();
            }
            self.error.d.next = self.error_in.val();
            self.last.d.next = self.last_in.val();
        }
        if self.rst.val() {
            for k in 0..K {
                self.keep[k].d.next = false;
            }
        }
        // Next cycle's `take`, from the flags' next values (assigned above)
        // and the output register's next `s_axis_tready`.
        self.take_ahead.d.next = !self.keep[0].d.val()
            | (!self.keep[1].d.val() & self.output_register.s_axis_tready_next.val());
        self.take_next.next = self.take_ahead.d.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pending_units_is_synthesizable() {
        crate::assert_synthesizable(PendingUnits::<8, 6>::default());
        crate::assert_synthesizable(PendingUnits::<16, 2>::default());
    }
}
