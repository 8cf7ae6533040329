//! # `DecoderFsm`: pipeline stage 2
//!
//! Holds the open sequence: how many continuing octets it still needs
//! (`bytes_left`), the continuation ranges its next octet may be in
//! (`allowed`, narrower than all five only for the second octet) with the
//! error that any other continuing octet means (`outside_tuser`), and the
//! free bits gathered so far (`gathered`). Each classified byte either continues the
//! open sequence or breaks it; a byte that breaks it is then read again as
//! the start of the next unit, in the same cycle (maximal subparts, Unicode
//! §3.9). So one byte can yield two units: the error of the sequence it broke
//! (`pre_error_*`) and its own word (`word_*`). Both are registered here;
//! the output register sends the word one cycle after the error.
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
//! | `class`, `continuation`, `free_bits`, `last`, `valid` | in | 5/5/8/1/1 | stage 1's registers |
//! | `pre_error_valid`, `pre_error_tuser` | out | 1/4 | registered: the sequence this byte broke |
//! | `word_tvalid`/`tdata`/`tuser`/`tlast` | out | 1/32/4/1 | registered: this byte's own unit; `tdata` is meaningless when `tuser` flags an error |
//!
//! ## Latency
//! One cycle after stage 1, for both outputs.
//!
//! ```text
//! clock            _/‾\_/‾\_/‾\_/‾\_/‾\_
//! class (stage 1)   <Lead2><Ascii><Ascii>         bytes C2 41 42
//! bytes_left            < 0 >< 1 >< 0 >< 0 >
//! pre_error_valid   ____________/‾‾‾‾‾\____        C2 is truncated by 41
//! word_tdata                     <0041 ><0042>
//! ```
//!
//! ## Invariants
//! * `pre_error_valid` implies that the previous byte produced no word: it
//!   was the lead or a continuing octet of the sequence being broken. So
//!   when the output register sends each word one cycle after the errors of
//!   the same stage, no two units ever compete for a slot.
//! * `bytes_left` is 0 after a byte with `last`: no state crosses messages.
//! * A byte never waits: every valid byte is consumed in its cycle.

use rust_hdl::prelude::*;

use crate::classifier::ByteClass;
use crate::interface::{ErrorKind, Profile};

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
    pub continuation: Signal<In, Bits<5>>,
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
    /// The continuation ranges (one bit each, as in `continuation`) that
    /// the next octet may be in: all of them, except for the second octet
    /// after E0, ED, F0, F4 (rfc3629), F8 and FC.
    pub allowed: DFF<Bits<5>>,
    /// The error that a continuing octet outside `allowed` means.
    pub outside_tuser: DFF<Bits<4>>,
    pub gathered: DFF<Bits<32>>,
    pre_error_valid_reg: DFF<Bit>,
    pre_error_tuser_reg: DFF<Bits<4>>,
    word_tvalid_reg: DFF<Bit>,
    word_tuser_reg: DFF<Bits<4>>,
    word_tlast_reg: DFF<Bit>,
    /// This byte may stand where the open sequence expects its next octet.
    in_bound: Signal<Local, Bit>,
    is_continuation: Signal<Local, Bit>,
    is_lead: Signal<Local, Bit>,
    free_bits_wide: Signal<Local, Bits<32>>,
    value_mask: Constant<Bits<32>>,
    tuser_ok: Constant<Bits<4>>,
    tuser_invalid_byte: Constant<Bits<4>>,
    tuser_unexpected_continuation: Constant<Bits<4>>,
    tuser_truncated: Constant<Bits<4>>,
    tuser_overlong: Constant<Bits<4>>,
    tuser_surrogate: Constant<Bits<4>>,
    tuser_out_of_range: Constant<Bits<4>>,
    /// `allowed` values: the second-byte column of the well-formed table.
    any_continuation: Constant<Bits<5>>,
    second_a0_bf: Constant<Bits<5>>,
    second_80_9f: Constant<Bits<5>>,
    second_90_bf: Constant<Bits<5>>,
    second_80_8f: Constant<Bits<5>>,
    second_88_bf: Constant<Bits<5>>,
    second_84_bf: Constant<Bits<5>>,
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
            continuation: Default::default(),
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
            allowed: Default::default(),
            outside_tuser: Default::default(),
            gathered: Default::default(),
            pre_error_valid_reg: Default::default(),
            pre_error_tuser_reg: Default::default(),
            word_tvalid_reg: Default::default(),
            word_tuser_reg: Default::default(),
            word_tlast_reg: Default::default(),
            in_bound: Default::default(),
            is_continuation: Default::default(),
            is_lead: Default::default(),
            free_bits_wide: Default::default(),
            value_mask: Constant::new(
                ((1u64 << (32 - profile.max_value().leading_zeros())) - 1).into(),
            ),
            tuser_ok: Constant::new(0.into()),
            tuser_invalid_byte: error_tuser(ErrorKind::InvalidByte),
            tuser_unexpected_continuation: error_tuser(ErrorKind::UnexpectedContinuation),
            tuser_truncated: error_tuser(ErrorKind::Truncated),
            tuser_overlong: error_tuser(ErrorKind::Overlong),
            tuser_surrogate: error_tuser(ErrorKind::Surrogate),
            tuser_out_of_range: error_tuser(ErrorKind::OutOfRange),
            any_continuation: Constant::new(0b11111.into()),
            second_a0_bf: Constant::new(0b10000.into()),
            second_80_9f: Constant::new(0b01111.into()),
            second_90_bf: Constant::new(0b11000.into()),
            second_80_8f: Constant::new(0b00111.into()),
            second_88_bf: Constant::new(0b11100.into()),
            second_84_bf: Constant::new(0b11110.into()),
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
            allowed,
            outside_tuser,
            gathered,
            pre_error_valid_reg,
            pre_error_tuser_reg,
            word_tvalid_reg,
            word_tuser_reg,
            word_tlast_reg
        );
        self.pre_error_valid.next = self.pre_error_valid_reg.q.val();
        self.pre_error_tuser.next = self.pre_error_tuser_reg.q.val();
        self.word_tvalid.next = self.word_tvalid_reg.q.val();
        // A word's value is what the sequence gathered, so `gathered` is
        // the word register too.
        self.word_tdata.next = self.gathered.q.val();
        self.word_tuser.next = self.word_tuser_reg.q.val();
        self.word_tlast.next = self.word_tlast_reg.q.val();
        self.free_bits_wide.next = bit_cast::<32, 8>(self.free_bits.val());
        // A continuing octet that `allowed` admits here.
        self.in_bound.next = (self.continuation.val() & self.allowed.q.val()).any();
        self.is_continuation.next = self.continuation.val().any();
        self.is_lead.next = true;
        match self.class.val() {
            ByteClass::Ascii => {
                self.is_lead.next = false;
            }
            ByteClass::OverlongLead => {
                self.is_lead.next = false;
            }
            ByteClass::OutOfRangeLead => {
                self.is_lead.next = false;
            }
            ByteClass::Invalid => {
                self.is_lead.next = false;
            }
            _ => {}
        }
        if self.continuation.val().any() {
            self.is_lead.next = false;
        }

        if self.advance.val() {
            self.pre_error_valid_reg.d.next = false;
            self.pre_error_tuser_reg.d.next = self.tuser_truncated.val();
            self.word_tvalid_reg.d.next = false;
            self.word_tlast_reg.d.next = self.last.val();
            self.word_tuser_reg.d.next = self.tuser_truncated.val();
            if self.valid.val() & self.bytes_left.q.val().any() & self.in_bound.val() {
                // The byte continues the open sequence (Annex R Note 5: its
                // six free bits are the next less significant ones).
                self.gathered.d.next = ((self.gathered.q.val() << 6) | self.free_bits_wide.val())
                    & self.value_mask.val();
                self.bytes_left.d.next = self.bytes_left.q.val() - self.one.val();
                self.allowed.d.next = self.any_continuation.val();
                if self.bytes_left.q.val() == self.one.val() {
                    self.word_tvalid_reg.d.next = true;
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
                    self.pre_error_valid_reg.d.next = true;
                    if self.is_continuation.val() {
                        self.pre_error_tuser_reg.d.next = self.outside_tuser.q.val();
                    }
                }
                // Then the byte starts the next unit.
                self.gathered.d.next = self.free_bits_wide.val();
                self.bytes_left.d.next = self.empty.val();
                self.allowed.d.next = self.any_continuation.val();
                self.outside_tuser.d.next = self.tuser_truncated.val();
                self.word_tvalid_reg.d.next = true;
                if self.is_continuation.val() {
                    self.word_tuser_reg.d.next = self.tuser_unexpected_continuation.val();
                }
                match self.class.val() {
                    ByteClass::Ascii => {
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
                        self.allowed.d.next = self.second_a0_bf.val();
                        self.outside_tuser.d.next = self.tuser_overlong.val();
                    }
                    ByteClass::LeadED => {
                        self.bytes_left.d.next = self.two.val();
                        self.allowed.d.next = self.second_80_9f.val();
                        self.outside_tuser.d.next = self.tuser_surrogate.val();
                    }
                    ByteClass::Lead3 => {
                        self.bytes_left.d.next = self.two.val();
                    }
                    ByteClass::LeadF0 => {
                        self.bytes_left.d.next = self.three.val();
                        self.allowed.d.next = self.second_90_bf.val();
                        self.outside_tuser.d.next = self.tuser_overlong.val();
                    }
                    ByteClass::LeadF4 => {
                        self.bytes_left.d.next = self.three.val();
                        self.allowed.d.next = self.second_80_8f.val();
                        self.outside_tuser.d.next = self.tuser_out_of_range.val();
                    }
                    ByteClass::Lead4 => {
                        self.bytes_left.d.next = self.three.val();
                    }
                    ByteClass::LeadF8 => {
                        self.bytes_left.d.next = self.four.val();
                        self.allowed.d.next = self.second_88_bf.val();
                        self.outside_tuser.d.next = self.tuser_overlong.val();
                    }
                    ByteClass::Lead5 => {
                        self.bytes_left.d.next = self.four.val();
                    }
                    ByteClass::LeadFC => {
                        self.bytes_left.d.next = self.five.val();
                        self.allowed.d.next = self.second_84_bf.val();
                        self.outside_tuser.d.next = self.tuser_overlong.val();
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
            self.pre_error_valid_reg.d.next = false;
            self.word_tvalid_reg.d.next = false;
        }
    }
}
