//! # `LaneJoin`: two fields of a lane side by side (combinational)
//!
//! `both` = {`high`, `low`}: one lane for a network that moves lanes (a
//! [`LanePacker`](crate::utf8_decoder_wide::packing::LanePacker), the tail's
//! shifter) to move both fields at once. A block per lane because
//! `#[hdl_gen]` evaluates the width of a `bit_cast` in Rust, which it
//! cannot do inside a loop over lanes.
//!
//! ## Parameters
//! `LOW`, `HIGH`: the widths of the fields; `BOTH` = `LOW` + `HIGH`.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `low`, `high` | in | LOW, HIGH | the fields |
//! | `both` | out | BOTH | `high` above `low` |

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct LaneJoin<const LOW: usize, const HIGH: usize, const BOTH: usize> {
    pub low: Signal<In, Bits<LOW>>,
    pub high: Signal<In, Bits<HIGH>>,
    pub both: Signal<Out, Bits<BOTH>>,
    /// `LOW`, the shift: `#[hdl_gen]` writes a const parameter's name
    /// into the Verilog rather than its value.
    low_width: Constant<Bits<8>>,
}

impl<const LOW: usize, const HIGH: usize, const BOTH: usize> Default for LaneJoin<LOW, HIGH, BOTH> {
    fn default() -> Self {
        assert_eq!(
            BOTH,
            LOW + HIGH,
            "LaneJoin<LOW, HIGH, BOTH>: BOTH is LOW + HIGH"
        );
        LaneJoin {
            low: Default::default(),
            high: Default::default(),
            both: Default::default(),
            low_width: Constant::new((LOW as u64).into()),
        }
    }
}

impl<const LOW: usize, const HIGH: usize, const BOTH: usize> Logic for LaneJoin<LOW, HIGH, BOTH> {
    #[hdl_gen]
    fn update(&mut self) {
        self.both.next = bit_cast::<BOTH, LOW>(self.low.val())
            | (bit_cast::<BOTH, HIGH>(self.high.val()) << self.low_width.val());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_join_is_synthesizable() {
        crate::assert_synthesizable(LaneJoin::<32, 4, 36>::default());
    }

    #[test]
    fn high_goes_above_low() {
        let mut uut = LaneJoin::<8, 1, 9>::default();
        uut.connect_all();
        uut.low.next = 0x41.into();
        uut.high.next = 1.into();
        assert!(simulate(&mut uut, 10));
        assert_eq!(uut.both.val().to_u64(), 0x141);
    }
}
