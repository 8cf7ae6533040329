//! # `DecoderFsm`: pipeline stage 2
//!
//! Holds the open sequence: how many continuing octets it still needs
//! (`bytes_left`, a thermometer code), the error that a continuing octet
//! outside the second-byte bound means (`outside_tuser`), and the free bits
//! gathered so far (`gathered`). The classifier has already read each byte's
//! [`LeadTable`](crate::utf8_decoder::lead_table::LeadTable) row and checked it against
//! the bound of the byte before it (`classified.in_bound`), so the decoder
//! decides from flops alone: whether the byte continues the open sequence
//! is one AND of three of them. Each classified byte either continues the
//! open sequence or breaks it; a byte that breaks it is then read again as
//! the start of the next unit, in the same cycle (maximal subparts, Unicode
//! §3.9). So one byte can yield two units: the error of the sequence it broke
//! (`units.pre_error_*`) and its own word (`units.word_*`). Both are
//! registered here; the output register sends the word one cycle after the
//! error.
//!
//! ## Parameter
//! `value_mask` (a [`Constant`] set from [`Profile::max_value`]): the UCS-4
//! bits the profile can reach (21 for rfc3629, 31 for iso10646), so synthesis
//! drops the rest of `gathered`.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `rst` | in | 1 | clock; synchronous reset, active high |
//! | `advance` | in | 1 | the pipeline moves this cycle |
//! | `classified.*` | in | | [`ClassifiedIn`]: stage 1's registers (`continuation`, `in_bound`, `free_bits`, `start_left`, `start_word`, `start_tuser`, `outside_tuser`, `last`, `valid`) |
//! | `units.pre_error_valid`/`pre_error_tuser` | out | 1/4 | [`UnitsOut`], registered: the sequence this byte broke |
//! | `units.word_tvalid`/`word_tdata`/`word_tuser`/`word_tlast` | out | 1/32/4/1 | registered: this byte's own unit; `word_tdata` is meaningless when `word_tuser` flags an error |
//!
//! ## Latency
//! One cycle after stage 1, for both outputs.
//!
//! ```text
//! clock                  _/‾\_/‾\_/‾\_/‾\_/‾\_
//! (bytes C2 41 42 reach stage 1 in cycles 0, 1, 2)
//! bytes_left                  <00000><00001><00000><00000>
//! units.pre_error_valid   ____________/‾‾‾‾‾\____        C2 is truncated by 41
//! units.word_tdata                     <0041 ><0042>
//! ```
//!
//! ## Invariants
//! * `pre_error_valid` implies that the previous byte produced no word: it
//!   was the lead or a continuing octet of the sequence being broken. So
//!   when the output register sends each word one cycle after the errors of
//!   the same stage, no two units ever compete for a slot.
//! * `bytes_left` is a thermometer code (bits set from bit 0 up), and 0
//!   after a byte with `last`: no state crosses messages.
//! * A byte never waits: every valid byte is consumed in its cycle.

use rust_hdl::prelude::*;

use crate::utf8_decoder::classifier::ClassifiedIn;
use crate::utf8_decoder::lead_table::error_tuser;
use utf8hdl_reference::{ErrorKind, Profile};

/// The units of one byte, from the decoder to the output register; joined
/// to a [`UnitsIn`]. Every field is a flop of the decoder.
#[derive(LogicInterface, Default)]
#[join = "UnitsIn"]
pub struct UnitsOut {
    /// The error of the sequence that this byte broke.
    pub pre_error_valid: Signal<Out, Bit>,
    pub pre_error_tuser: Signal<Out, Bits<4>>,
    /// This byte's own unit.
    pub word_tvalid: Signal<Out, Bit>,
    pub word_tdata: Signal<Out, Bits<32>>,
    pub word_tuser: Signal<Out, Bits<4>>,
    pub word_tlast: Signal<Out, Bit>,
}

/// The receiving end of a [`UnitsOut`].
#[derive(LogicInterface, Default)]
#[join = "UnitsOut"]
pub struct UnitsIn {
    pub pre_error_valid: Signal<In, Bit>,
    pub pre_error_tuser: Signal<In, Bits<4>>,
    pub word_tvalid: Signal<In, Bit>,
    pub word_tdata: Signal<In, Bits<32>>,
    pub word_tuser: Signal<In, Bits<4>>,
    pub word_tlast: Signal<In, Bit>,
}

#[derive(LogicBlock)]
pub struct DecoderFsm {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub advance: Signal<In, Bit>,
    pub classified: ClassifiedIn,
    pub units: UnitsOut,
    /// Continuing octets the open sequence still needs, as a thermometer
    /// code: bit k is set while more than k are due; 0 when none is open.
    pub bytes_left: DFF<Bits<5>>,
    /// The error that a continuing octet outside the second-byte bound
    /// means.
    pub outside_tuser: DFF<Bits<4>>,
    pub gathered: DFF<Bits<32>>,
    pre_error_valid: DFF<Bit>,
    pre_error_tuser: DFF<Bits<4>>,
    word_tvalid: DFF<Bit>,
    word_tuser: DFF<Bits<4>>,
    word_tlast: DFF<Bit>,
    /// The byte continues the open sequence.
    continues: Signal<Local, Bit>,
    /// `classified.free_bits` zero-extended to 32 bits.
    free_bits_wide: Signal<Local, Bits<32>>,
    value_mask: Constant<Bits<32>>,
    /// The truncated error, from [`ErrorKind`].
    tuser_truncated: Constant<Bits<4>>,
}

impl DecoderFsm {
    pub fn new(profile: Profile) -> Self {
        DecoderFsm {
            clock: Default::default(),
            rst: Default::default(),
            advance: Default::default(),
            classified: Default::default(),
            units: Default::default(),
            bytes_left: Default::default(),
            outside_tuser: Default::default(),
            gathered: Default::default(),
            pre_error_valid: Default::default(),
            pre_error_tuser: Default::default(),
            word_tvalid: Default::default(),
            word_tuser: Default::default(),
            word_tlast: Default::default(),
            continues: Default::default(),
            free_bits_wide: Default::default(),
            value_mask: Constant::new(
                ((1u64 << (32 - profile.max_value().leading_zeros())) - 1).into(),
            ),
            tuser_truncated: error_tuser(ErrorKind::Truncated),
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
            outside_tuser,
            gathered,
            pre_error_valid,
            pre_error_tuser,
            word_tvalid,
            word_tuser,
            word_tlast
        );
        self.units.pre_error_valid.next = self.pre_error_valid.q.val();
        self.units.pre_error_tuser.next = self.pre_error_tuser.q.val();
        self.units.word_tvalid.next = self.word_tvalid.q.val();
        // A word's value is what the sequence gathered, so `gathered` is
        // the word register too.
        self.units.word_tdata.next = self.gathered.q.val();
        self.units.word_tuser.next = self.word_tuser.q.val();
        self.units.word_tlast.next = self.word_tlast.q.val();
        // rust-hdl writes this `x & 32'hffffffff` with an 8-bit `x`; the
        // export rewrites it as a zero-extension (`zero_extensions` in
        // synth/src/verilog says why the design keeps `bit_cast`).
        self.free_bits_wide.next = bit_cast::<32, 8>(self.classified.free_bits.val());
        // A sequence is open and the byte is a continuing octet within its
        // bound (which the classifier checked against the previous byte).
        self.continues.next = self.classified.valid.val()
            & self.bytes_left.q.val().get_bit(0)
            & self.classified.in_bound.val();

        if self.advance.val() {
            self.pre_error_valid.d.next = false;
            self.pre_error_tuser.d.next = self.tuser_truncated.val();
            self.word_tvalid.d.next = false;
            self.word_tlast.d.next = self.classified.last.val();
            self.word_tuser.d.next = self.tuser_truncated.val();
            if self.classified.valid.val() {
                // Only a second octet can be outside a bound, so only the
                // byte before it, the lead, needs its `outside_tuser`:
                // loading it from every valid byte, continuing or not,
                // keeps `continues` off its enable.
                self.outside_tuser.d.next = self.classified.outside_tuser.val();
            }
            if self.continues.val() {
                // The byte continues the open sequence (Annex R Note 5: its
                // six free bits are the next less significant ones).
                self.gathered.d.next = ((self.gathered.q.val() << 6) | self.free_bits_wide.val())
                    & self.value_mask.val();
                self.bytes_left.d.next = self.bytes_left.q.val() >> 1;
                if !self.bytes_left.q.val().get_bit(1) {
                    // It was the last one due.
                    self.word_tvalid.d.next = true;
                    self.word_tuser.d.next = 0.into();
                } else if self.classified.last.val() {
                    // The message ends inside the sequence.
                    self.word_tvalid.d.next = true;
                    self.bytes_left.d.next = 0.into();
                }
            } else if self.classified.valid.val() {
                if self.bytes_left.q.val().get_bit(0) {
                    // The byte breaks the open sequence, which becomes one
                    // error unit; a continuing octet outside the second-byte
                    // bound names the rule it broke.
                    self.pre_error_valid.d.next = true;
                    if self.classified.continuation.val() {
                        self.pre_error_tuser.d.next = self.outside_tuser.q.val();
                    }
                }
                // Then the byte starts the next unit, as the classifier
                // read it from its [`LeadTable`](crate::utf8_decoder::lead_table::LeadTable)
                // row: a whole character, an error on its own, or the first
                // octet of a sequence.
                self.gathered.d.next = self.free_bits_wide.val();
                self.bytes_left.d.next = self.classified.start_left.val();
                self.word_tvalid.d.next = self.classified.start_word.val();
                self.word_tuser.d.next = self.classified.start_tuser.val();
            }
        }
        if self.rst.val() {
            self.bytes_left.d.next = 0.into();
            self.pre_error_valid.d.next = false;
            self.word_tvalid.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decoder_fsm_is_synthesizable() {
        for profile in Profile::ALL {
            crate::assert_synthesizable(DecoderFsm::new(profile));
        }
    }
}
