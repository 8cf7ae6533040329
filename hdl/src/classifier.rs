//! # `ByteClassifier`: pipeline stage 1
//!
//! Maps each byte to its [`ByteClass`] (Annex R Table 1, split where the
//! second-byte bounds of the decoder need it) and registers the class with
//! the byte's free bits. Everything the decoder decides depends on the class,
//! so registering it here keeps the decoder's logic short.
//!
//! ## Parameter
//! `iso10646` (a [`Constant`], fixed when the design is built): whether F5–FD
//! start 4-, 5- and 6-octet sequences (iso10646) or are `OutOfRangeLead`
//! (rfc3629), and whether F4's second byte is bounded.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `rst` | in | 1 | clock; synchronous reset, active high |
//! | `advance` | in | 1 | take the next byte (or a bubble) this cycle |
//! | `byte_tdata`/`byte_tvalid`/`byte_tlast` | in | 8/1/1 | the byte to classify |
//! | `class` | out | 5 | registered [`ByteClass`] |
//! | `continuation` | out | 5 | registered one-hot range of a continuing octet: bit 0 = 80–83, 1 = 84–87, 2 = 88–8F, 3 = 90–9F, 4 = A0–BF; 0 otherwise |
//! | `free_bits` | out | 8 | registered free bits (the `x`s of Table 1) |
//! | `last`, `valid` | out | 1 | registered `tlast` and `tvalid` |
//!
//! ## Latency
//! One cycle.
//!
//! ```text
//! clock       _/‾\_/‾\_/‾\_/‾\_
//! byte_tdata   < E2>< 82>< 41>
//! class             <Lead3><Cont80><Ascii>
//! free_bits         < 02 >< 02 >< 41 >
//! ```
//!
//! ## Invariants
//! * `free_bits` has only the free-bit positions of `class` set.
//! * `continuation` is the class's range as one hot bit (the decoder tests
//!   it against its bound with a single AND-OR, which keeps its logic short).
//! * While `advance` is low every output holds.

use rust_hdl::prelude::*;

use crate::interface::Profile;

/// What one byte can be, as far as the decoder is concerned.
#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
pub enum ByteClass {
    /// 00–7F: a whole character.
    Ascii,
    /// Continuing octets, split at the second-byte bounds: 80–83, 84–87,
    /// 88–8F, 90–9F, A0–BF.
    Cont80,
    Cont84,
    Cont88,
    Cont90,
    ContA0,
    /// C2–DF: first of 2.
    Lead2,
    /// E0: first of 3, second byte A0–BF.
    LeadE0,
    /// ED: first of 3, second byte 80–9F (no surrogates).
    LeadED,
    /// E1–EC, EE–EF: first of 3.
    Lead3,
    /// F0: first of 4, second byte 90–BF.
    LeadF0,
    /// F4 in rfc3629: first of 4, second byte 80–8F (up to U+10FFFF).
    LeadF4,
    /// F1–F3 (and F4–F7 in iso10646): first of 4.
    Lead4,
    /// F8 (iso10646): first of 5, second byte 88–BF.
    LeadF8,
    /// F9–FB (iso10646): first of 5.
    Lead5,
    /// FC (iso10646): first of 6, second byte 84–BF.
    LeadFC,
    /// FD (iso10646): first of 6.
    Lead6,
    /// C0, C1: could only start an overlong form.
    OverlongLead,
    /// F5–FD in rfc3629: beyond U+10FFFF.
    OutOfRangeLead,
    /// FE, FF.
    Invalid,
}

impl ByteClass {
    /// Every class, in code order (the encoding `LogicState` gives them).
    pub const ALL: [ByteClass; 20] = [
        ByteClass::Ascii,
        ByteClass::Cont80,
        ByteClass::Cont84,
        ByteClass::Cont88,
        ByteClass::Cont90,
        ByteClass::ContA0,
        ByteClass::Lead2,
        ByteClass::LeadE0,
        ByteClass::LeadED,
        ByteClass::Lead3,
        ByteClass::LeadF0,
        ByteClass::LeadF4,
        ByteClass::Lead4,
        ByteClass::LeadF8,
        ByteClass::Lead5,
        ByteClass::LeadFC,
        ByteClass::Lead6,
        ByteClass::OverlongLead,
        ByteClass::OutOfRangeLead,
        ByteClass::Invalid,
    ];
}

#[derive(LogicBlock)]
pub struct ByteClassifier {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub advance: Signal<In, Bit>,
    pub byte_tdata: Signal<In, Bits<8>>,
    pub byte_tvalid: Signal<In, Bit>,
    pub byte_tlast: Signal<In, Bit>,
    pub class: Signal<Out, ByteClass>,
    pub continuation: Signal<Out, Bits<5>>,
    pub free_bits: Signal<Out, Bits<8>>,
    pub last: Signal<Out, Bit>,
    pub valid: Signal<Out, Bit>,
    class_reg: DFF<ByteClass>,
    continuation_reg: DFF<Bits<5>>,
    free_bits_reg: DFF<Bits<8>>,
    last_reg: DFF<Bit>,
    valid_reg: DFF<Bit>,
    /// The profile, fixed at build time.
    iso10646: Constant<Bit>,
    /// Free-bit masks: 7 bits for ASCII, 6 for a continuing octet, 7 − n
    /// for the first of n.
    free_mask_0: Constant<Bits<8>>,
    free_mask_1: Constant<Bits<8>>,
    free_mask_2: Constant<Bits<8>>,
    free_mask_3: Constant<Bits<8>>,
    free_mask_4: Constant<Bits<8>>,
    free_mask_5: Constant<Bits<8>>,
    free_mask_6: Constant<Bits<8>>,
    free_mask_7: Constant<Bits<8>>,
    /// The one-hot continuation ranges, and none.
    range_80: Constant<Bits<5>>,
    range_84: Constant<Bits<5>>,
    range_88: Constant<Bits<5>>,
    range_90: Constant<Bits<5>>,
    range_a0: Constant<Bits<5>>,
    no_range: Constant<Bits<5>>,
    lead_e0: Constant<Bits<8>>,
    lead_ed: Constant<Bits<8>>,
    lead_f0: Constant<Bits<8>>,
    lead_f4: Constant<Bits<8>>,
    lead_f8: Constant<Bits<8>>,
    lead_fc: Constant<Bits<8>>,
}

impl ByteClassifier {
    pub fn new(profile: Profile) -> Self {
        ByteClassifier {
            clock: Default::default(),
            rst: Default::default(),
            advance: Default::default(),
            byte_tdata: Default::default(),
            byte_tvalid: Default::default(),
            byte_tlast: Default::default(),
            class: Default::default(),
            continuation: Default::default(),
            free_bits: Default::default(),
            last: Default::default(),
            valid: Default::default(),
            class_reg: Default::default(),
            continuation_reg: Default::default(),
            free_bits_reg: Default::default(),
            last_reg: Default::default(),
            valid_reg: Default::default(),
            iso10646: Constant::new(profile == Profile::Iso10646),
            free_mask_0: Constant::new(0.into()),
            free_mask_1: Constant::new(0x1.into()),
            free_mask_2: Constant::new(0x3.into()),
            free_mask_3: Constant::new(0x7.into()),
            free_mask_4: Constant::new(0xf.into()),
            free_mask_5: Constant::new(0x1f.into()),
            free_mask_6: Constant::new(0x3f.into()),
            free_mask_7: Constant::new(0x7f.into()),
            range_80: Constant::new(0b00001.into()),
            range_84: Constant::new(0b00010.into()),
            range_88: Constant::new(0b00100.into()),
            range_90: Constant::new(0b01000.into()),
            range_a0: Constant::new(0b10000.into()),
            no_range: Constant::new(0.into()),
            lead_e0: Constant::new(0xE0.into()),
            lead_ed: Constant::new(0xED.into()),
            lead_f0: Constant::new(0xF0.into()),
            lead_f4: Constant::new(0xF4.into()),
            lead_f8: Constant::new(0xF8.into()),
            lead_fc: Constant::new(0xFC.into()),
        }
    }
}

impl Logic for ByteClassifier {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            class_reg,
            continuation_reg,
            free_bits_reg,
            last_reg,
            valid_reg
        );
        self.class.next = self.class_reg.q.val();
        self.continuation.next = self.continuation_reg.q.val();
        self.free_bits.next = self.free_bits_reg.q.val();
        self.last.next = self.last_reg.q.val();
        self.valid.next = self.valid_reg.q.val();
        if self.advance.val() {
            self.valid_reg.d.next = self.byte_tvalid.val();
            self.last_reg.d.next = self.byte_tlast.val();
            self.continuation_reg.d.next = self.no_range.val();
            // Table 1 reads the octet from its most significant bit down:
            // the position of the first ZERO bit says what the octet is.
            if !self.byte_tdata.val().get_bit(7) {
                self.class_reg.d.next = ByteClass::Ascii;
                self.free_bits_reg.d.next = self.byte_tdata.val() & self.free_mask_7.val();
            } else if !self.byte_tdata.val().get_bit(6) {
                self.free_bits_reg.d.next = self.byte_tdata.val() & self.free_mask_6.val();
                if self.byte_tdata.val().get_bit(5) {
                    self.class_reg.d.next = ByteClass::ContA0;
                    self.continuation_reg.d.next = self.range_a0.val();
                } else if self.byte_tdata.val().get_bit(4) {
                    self.class_reg.d.next = ByteClass::Cont90;
                    self.continuation_reg.d.next = self.range_90.val();
                } else if self.byte_tdata.val().get_bit(3) {
                    self.class_reg.d.next = ByteClass::Cont88;
                    self.continuation_reg.d.next = self.range_88.val();
                } else if self.byte_tdata.val().get_bit(2) {
                    self.class_reg.d.next = ByteClass::Cont84;
                    self.continuation_reg.d.next = self.range_84.val();
                } else {
                    self.class_reg.d.next = ByteClass::Cont80;
                    self.continuation_reg.d.next = self.range_80.val();
                }
            } else if !self.byte_tdata.val().get_bit(5) {
                self.free_bits_reg.d.next = self.byte_tdata.val() & self.free_mask_5.val();
                // C0 and C1 carry at most 7 bits: always an overlong form.
                if self.byte_tdata.val().get_bit(4)
                    | self.byte_tdata.val().get_bit(3)
                    | self.byte_tdata.val().get_bit(2)
                    | self.byte_tdata.val().get_bit(1)
                {
                    self.class_reg.d.next = ByteClass::Lead2;
                } else {
                    self.class_reg.d.next = ByteClass::OverlongLead;
                }
            } else if !self.byte_tdata.val().get_bit(4) {
                self.free_bits_reg.d.next = self.byte_tdata.val() & self.free_mask_4.val();
                if self.byte_tdata.val() == self.lead_e0.val() {
                    self.class_reg.d.next = ByteClass::LeadE0;
                } else if self.byte_tdata.val() == self.lead_ed.val() {
                    self.class_reg.d.next = ByteClass::LeadED;
                } else {
                    self.class_reg.d.next = ByteClass::Lead3;
                }
            } else if !self.byte_tdata.val().get_bit(3) {
                self.free_bits_reg.d.next = self.byte_tdata.val() & self.free_mask_3.val();
                if self.byte_tdata.val() == self.lead_f0.val() {
                    self.class_reg.d.next = ByteClass::LeadF0;
                } else if self.iso10646.val() {
                    self.class_reg.d.next = ByteClass::Lead4;
                } else if self.byte_tdata.val() == self.lead_f4.val() {
                    self.class_reg.d.next = ByteClass::LeadF4;
                } else if self.byte_tdata.val().get_bit(2) {
                    self.class_reg.d.next = ByteClass::OutOfRangeLead;
                } else {
                    self.class_reg.d.next = ByteClass::Lead4;
                }
            } else if !self.byte_tdata.val().get_bit(2) {
                self.free_bits_reg.d.next = self.byte_tdata.val() & self.free_mask_2.val();
                if !self.iso10646.val() {
                    self.class_reg.d.next = ByteClass::OutOfRangeLead;
                } else if self.byte_tdata.val() == self.lead_f8.val() {
                    self.class_reg.d.next = ByteClass::LeadF8;
                } else {
                    self.class_reg.d.next = ByteClass::Lead5;
                }
            } else if !self.byte_tdata.val().get_bit(1) {
                self.free_bits_reg.d.next = self.byte_tdata.val() & self.free_mask_1.val();
                if !self.iso10646.val() {
                    self.class_reg.d.next = ByteClass::OutOfRangeLead;
                } else if self.byte_tdata.val() == self.lead_fc.val() {
                    self.class_reg.d.next = ByteClass::LeadFC;
                } else {
                    self.class_reg.d.next = ByteClass::Lead6;
                }
            } else {
                self.free_bits_reg.d.next = self.byte_tdata.val() & self.free_mask_0.val();
                self.class_reg.d.next = ByteClass::Invalid;
            }
        }
        if self.rst.val() {
            self.valid_reg.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ALL` lists the classes in the order of their codes, which is what
    /// waveform viewers that name the codes rely on.
    #[test]
    fn all_is_in_code_order() {
        for (code, class) in ByteClass::ALL.iter().enumerate() {
            let bits: Bits<5> = (*class).into();
            assert_eq!(bits.to_u64(), code as u64, "{class:?}");
        }
    }
}
