//! # `LookaheadHold`: stage 2 of the wide decoder, where a beat waits for the byte behind it
//!
//! Whether the last byte of a beat ends a unit can depend on the byte
//! behind it (`C2` then `41`: the `41` cuts `C2` short, so `C2`'s U+FFFD
//! belongs to the beat of `C2`). This one register holds each beat until
//! what comes next is known, and lets it go with that knowledge
//! (`next_byte`, `next_is_end`), so that the stages behind it never wait.
//! A beat leaves
//! * when the next beat with a byte arrives (its first byte is `next_byte`);
//! * when an empty beat with `tlast` arrives: the end of the message, which
//!   the held beat takes as its own `tlast` (`merged`);
//! * at once when it has `tlast` itself, or when its last byte leaves no
//!   sequence open (it is not a first or continuing octet: bit 7 clear, or
//!   a byte no sequence can follow, which is checked conservatively as
//!   "bit 7 set").
//!
//! At line rate a beat always has another behind it, so every beat waits
//! exactly one cycle here: the latency is constant.
//!
//! Beats that leave nothing are dropped here, and counted in `dropped` so
//! that their credit returns: an empty beat without `tlast`, and an empty
//! `tlast` beat merged into the held beat. An empty beat with `tlast` and
//! nothing held is a message with no bytes: it is held and leaves as an
//! empty beat with `tlast`.
//!
//! ## Parameters
//! * `N`: the lanes.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `rst` | in | 1 | clock; synchronous reset, active high |
//! | `in_byte[i]`, `in_present[i]`, `in_tail[t]`, `in_tlast`, `in_valid` | in | | a dense beat from [`ByteLanes`](crate::utf8_decoder_wide::stages::ByteLanes) |
//! | `byte[i]`, `present[i]`, `tail[t]` | out | | registered: the held beat |
//! | `tlast` | out | 1 | the held beat ends its message (its own `tlast`, or a merged one) |
//! | `valid` | out | 1 | the held beat leaves this cycle |
//! | `next_byte`, `next_is_end` | out | 8, 1 | what follows the leaving beat: the first byte of the next beat, or the end of the message |
//! | `dropped` | out | 1 | a beat was dropped this cycle |
//!
//! ## Latency
//! One cycle at line rate; a beat whose last byte may leave a sequence
//! open waits for the next beat or the end of its message.
//!
//! ```text
//! clock       _/‾\_/‾\_/‾\_/‾\_/‾\_
//! in_byte      <C2 .><41 42><     >
//! byte              <C2 . ><41 42 >          N = 2
//! valid        _____/‾‾‾‾‾‾\_____            (41 42 leaves at once: 42 is ASCII)
//! next_byte         < 41  >
//! ```
//!
//! ## Invariants
//! * One beat leaves at most per cycle, and beats leave in order.
//! * `dropped` and `valid` account for every beat that came in.

use rust_hdl::prelude::*;

use crate::utf8_decoder_wide::many;

#[derive(LogicBlock)]
pub struct LookaheadHold<const N: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub in_byte: Vec<Signal<In, Bits<8>>>,
    pub in_present: Vec<Signal<In, Bit>>,
    pub in_tail: Vec<Signal<In, Bits<8>>>,
    pub in_tlast: Signal<In, Bit>,
    pub in_valid: Signal<In, Bit>,
    pub byte: Vec<Signal<Out, Bits<8>>>,
    pub present: Vec<Signal<Out, Bit>>,
    pub tail: Vec<Signal<Out, Bits<8>>>,
    pub tlast: Signal<Out, Bit>,
    pub valid: Signal<Out, Bit>,
    pub next_byte: Signal<Out, Bits<8>>,
    pub next_is_end: Signal<Out, Bit>,
    pub dropped: Signal<Out, Bit>,
    held_byte: Vec<DFF<Bits<8>>>,
    held_present: Vec<DFF<Bit>>,
    held_tail: Vec<DFF<Bits<8>>>,
    held_tlast: DFF<Bit>,
    held_valid: DFF<Bit>,
    /// The held beat's last byte has bit 7 set: it may leave a sequence
    /// open.
    held_open: DFF<Bit>,
    /// The incoming beat has a byte; it is an empty beat with `tlast`.
    in_has_byte: Signal<Local, Bit>,
    in_end: Signal<Local, Bit>,
    merged: Signal<Local, Bit>,
    store: Signal<Local, Bit>,
}

impl<const N: usize> LookaheadHold<N> {
    /// The cycles a beat spends here at line rate.
    pub const LATENCY: u64 = 1;
}

impl<const N: usize> Default for LookaheadHold<N> {
    fn default() -> Self {
        LookaheadHold {
            clock: Default::default(),
            rst: Default::default(),
            in_byte: many(N),
            in_present: many(N),
            in_tail: many(5),
            in_tlast: Default::default(),
            in_valid: Default::default(),
            byte: many(N),
            present: many(N),
            tail: many(5),
            tlast: Default::default(),
            valid: Default::default(),
            next_byte: Default::default(),
            next_is_end: Default::default(),
            dropped: Default::default(),
            held_byte: many(N),
            held_present: many(N),
            held_tail: many(5),
            held_tlast: Default::default(),
            held_valid: Default::default(),
            held_open: Default::default(),
            in_has_byte: Default::default(),
            in_end: Default::default(),
            merged: Default::default(),
            store: Default::default(),
        }
    }
}

impl<const N: usize> Logic for LookaheadHold<N> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, held_tlast, held_valid, held_open);
        for i in 0..N {
            self.held_byte[i].clock.next = self.clock.val();
            self.held_byte[i].d.next = self.held_byte[i].q.val();
            self.held_present[i].clock.next = self.clock.val();
            self.held_present[i].d.next = self.held_present[i].q.val();
            self.byte[i].next = self.held_byte[i].q.val();
            self.present[i].next = self.held_present[i].q.val();
        }
        for t in 0..5 {
            self.held_tail[t].clock.next = self.clock.val();
            self.held_tail[t].d.next = self.held_tail[t].q.val();
            self.tail[t].next = self.held_tail[t].q.val();
        }

        self.in_has_byte.next = self.in_valid.val() & self.in_present[0].val();
        self.in_end.next = self.in_valid.val() & !self.in_present[0].val() & self.in_tlast.val();
        self.merged.next = self.held_valid.q.val() & !self.held_tlast.q.val() & self.in_end.val();
        self.valid.next = self.held_valid.q.val()
            & (self.held_tlast.q.val()
                | !self.held_open.q.val()
                | self.in_has_byte.val()
                | self.in_end.val());
        self.tlast.next = self.held_tlast.q.val() | self.merged.val();
        self.next_byte.next = self.in_byte[0].val();
        self.next_is_end.next = self.held_tlast.q.val() | !self.in_has_byte.val();
        self.store.next = self.in_has_byte.val() | (self.in_end.val() & !self.merged.val());
        self.dropped.next =
            (self.in_valid.val() & !self.in_present[0].val() & !self.in_tlast.val())
                | self.merged.val();

        // A beat that can be stored finds the register free: the held beat
        // leaves in the same cycle (see `valid`).
        if self.valid.val() {
            self.held_valid.d.next = false;
        }
        if self.store.val() {
            self.held_valid.d.next = true;
            self.held_tlast.d.next = self.in_tlast.val();
            // The last byte, or 0 for a beat of no byte.
            self.held_open.d.next = self.in_tail[4].val().get_bit(7);
            for i in 0..N {
                self.held_byte[i].d.next = self.in_byte[i].val();
                self.held_present[i].d.next = self.in_present[i].val();
            }
            for t in 0..5 {
                self.held_tail[t].d.next = self.in_tail[t].val();
            }
        }
        if self.rst.val() {
            self.held_valid.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookahead_hold_is_synthesizable() {
        crate::assert_synthesizable(LookaheadHold::<4>::default());
    }
}
