//! # `UnitFormatter`: decoded units as text lines
//!
//! Takes the decoder's `m_axis` words and sends one line per unit to a UART
//! transmitter, in the format of `utf8hdl reference --format lines`:
//!
//! ```text
//! START..END U+XXXX            a character (at least four hex digits)
//! START..END U+FFFD KIND       a malformed unit, KIND as ErrorKind::name
//! ```
//!
//! `START..END` are the unit's byte offsets in its message, end exclusive,
//! in decimal. Lines end with `\n`.
//!
//! ## Spans
//! The decoder's words carry no offsets, but the units partition each
//! message, so a unit's start is the previous unit's end (0 after `tlast`)
//! and only its length is needed:
//!
//! * a character: its shortest form's length, from its value (overlong
//!   forms are errors, so every character is in shortest form);
//! * an error other than `truncated`: one byte (an invalid or overlong lead,
//!   an unexpected continuing octet, or a lead whose second octet broke a
//!   bound: that octet starts the next unit);
//! * `truncated`: the lead and the continuing octets after it, up to the
//!   first byte that is not a continuing octet or the end of the message.
//!
//! For the last rule the formatter keeps, for each byte the decoder accepted
//! and no unit has yet claimed, two flags: continuing octet, `tlast`
//! (`byte_*` inputs, a 16-entry FIFO). A unit's bytes and the byte that ended
//! it have always been accepted before the unit leaves the decoder, so the
//! flags are there when needed; `flags_full` stalls the decoder's input
//! (it never fills: at most six bytes of an open sequence and the decoder's
//! few pipeline registers are ever ahead).
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `rst` | in | 1 | clock; synchronous reset |
//! | `byte_taken`, `byte_is_cont`, `byte_is_last` | in | 1 | the decoder took a byte |
//! | `flags_full` | out | 1 | hold the decoder's input |
//! | `m_tdata`/`m_tuser`/`m_tlast`/`m_tvalid` | in | 32/4/1/1 | the decoder's output |
//! | `m_tready` | out | 1 | takes a word (one cycle, when idle) |
//! | `tx_data`, `tx_valid` | out | 8/1 | a character to send |
//! | `tx_ready` | in | 1 | the transmitter takes it |

use std::collections::BTreeMap;

use rust_hdl::prelude::*;
use rust_hdl::widgets::prelude::ROM;
use utf8hdl_hdl::ErrorKind;

#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
pub enum FmtState {
    Idle,
    Measure,
    /// START (`second` low) or END (`second` high) in decimal.
    Decimal,
    Dots,
    Prefix,
    Hex,
    Kind,
    Newline,
}

/// The kind names, `code * 32 + index` -> ASCII, 0 after the last letter.
fn kind_names() -> BTreeMap<Bits<8>, Bits<8>> {
    let mut rom = BTreeMap::new();
    for kind in ErrorKind::ALL {
        for (i, c) in kind.name().bytes().enumerate() {
            rom.insert(
                ((kind.code() as u64) * 32 + i as u64).into(),
                (c as u64).into(),
            );
        }
    }
    rom
}

#[derive(LogicBlock)]
pub struct UnitFormatter {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub byte_taken: Signal<In, Bit>,
    pub byte_is_cont: Signal<In, Bit>,
    pub byte_is_last: Signal<In, Bit>,
    pub flags_full: Signal<Out, Bit>,
    pub m_tdata: Signal<In, Bits<32>>,
    pub m_tuser: Signal<In, Bits<4>>,
    pub m_tlast: Signal<In, Bit>,
    pub m_tvalid: Signal<In, Bit>,
    pub m_tready: Signal<Out, Bit>,
    pub tx_data: Signal<Out, Bits<8>>,
    pub tx_valid: Signal<Out, Bit>,
    pub tx_ready: Signal<In, Bit>,
    // The byte flags FIFO: 16 entries, pointers with a wrap bit.
    cont_flags: DFF<Bits<16>>,
    last_flags: DFF<Bits<16>>,
    wr: DFF<Bits<5>>,
    rd: DFF<Bits<5>>,
    flags_empty: Signal<Local, Bit>,
    head_cont: Signal<Local, Bit>,
    head_last: Signal<Local, Bit>,
    pop: Signal<Local, Bit>,
    // The unit being printed.
    state: DFF<FmtState>,
    value: DFF<Bits<32>>,
    tuser: DFF<Bits<4>>,
    last: DFF<Bit>,
    start_off: DFF<Bits<32>>,
    end_off: DFF<Bits<32>>,
    /// Bytes still to claim for a unit of known length.
    to_pop: DFF<Bits<3>>,
    /// A truncated unit: claim the lead, then continuing octets.
    scan: DFF<Bit>,
    lead_taken: DFF<Bit>,
    // Printing.
    rem: DFF<Bits<32>>,
    place: DFF<Bits<4>>,
    digit: DFF<Bits<4>>,
    started: DFF<Bit>,
    second: DFF<Bit>,
    sub: DFF<Bits<5>>,
    nibbles: DFF<Bits<4>>,
    nibble: Signal<Local, Bits<4>>,
    ch: Signal<Local, Bits<8>>,
    emit: Signal<Local, Bit>,
    names: ROM<Bits<8>, 8>,
    /// 10**place.
    powers: ROM<Bits<32>, 4>,
    len2: Constant<Bits<32>>,
    len3: Constant<Bits<32>>,
    len4: Constant<Bits<32>>,
    len5: Constant<Bits<32>>,
    len6: Constant<Bits<32>>,
}

impl Default for UnitFormatter {
    fn default() -> Self {
        let c = |v: u64| Constant::new(v.into());
        let powers: BTreeMap<Bits<4>, Bits<32>> = (0..10u32)
            .map(|p| ((p as u64).into(), 10u64.pow(p).into()))
            .collect();
        UnitFormatter {
            clock: Default::default(),
            rst: Default::default(),
            byte_taken: Default::default(),
            byte_is_cont: Default::default(),
            byte_is_last: Default::default(),
            flags_full: Default::default(),
            m_tdata: Default::default(),
            m_tuser: Default::default(),
            m_tlast: Default::default(),
            m_tvalid: Default::default(),
            m_tready: Default::default(),
            tx_data: Default::default(),
            tx_valid: Default::default(),
            tx_ready: Default::default(),
            cont_flags: Default::default(),
            last_flags: Default::default(),
            wr: Default::default(),
            rd: Default::default(),
            flags_empty: Default::default(),
            head_cont: Default::default(),
            head_last: Default::default(),
            pop: Default::default(),
            state: Default::default(),
            value: Default::default(),
            tuser: Default::default(),
            last: Default::default(),
            start_off: Default::default(),
            end_off: Default::default(),
            to_pop: Default::default(),
            scan: Default::default(),
            lead_taken: Default::default(),
            rem: Default::default(),
            place: Default::default(),
            digit: Default::default(),
            started: Default::default(),
            second: Default::default(),
            sub: Default::default(),
            nibbles: Default::default(),
            nibble: Default::default(),
            ch: Default::default(),
            emit: Default::default(),
            names: ROM::new(kind_names()),
            powers: ROM::new(powers),
            // The smallest value of each UTF-8 length (Annex R Table 4).
            len2: c(0x80),
            len3: c(0x800),
            len4: c(0x1_0000),
            len5: c(0x20_0000),
            len6: c(0x400_0000),
        }
    }
}

impl Logic for UnitFormatter {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, cont_flags, last_flags, wr, rd, state, value, tuser, last, start_off,
            end_off, to_pop, scan, lead_taken, rem, place, digit, started, second, sub, nibbles
        );
        // ---- the byte flags FIFO
        self.flags_empty.next = self.wr.q.val() == self.rd.q.val();
        self.flags_full.next = (self.wr.q.val() ^ self.rd.q.val()) == 16;
        self.head_cont.next = self
            .cont_flags
            .q
            .val()
            .get_bit(self.rd.q.val().get_bits::<4>(0).index());
        self.head_last.next = self
            .last_flags
            .q
            .val()
            .get_bit(self.rd.q.val().get_bits::<4>(0).index());
        if self.byte_taken.val() {
            self.cont_flags.d.next = self.cont_flags.q.val().replace_bit(
                self.wr.q.val().get_bits::<4>(0).index(),
                self.byte_is_cont.val(),
            );
            self.last_flags.d.next = self.last_flags.q.val().replace_bit(
                self.wr.q.val().get_bits::<4>(0).index(),
                self.byte_is_last.val(),
            );
            self.wr.d.next = self.wr.q.val() + 1;
        }
        self.pop.next = false;

        // ---- printing helpers
        self.powers.address.next = self.place.q.val();
        self.nibble.next = self.value.q.val().get_bits::<4>(28);
        self.names.address.next =
            (bit_cast::<8, 4>(self.tuser.q.val() >> 1) << 5) | bit_cast::<8, 5>(self.sub.q.val());
        self.ch.next = 0x20.into();
        self.emit.next = false;
        self.m_tready.next = false;

        match self.state.q.val() {
            FmtState::Idle => {
                if self.m_tvalid.val() {
                    self.m_tready.next = true;
                    self.value.d.next = self.m_tdata.val();
                    self.tuser.d.next = self.m_tuser.val();
                    self.last.d.next = self.m_tlast.val();
                    self.end_off.d.next = self.start_off.q.val();
                    self.scan.d.next = false;
                    self.lead_taken.d.next = false;
                    self.to_pop.d.next = 1.into();
                    if !self.m_tuser.val().get_bit(0) {
                        if self.m_tdata.val() >= self.len6.val() {
                            self.to_pop.d.next = 6.into();
                        } else if self.m_tdata.val() >= self.len5.val() {
                            self.to_pop.d.next = 5.into();
                        } else if self.m_tdata.val() >= self.len4.val() {
                            self.to_pop.d.next = 4.into();
                        } else if self.m_tdata.val() >= self.len3.val() {
                            self.to_pop.d.next = 3.into();
                        } else if self.m_tdata.val() >= self.len2.val() {
                            self.to_pop.d.next = 2.into();
                        }
                    } else if self.m_tuser.val() == 7 {
                        // Truncated: error bit and code 3.
                        self.scan.d.next = true;
                    }
                    self.state.d.next = FmtState::Measure;
                }
            }
            FmtState::Measure => {
                // Claim the unit's bytes, one per cycle.
                if !self.flags_empty.val() {
                    if !self.scan.q.val() {
                        self.pop.next = true;
                        self.to_pop.d.next = self.to_pop.q.val() - 1;
                        if self.to_pop.q.val() == 1 {
                            self.state.d.next = FmtState::Decimal;
                        }
                    } else if !self.lead_taken.q.val() {
                        self.pop.next = true;
                        self.lead_taken.d.next = true;
                        if self.head_last.val() {
                            self.state.d.next = FmtState::Decimal;
                        }
                    } else if self.head_cont.val() {
                        self.pop.next = true;
                        if self.head_last.val() {
                            self.state.d.next = FmtState::Decimal;
                        }
                    } else {
                        self.state.d.next = FmtState::Decimal;
                    }
                }
                self.rem.d.next = self.start_off.q.val();
                self.place.d.next = 9.into();
                self.digit.d.next = 0.into();
                self.started.d.next = false;
                self.second.d.next = false;
            }
            FmtState::Decimal => {
                // Digit by digit from 10**9 down, by repeated subtraction;
                // leading zeros are skipped down to the last digit.
                if self.rem.q.val() >= self.powers.data.val() {
                    self.rem.d.next = self.rem.q.val() - self.powers.data.val();
                    self.digit.d.next = self.digit.q.val() + 1;
                } else {
                    if self.started.q.val() | self.digit.q.val().any() | (self.place.q.val() == 0) {
                        self.emit.next = true;
                        self.ch.next = bit_cast::<8, 4>(self.digit.q.val()) + 0x30;
                    }
                    if !self.emit.val() | self.tx_ready.val() {
                        self.started.d.next = self.started.q.val() | self.emit.val();
                        self.digit.d.next = 0.into();
                        self.place.d.next = self.place.q.val() - 1;
                        if self.place.q.val() == 0 {
                            self.sub.d.next = 0.into();
                            if self.second.q.val() {
                                self.state.d.next = FmtState::Prefix;
                            } else {
                                self.state.d.next = FmtState::Dots;
                            }
                        }
                    }
                }
            }
            FmtState::Dots => {
                self.ch.next = 0x2E.into();
                self.emit.next = true;
                if self.tx_ready.val() {
                    self.sub.d.next = self.sub.q.val() + 1;
                    if self.sub.q.val() == 1 {
                        self.state.d.next = FmtState::Decimal;
                        self.second.d.next = true;
                        self.rem.d.next = self.end_off.q.val();
                        self.place.d.next = 9.into();
                        self.digit.d.next = 0.into();
                        self.started.d.next = false;
                    }
                }
            }
            FmtState::Prefix => {
                self.emit.next = true;
                if self.sub.q.val() == 0 {
                    self.ch.next = 0x20.into();
                } else if self.sub.q.val() == 1 {
                    self.ch.next = 0x55.into();
                } else {
                    self.ch.next = 0x2B.into();
                }
                if self.tx_ready.val() {
                    self.sub.d.next = self.sub.q.val() + 1;
                    if self.sub.q.val() == 2 {
                        self.state.d.next = FmtState::Hex;
                        self.nibbles.d.next = 8.into();
                        self.started.d.next = false;
                    }
                }
            }
            FmtState::Hex => {
                // Leading zeros are skipped down to four digits.
                if self.nibble.val().any() | self.started.q.val() | (self.nibbles.q.val() <= 4) {
                    self.emit.next = true;
                    if self.nibble.val() < 10 {
                        self.ch.next = bit_cast::<8, 4>(self.nibble.val()) + 0x30;
                    } else {
                        self.ch.next = bit_cast::<8, 4>(self.nibble.val()) + 0x37;
                    }
                }
                if !self.emit.val() | self.tx_ready.val() {
                    self.started.d.next = self.started.q.val() | self.emit.val();
                    self.value.d.next = self.value.q.val() << 4;
                    self.nibbles.d.next = self.nibbles.q.val() - 1;
                    if self.nibbles.q.val() == 1 {
                        self.sub.d.next = 0.into();
                        if self.tuser.q.val().get_bit(0) {
                            self.state.d.next = FmtState::Kind;
                        } else {
                            self.state.d.next = FmtState::Newline;
                        }
                    }
                }
            }
            FmtState::Kind => {
                // A space, then the name from the ROM (sub - 1 indexes it).
                self.names.address.next = (bit_cast::<8, 4>(self.tuser.q.val() >> 1) << 5)
                    | bit_cast::<8, 5>(self.sub.q.val() - 1);
                if self.sub.q.val() == 0 {
                    self.emit.next = true;
                    self.ch.next = 0x20.into();
                } else if self.names.data.val().any() {
                    self.emit.next = true;
                    self.ch.next = self.names.data.val();
                } else {
                    self.state.d.next = FmtState::Newline;
                }
                if self.emit.val() & self.tx_ready.val() {
                    self.sub.d.next = self.sub.q.val() + 1;
                }
            }
            FmtState::Newline => {
                self.emit.next = true;
                self.ch.next = 0x0A.into();
                if self.tx_ready.val() {
                    if self.last.q.val() {
                        self.start_off.d.next = 0.into();
                    } else {
                        self.start_off.d.next = self.end_off.q.val();
                    }
                    self.state.d.next = FmtState::Idle;
                }
            }
        }
        if self.pop.val() {
            self.rd.d.next = self.rd.q.val() + 1;
            self.end_off.d.next = self.end_off.q.val() + 1;
        }
        self.tx_data.next = self.ch.val();
        self.tx_valid.next = self.emit.val();
        if self.rst.val() {
            self.state.d.next = FmtState::Idle;
            self.wr.d.next = 0.into();
            self.rd.d.next = 0.into();
            self.start_off.d.next = 0.into();
        }
    }
}
