//! # `LaneMark`: one lane's error mark within its beat (combinational)
//!
//! A kept byte is marked with the `tuser` of its error ([`ErrorKind::tuser`],
//! 0 for none) when it is the first byte of a malformed maximal subpart,
//! as far as its own beat tells:
//!
//! * a continuing octet that no sequence in the beat takes: the `forward`
//!   summary of the beat's lanes before it ends in an open first octet
//!   (`trail` < `need`) whose second octet (this byte if `trail` is 0, else
//!   `first`) is in its `mask`; otherwise it is an unexpected continuation.
//!   A continuing octet with only continuing octets before it in the beat
//!   (`forward`'s `all`) is also taken when there are fewer of those
//!   (`trail`) than `room`: an earlier beat's first octet takes it;
//! * a byte that starts no sequence (C0, C1, F5–FF as the profile says);
//! * a first octet whose sequence does not complete: the `backward`
//!   summary of the beat after it starts with a byte outside its `mask`
//!   (the lead's own kind, or truncated when that byte continues nothing),
//!   or with fewer continuing octets than it needs before another byte.
//!   When the beat ends first (`backward` is continuing octets only, or
//!   empty), the sequence is `open`: the next beats decide it, unless
//!   this beat has `tlast`, which truncates it.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `mark_class`, `keep` | in | 13, 1 | the lane's byte's mark class ([`LaneLookup`](crate::utf8_validator::LaneLookup)), and whether it holds one |
//! | `forward` | in | 17 | the forward summary of the beat's lanes before it |
//! | `backward` | in | 9 | the backward summary of the beat's lanes after it |
//! | `room` | in | 3 | the continuing octets that a first octet in an earlier beat still takes at the beat's start: 0 when there is none, or when it refuses the beat's first byte |
//! | `last` | in | 1 | the beat has `tlast` |
//! | `tuser` | out | 4 | the lane's mark |
//! | `open` | out | 1 | a first octet whose sequence runs past the beat |
//!
//! ## Latency
//! None: combinational.

use rust_hdl::prelude::*;

use crate::utf8_decoder::lead_table::error_tuser;
use utf8hdl_reference::ErrorKind;

#[derive(LogicBlock)]
pub struct LaneMark {
    pub mark_class: Signal<In, Bits<13>>,
    pub keep: Signal<In, Bit>,
    pub forward: Signal<In, Bits<17>>,
    pub backward: Signal<In, Bits<9>>,
    pub room: Signal<In, Bits<3>>,
    pub last: Signal<In, Bit>,
    pub tuser: Signal<Out, Bits<4>>,
    pub open: Signal<Out, Bit>,
    /// The class's fields: a continuing octet; the continuing octets a
    /// first octet asks for; the range of a continuing octet, or of a
    /// first octet's second octet; the byte's mark.
    continuing: Signal<Local, Bit>,
    need: Signal<Local, Bits<3>>,
    range: Signal<Local, Bits<5>>,
    kind: Signal<Local, Bits<4>>,
    /// The second octet of the open sequence before a continuing octet.
    second: Signal<Local, Bits<5>>,
    /// The sequence this first octet starts reaches the end of the beat.
    runs_on: Signal<Local, Bit>,
    tuser_truncated: Constant<Bits<4>>,
}

impl Default for LaneMark {
    fn default() -> Self {
        LaneMark {
            mark_class: Default::default(),
            keep: Default::default(),
            forward: Default::default(),
            backward: Default::default(),
            room: Default::default(),
            last: Default::default(),
            tuser: Default::default(),
            open: Default::default(),
            continuing: Default::default(),
            need: Default::default(),
            range: Default::default(),
            kind: Default::default(),
            second: Default::default(),
            runs_on: Default::default(),
            tuser_truncated: error_tuser(ErrorKind::Truncated),
        }
    }
}

impl Logic for LaneMark {
    #[hdl_gen]
    fn update(&mut self) {
        self.continuing.next = self.mark_class.val().get_bit(0);
        self.need.next = self.mark_class.val().get_bits::<3>(1);
        self.range.next = self.mark_class.val().get_bits::<5>(4);
        self.kind.next = self.mark_class.val().get_bits::<4>(9);
        self.second.next = self.forward.val().get_bits::<5>(12);
        if self.forward.val().get_bits::<3>(1) == 0 {
            self.second.next = self.range.val();
        }
        self.runs_on.next = false;
        self.tuser.next = 0.into();
        if self.keep.val() & self.continuing.val() {
            if !((self.forward.val().get_bits::<3>(1) < self.forward.val().get_bits::<3>(4))
                & ((self.second.val() & self.forward.val().get_bits::<5>(7)) != 0))
                & !(self.forward.val().get_bit(0)
                    & (self.forward.val().get_bits::<3>(1) < self.room.val()))
            {
                self.tuser.next = self.kind.val();
            }
        } else if self.keep.val() & (self.need.val() == 0) {
            self.tuser.next = self.kind.val();
        } else if self.keep.val() {
            if self.backward.val().get_bits::<4>(0) == 1 {
                // Nothing after it in the beat.
                self.runs_on.next = true;
            } else if (self.backward.val().get_bits::<5>(4) & self.range.val()) == 0 {
                self.tuser.next = self.tuser_truncated.val();
                if self.backward.val().get_bits::<5>(4) != 0 {
                    self.tuser.next = self.kind.val();
                }
            } else if self.backward.val().get_bits::<3>(1) < self.need.val() {
                // Too few continuing octets: another byte ends them, or
                // the beat does.
                if self.backward.val().get_bit(0) {
                    self.runs_on.next = true;
                } else {
                    self.tuser.next = self.tuser_truncated.val();
                }
            }
        }
        self.open.next = self.runs_on.val() & !self.last.val();
        if self.runs_on.val() & self.last.val() {
            self.tuser.next = self.tuser_truncated.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_mark_is_synthesizable() {
        crate::assert_synthesizable(LaneMark::default());
    }
}
