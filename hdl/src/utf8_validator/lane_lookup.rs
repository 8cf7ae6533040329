//! # `LaneLookup`: one byte's mark class, read from a table (combinational)
//!
//! Everything the validator needs to know of a byte from the tables, looked
//! up once, on `s_axis`, so that the input register holds it with the byte:
//! [`ByteSummary`](crate::utf8_validator::ByteSummary) builds the byte's
//! scan summaries from it, and [`LaneMark`](crate::utf8_validator::LaneMark)
//! its mark, neither reading a table. Placing the lookups in front of the
//! input register splits the longest 1-lane path (the tables, then the
//! summaries, into the scan's register) in two.
//!
//! The class is [`MarkClass`]'s, tabulated for all 256 bytes when the
//! design is built: a ROM of 256 words of 13 bits, written in the Verilog
//! as a `case` on the byte with `rom_style = "logic"`. Written as the
//! tables themselves, yosys keeps their cascade (the class, then the lead
//! length, then its fields): seven LUT levels from the byte on the HX8K,
//! where a function of eight bits needs three or four. The `rom_style`
//! keeps yosys from placing the table in a block RAM, whose clock-to-out
//! on the ECP5 is most of a clock period.
//!
//! ## Parameter
//! The [`Profile`], through [`MarkClass`].
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `tdata` | in | 8 | the byte |
//! | `lane` | out | 21 | the byte (7:0) and its mark class (20:8): the lane as the input register and the scan carry it ([`SCANNED_LANE`]) |
//!
//! ## Latency
//! None: combinational.

use rust_hdl::prelude::*;

use crate::utf8_validator::{MarkClass, MARK_CLASS, SCANNED_LANE};
use utf8hdl_reference::Profile;

#[derive(LogicBlock)]
pub struct LaneLookup {
    pub tdata: Signal<In, Bits<8>>,
    pub lane: Signal<Out, Bits<SCANNED_LANE>>,
    /// The mark class of each byte, in the byte's place.
    _classes: Vec<u16>,
}

impl LaneLookup {
    pub fn new(profile: Profile) -> Self {
        Self::of(MarkClass::table(profile))
    }

    /// The lookups of `n` lanes, the table built once.
    pub fn lanes(profile: Profile, n: usize) -> Vec<Self> {
        let classes = MarkClass::table(profile);
        (0..n).map(|_| Self::of(classes.clone())).collect()
    }

    fn of(classes: Vec<u16>) -> Self {
        LaneLookup {
            tdata: Default::default(),
            lane: Default::default(),
            _classes: classes,
        }
    }
}

/// A table is a `case` statement in the Verilog, which `#[hdl_gen]` cannot
/// write from a table built at run time: the block writes its own.
impl Logic for LaneLookup {
    fn update(&mut self) {
        let byte = self.tdata.val().to_u64();
        let class = u64::from(self._classes[byte as usize]);
        self.lane.next = ((class << 8) | byte).into();
    }

    fn connect(&mut self) {
        self.lane.connect();
    }

    fn hdl(&self) -> Verilog {
        let rows: String = self
            ._classes
            .iter()
            .enumerate()
            .map(|(byte, class)| {
                format!("    8'h{byte:02x}: lane[20:8] = {MARK_CLASS}'h{class:04x};\n")
            })
            .collect();
        Verilog::Custom(format!(
            "always @(*) begin
  lane[7:0] = tdata;
  (* rom_style = \"logic\" *)
  case (tdata)
{rows}  endcase
end"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_lookup_is_synthesizable() {
        crate::assert_synthesizable(LaneLookup::new(Profile::Rfc3629));
    }

    /// The block reads the byte and its class from [`MarkClass`], and its
    /// Verilog has a row for every byte.
    #[test]
    fn the_lane_is_the_byte_and_its_class() {
        for profile in [Profile::Rfc3629, Profile::Iso10646] {
            let mut block = LaneLookup::new(profile);
            let mut classes = MarkClass::new(profile);
            block.connect_all();
            classes.connect_all();
            for byte in 0..=255u64 {
                block.tdata.next = byte.into();
                classes.tdata.next = byte.into();
                assert!(simulate(&mut block, 10) && simulate(&mut classes, 100));
                let lane = block.lane.val().to_u64();
                assert_eq!(lane & 0xFF, byte);
                assert_eq!(lane >> 8, classes.class.val().to_u64(), "byte {byte:02X}");
            }
            let verilog = generate_verilog(&block);
            assert_eq!(verilog.matches(": lane[20:8] = 13'h").count(), 256);
        }
    }
}
