//! # `DecoderFsm`: pipeline stage 2
//!
//! Holds the open sequence: how many continuing octets it still needs
//! (`bytes_left`), the bound on its second octet (`bound`), and the free bits
//! gathered so far (`gathered`). Each classified byte either continues the
//! open sequence or breaks it; a byte that breaks it is then read again as
//! the start of the next unit, in the same cycle (maximal subparts, Unicode
//! §3.9). So one byte can yield two units: the error of the sequence it broke
//! (`pre_error_*`, combinational, one cycle before the byte's own word) and
//! its own word (`word_*`, registered).
//!
//! ## Parameter
//! `value_mask` (a [`Constant`] set from the profile): the UCS-4 bits the
//! profile can reach (21 for rfc3629, 31 for iso10646), so synthesis drops the
//! rest of `gathered`.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `rst` | in | 1 | clock; synchronous reset, active high |
//! | `advance` | in | 1 | the pipeline moves this cycle |
//! | `class`, `free_bits`, `last`, `valid` | in | 5/8/1/1 | stage 1's registers |
//! | `pre_error_valid`, `pre_error_tuser` | out | 1/4 | the sequence this byte broke (combinational) |
//! | `word_tvalid`/`tdata`/`tuser`/`tlast` | out | 1/32/4/1 | this byte's own unit (registered) |
//!
//! ## Latency
//! `word_*` one cycle after stage 1; `pre_error_*` in stage 1's cycle.
//!
//! ```text
//! clock            _/‾\_/‾\_/‾\_/‾\_/‾\_
//! class (stage 1)   <Lead2><Ascii><Ascii>         bytes C2 41 42
//! bytes_left            < 0 >< 1 >< 0 >< 0 >
//! pre_error_valid   ______/‾‾‾‾‾\__________        C2 is truncated by 41
//! word_tdata                     <0041 ><0042>
//! ```
//!
//! ## Invariants
//! * `pre_error_valid` implies the previous byte produced no word: it was
//!   the lead or a continuing octet of the sequence being broken. So the
//!   output stage never has two units for the same slot.
//! * `bytes_left` is 0 after a byte with `last`: no state crosses messages.
//! * A byte never waits: every valid byte is consumed in its cycle.

use rust_hdl::prelude::*;

use crate::classifier::ByteClass;
use crate::interface::{ErrorKind, Profile, REPLACEMENT};

/// The bound on the second octet of the open sequence (the shortest-form,
/// surrogate and range rules of RFC 3629 §3 and Annex R). After the second
/// octet every continuing octet is allowed.
#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
pub enum Bound {
    Any,
    /// After E0 (else overlong).
    AtLeastA0,
    /// After F0 (else overlong).
    AtLeast90,
    /// After F8 (else overlong).
    AtLeast88,
    /// After FC (else overlong).
    AtLeast84,
    /// After ED (else surrogate).
    AtMost9F,
    /// After F4 in rfc3629 (else out of range).
    AtMost8F,
}

impl Bound {
    /// Every bound, in code order (the encoding `LogicState` gives them).
    pub const ALL: [Bound; 7] = [
        Bound::Any,
        Bound::AtLeastA0,
        Bound::AtLeast90,
        Bound::AtLeast88,
        Bound::AtLeast84,
        Bound::AtMost9F,
        Bound::AtMost8F,
    ];
}

/// `m_axis_tuser` for an error: the kind code in bits 3:1, bit 0 set.
fn error_tuser(kind: ErrorKind) -> Constant<Bits<4>> {
    Constant::new(((kind.code() as u64) << 1 | 1).into())
}

#[derive(LogicBlock)]
pub struct DecoderFsm {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub advance: Signal<In, Bit>,
    pub class: Signal<In, ByteClass>,
    pub free_bits: Signal<In, Bits<8>>,
    pub last: Signal<In, Bit>,
    pub valid: Signal<In, Bit>,
    pub pre_error_valid: Signal<Out, Bit>,
    pub pre_error_tuser: Signal<Out, Bits<4>>,
    pub word_tvalid: Signal<Out, Bit>,
    pub word_tdata: Signal<Out, Bits<32>>,
    pub word_tuser: Signal<Out, Bits<4>>,
    pub word_tlast: Signal<Out, Bit>,
    /// Continuing octets the open sequence still needs; 0 when none is open.
    pub bytes_left: DFF<Bits<3>>,
    pub bound: DFF<Bound>,
    pub gathered: DFF<Bits<32>>,
    word_tvalid_reg: DFF<Bit>,
    word_tdata_reg: DFF<Bits<32>>,
    word_tuser_reg: DFF<Bits<4>>,
    word_tlast_reg: DFF<Bit>,
    /// This byte may stand where the open sequence expects its next octet.
    in_bound: Signal<Local, Bit>,
    is_continuation: Signal<Local, Bit>,
    is_lead: Signal<Local, Bit>,
    free_bits_wide: Signal<Local, Bits<32>>,
    value_mask: Constant<Bits<32>>,
    replacement: Constant<Bits<32>>,
    tuser_ok: Constant<Bits<4>>,
    tuser_invalid_byte: Constant<Bits<4>>,
    tuser_unexpected_continuation: Constant<Bits<4>>,
    tuser_truncated: Constant<Bits<4>>,
    tuser_overlong: Constant<Bits<4>>,
    tuser_surrogate: Constant<Bits<4>>,
    tuser_out_of_range: Constant<Bits<4>>,
    one: Constant<Bits<3>>,
    two: Constant<Bits<3>>,
    three: Constant<Bits<3>>,
    four: Constant<Bits<3>>,
    five: Constant<Bits<3>>,
    empty: Constant<Bits<3>>,
}

impl DecoderFsm {
    pub fn new(profile: Profile) -> Self {
        let count = |n: u64| Constant::new(n.into());
        DecoderFsm {
            clock: Default::default(),
            rst: Default::default(),
            advance: Default::default(),
            class: Default::default(),
            free_bits: Default::default(),
            last: Default::default(),
            valid: Default::default(),
            pre_error_valid: Default::default(),
            pre_error_tuser: Default::default(),
            word_tvalid: Default::default(),
            word_tdata: Default::default(),
            word_tuser: Default::default(),
            word_tlast: Default::default(),
            bytes_left: Default::default(),
            bound: Default::default(),
            gathered: Default::default(),
            word_tvalid_reg: Default::default(),
            word_tdata_reg: Default::default(),
            word_tuser_reg: Default::default(),
            word_tlast_reg: Default::default(),
            in_bound: Default::default(),
            is_continuation: Default::default(),
            is_lead: Default::default(),
            free_bits_wide: Default::default(),
            value_mask: Constant::new(
                ((1u64 << (32 - profile.max_value().leading_zeros())) - 1).into(),
            ),
            replacement: Constant::new((REPLACEMENT as u64).into()),
            tuser_ok: Constant::new(0.into()),
            tuser_invalid_byte: error_tuser(ErrorKind::InvalidByte),
            tuser_unexpected_continuation: error_tuser(ErrorKind::UnexpectedContinuation),
            tuser_truncated: error_tuser(ErrorKind::Truncated),
            tuser_overlong: error_tuser(ErrorKind::Overlong),
            tuser_surrogate: error_tuser(ErrorKind::Surrogate),
            tuser_out_of_range: error_tuser(ErrorKind::OutOfRange),
            one: count(1),
            two: count(2),
            three: count(3),
            four: count(4),
            five: count(5),
            empty: count(0),
        }
    }
}

impl Logic for DecoderFsm {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            bytes_left,
            bound,
            gathered,
            word_tvalid_reg,
            word_tdata_reg,
            word_tuser_reg,
            word_tlast_reg
        );
        self.word_tvalid.next = self.word_tvalid_reg.q.val();
        self.word_tdata.next = self.word_tdata_reg.q.val();
        self.word_tuser.next = self.word_tuser_reg.q.val();
        self.word_tlast.next = self.word_tlast_reg.q.val();
        self.free_bits_wide.next = bit_cast::<32, 8>(self.free_bits.val());
        // Which continuing octets the bound admits (the second-byte column
        // of the well-formed table).
        self.in_bound.next = false;
        self.is_continuation.next = false;
        self.is_lead.next = false;
        match self.class.val() {
            ByteClass::Cont80 => {
                self.is_continuation.next = true;
                self.in_bound.next = (self.bound.q.val() == Bound::Any)
                    | (self.bound.q.val() == Bound::AtMost9F)
                    | (self.bound.q.val() == Bound::AtMost8F);
            }
            ByteClass::Cont84 => {
                self.is_continuation.next = true;
                self.in_bound.next = (self.bound.q.val() == Bound::Any)
                    | (self.bound.q.val() == Bound::AtMost9F)
                    | (self.bound.q.val() == Bound::AtMost8F)
                    | (self.bound.q.val() == Bound::AtLeast84);
            }
            ByteClass::Cont88 => {
                self.is_continuation.next = true;
                self.in_bound.next = (self.bound.q.val() == Bound::Any)
                    | (self.bound.q.val() == Bound::AtMost9F)
                    | (self.bound.q.val() == Bound::AtMost8F)
                    | (self.bound.q.val() == Bound::AtLeast84)
                    | (self.bound.q.val() == Bound::AtLeast88);
            }
            ByteClass::Cont90 => {
                self.is_continuation.next = true;
                self.in_bound.next = (self.bound.q.val() == Bound::Any)
                    | (self.bound.q.val() == Bound::AtMost9F)
                    | (self.bound.q.val() == Bound::AtLeast84)
                    | (self.bound.q.val() == Bound::AtLeast88)
                    | (self.bound.q.val() == Bound::AtLeast90);
            }
            ByteClass::ContA0 => {
                self.is_continuation.next = true;
                self.in_bound.next = (self.bound.q.val() == Bound::Any)
                    | (self.bound.q.val() == Bound::AtLeast84)
                    | (self.bound.q.val() == Bound::AtLeast88)
                    | (self.bound.q.val() == Bound::AtLeast90)
                    | (self.bound.q.val() == Bound::AtLeastA0);
            }
            ByteClass::Ascii => {}
            ByteClass::OverlongLead => {}
            ByteClass::OutOfRangeLead => {}
            ByteClass::Invalid => {}
            _ => {
                self.is_lead.next = true;
            }
        }

        self.pre_error_valid.next = false;
        self.pre_error_tuser.next = self.tuser_truncated.val();
        if self.advance.val() {
            self.word_tvalid_reg.d.next = false;
            self.word_tlast_reg.d.next = self.last.val();
            self.word_tdata_reg.d.next = self.replacement.val();
            self.word_tuser_reg.d.next = self.tuser_truncated.val();
            if self.valid.val() & self.bytes_left.q.val().any() & self.in_bound.val() {
                // The byte continues the open sequence (Annex R Note 5: its
                // six free bits are the next less significant ones).
                self.gathered.d.next = ((self.gathered.q.val() << 6) | self.free_bits_wide.val())
                    & self.value_mask.val();
                self.bytes_left.d.next = self.bytes_left.q.val() - self.one.val();
                self.bound.d.next = Bound::Any;
                if self.bytes_left.q.val() == self.one.val() {
                    self.word_tvalid_reg.d.next = true;
                    self.word_tdata_reg.d.next = ((self.gathered.q.val() << 6)
                        | self.free_bits_wide.val())
                        & self.value_mask.val();
                    self.word_tuser_reg.d.next = self.tuser_ok.val();
                } else if self.last.val() {
                    // The message ends inside the sequence.
                    self.word_tvalid_reg.d.next = true;
                    self.bytes_left.d.next = self.empty.val();
                }
            } else if self.valid.val() {
                if self.bytes_left.q.val().any() {
                    // The byte breaks the open sequence, which becomes one
                    // error unit; a continuing octet outside the second-byte
                    // bound names the rule it broke.
                    self.pre_error_valid.next = true;
                    if self.is_continuation.val() {
                        match self.bound.q.val() {
                            Bound::AtMost9F => {
                                self.pre_error_tuser.next = self.tuser_surrogate.val();
                            }
                            Bound::AtMost8F => {
                                self.pre_error_tuser.next = self.tuser_out_of_range.val();
                            }
                            _ => {
                                self.pre_error_tuser.next = self.tuser_overlong.val();
                            }
                        }
                    }
                }
                // Then the byte starts the next unit.
                self.gathered.d.next = self.free_bits_wide.val();
                self.bytes_left.d.next = self.empty.val();
                self.bound.d.next = Bound::Any;
                self.word_tvalid_reg.d.next = true;
                if self.is_continuation.val() {
                    self.word_tuser_reg.d.next = self.tuser_unexpected_continuation.val();
                }
                match self.class.val() {
                    ByteClass::Ascii => {
                        self.word_tdata_reg.d.next = self.free_bits_wide.val();
                        self.word_tuser_reg.d.next = self.tuser_ok.val();
                    }
                    ByteClass::OverlongLead => {
                        self.word_tuser_reg.d.next = self.tuser_overlong.val();
                    }
                    ByteClass::OutOfRangeLead => {
                        self.word_tuser_reg.d.next = self.tuser_out_of_range.val();
                    }
                    ByteClass::Invalid => {
                        self.word_tuser_reg.d.next = self.tuser_invalid_byte.val();
                    }
                    ByteClass::Lead2 => {
                        self.bytes_left.d.next = self.one.val();
                    }
                    ByteClass::LeadE0 => {
                        self.bytes_left.d.next = self.two.val();
                        self.bound.d.next = Bound::AtLeastA0;
                    }
                    ByteClass::LeadED => {
                        self.bytes_left.d.next = self.two.val();
                        self.bound.d.next = Bound::AtMost9F;
                    }
                    ByteClass::Lead3 => {
                        self.bytes_left.d.next = self.two.val();
                    }
                    ByteClass::LeadF0 => {
                        self.bytes_left.d.next = self.three.val();
                        self.bound.d.next = Bound::AtLeast90;
                    }
                    ByteClass::LeadF4 => {
                        self.bytes_left.d.next = self.three.val();
                        self.bound.d.next = Bound::AtMost8F;
                    }
                    ByteClass::Lead4 => {
                        self.bytes_left.d.next = self.three.val();
                    }
                    ByteClass::LeadF8 => {
                        self.bytes_left.d.next = self.four.val();
                        self.bound.d.next = Bound::AtLeast88;
                    }
                    ByteClass::Lead5 => {
                        self.bytes_left.d.next = self.four.val();
                    }
                    ByteClass::LeadFC => {
                        self.bytes_left.d.next = self.five.val();
                        self.bound.d.next = Bound::AtLeast84;
                    }
                    ByteClass::Lead6 => {
                        self.bytes_left.d.next = self.five.val();
                    }
                    _ => {}
                }
                if self.is_lead.val() {
                    // A lead yields no word, unless the message ends on it.
                    self.word_tvalid_reg.d.next = self.last.val();
                    if self.last.val() {
                        self.bytes_left.d.next = self.empty.val();
                    }
                }
            }
        }
        if self.rst.val() {
            self.bytes_left.d.next = self.empty.val();
            self.word_tvalid_reg.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ALL` lists the bounds in the order of their codes.
    #[test]
    fn all_is_in_code_order() {
        for (code, bound) in Bound::ALL.iter().enumerate() {
            let bits: Bits<3> = (*bound).into();
            assert_eq!(bits.to_u64(), code as u64, "{bound:?}");
        }
    }
}
