//! # `LaneScan`: the validator's two prefix scans over a beat's lanes
//!
//! log₂ N levels of [`ScanCell`]s: what enters as each lane's own summaries
//! ([`ByteSummary`](crate::utf8_validator::ByteSummary)) leaves as lane
//! `i`'s forward summary of lanes `0..=i` and its backward summary of
//! lanes `i..N`, every level registered, so no path between flops grows
//! with N beyond one join. The beat's valid bit and `tlast` follow in a
//! [`BeatDelay`].
//!
//! ## Parameter
//! `N`: the lanes, 1 to 32, a power of two. One lane has one level, a
//! register: its summaries are already the scan's, each joined with the
//! empty stretch.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `rst` | in | 1 | clock; synchronous reset (of the beat's valid bit) |
//! | `data_in[i]`, `keep_in[i]`, `forward_in[i]`, `backward_in[i]` | in | 21, 1, 17, 9 | lane `i`: its byte and mark class ([`SCANNED_LANE`]), kept bit, summaries |
//! | `beat_in`, `last_in` | in | 1 | the beat is valid; its `tlast` |
//! | `data[i]`, `keep[i]`, `forward[i]`, `backward[i]` | out | | lane `i`, scanned |
//! | `beat`, `last` | out | 1 | |
//!
//! ## Latency
//! log₂ N cycles; one for one lane.

use rust_hdl::prelude::*;

use crate::many;
use crate::utf8_decoder_wide::packing::beat_delay::levels;
use crate::utf8_decoder_wide::packing::BeatDelay;
use crate::utf8_validator::ScanCell;

/// The bits of a lane in the input register and the scan: its byte (7:0)
/// and the byte's mark class (20:8,
/// [`LaneLookup`](crate::utf8_validator::LaneLookup)). The class rides
/// with the byte so that neither its summaries nor the lane's mark read a
/// table: the tables are on the byte's path into the input register.
pub const SCANNED_LANE: usize = 21;

/// How far the last of the [`levels`] of a network of `n` lanes reaches:
/// n/2 lanes away, and a single lane's one level, 1 (to no lane).
const fn last_reach(n: usize) -> usize {
    1 << (levels(n) - 1)
}

/// The lanes of a level that reaches `d` lanes away in a network of `n`:
/// all of them if the network has the level, else none (it is not built).
const fn scan_lanes(n: usize, d: usize) -> usize {
    if d <= last_reach(n) {
        n
    } else {
        0
    }
}

/// The lanes of the last level's outputs if level `d` is the last, else
/// none: the outputs are taken from one level only.
const fn if_last(n: usize, d: usize) -> usize {
    if d == last_reach(n) {
        n
    } else {
        0
    }
}

#[derive(LogicBlock)]
pub struct LaneScan<const N: usize> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub data_in: Vec<Signal<In, Bits<SCANNED_LANE>>>,
    pub keep_in: Vec<Signal<In, Bit>>,
    pub forward_in: Vec<Signal<In, Bits<17>>>,
    pub backward_in: Vec<Signal<In, Bits<9>>>,
    pub beat_in: Signal<In, Bit>,
    pub last_in: Signal<In, Bit>,
    pub data: Vec<Signal<Out, Bits<SCANNED_LANE>>>,
    pub keep: Vec<Signal<Out, Bit>>,
    pub forward: Vec<Signal<Out, Bits<17>>>,
    pub backward: Vec<Signal<Out, Bits<9>>>,
    pub beat: Signal<Out, Bit>,
    pub last: Signal<Out, Bit>,
    reach1: Vec<ScanCell>,
    reach2: Vec<ScanCell>,
    reach4: Vec<ScanCell>,
    reach8: Vec<ScanCell>,
    reach16: Vec<ScanCell>,
    beats: BeatDelay<N>,
}

impl<const N: usize> LaneScan<N> {
    /// One cycle a level.
    pub const LATENCY: u64 = levels(N) as u64;
}

impl<const N: usize> Default for LaneScan<N> {
    fn default() -> Self {
        assert!(
            N.is_power_of_two() && (1..=32).contains(&N),
            "a LaneScan has 1, 2, 4, 8, 16 or 32 lanes"
        );
        LaneScan {
            clock: Default::default(),
            rst: Default::default(),
            data_in: many(N),
            keep_in: many(N),
            forward_in: many(N),
            backward_in: many(N),
            beat_in: Default::default(),
            last_in: Default::default(),
            data: many(N),
            keep: many(N),
            forward: many(N),
            backward: many(N),
            beat: Default::default(),
            last: Default::default(),
            reach1: many(scan_lanes(N, 1)),
            reach2: many(scan_lanes(N, 2)),
            reach4: many(scan_lanes(N, 4)),
            reach8: many(scan_lanes(N, 8)),
            reach16: many(scan_lanes(N, 16)),
            beats: Default::default(),
        }
    }
}

impl<const N: usize> Logic for LaneScan<N> {
    #[hdl_gen]
    fn update(&mut self) {
        self.beats.clock.next = self.clock.val();
        self.beats.rst.next = self.rst.val();
        self.beats.beat_in.next = self.beat_in.val();
        self.beats.last_in.next = self.last_in.val();
        self.beat.next = self.beats.beat_out.val();
        self.last.next = self.beats.last_out.val();
        for i in 0..N {
            self.reach1[i].clock.next = self.clock.val();
            self.reach1[i].data_in.next = self.data_in[i].val();
            self.reach1[i].keep_in.next = self.keep_in[i].val();
            self.reach1[i].forward_in.next = self.forward_in[i].val();
            self.reach1[i].backward_in.next = self.backward_in[i].val();
            self.reach1[i].forward_from.next = 1.into();
            self.reach1[i].backward_from.next = 1.into();
        }
        for i in 1..N {
            self.reach1[i].forward_from.next = self.forward_in[i - 1].val();
        }
        for i in 0..N.saturating_sub(1) {
            self.reach1[i].backward_from.next = self.backward_in[i + 1].val();
        }
        for i in 0..scan_lanes(N, 2) {
            self.reach2[i].clock.next = self.clock.val();
            self.reach2[i].data_in.next = self.reach1[i].data.val();
            self.reach2[i].keep_in.next = self.reach1[i].keep.val();
            self.reach2[i].forward_in.next = self.reach1[i].forward.val();
            self.reach2[i].backward_in.next = self.reach1[i].backward.val();
            self.reach2[i].forward_from.next = 1.into();
            self.reach2[i].backward_from.next = 1.into();
        }
        for i in 2..scan_lanes(N, 2) {
            self.reach2[i].forward_from.next = self.reach1[i - 2].forward.val();
        }
        for i in 0..scan_lanes(N, 2).saturating_sub(2) {
            self.reach2[i].backward_from.next = self.reach1[i + 2].backward.val();
        }
        for i in 0..scan_lanes(N, 4) {
            self.reach4[i].clock.next = self.clock.val();
            self.reach4[i].data_in.next = self.reach2[i].data.val();
            self.reach4[i].keep_in.next = self.reach2[i].keep.val();
            self.reach4[i].forward_in.next = self.reach2[i].forward.val();
            self.reach4[i].backward_in.next = self.reach2[i].backward.val();
            self.reach4[i].forward_from.next = 1.into();
            self.reach4[i].backward_from.next = 1.into();
        }
        for i in 4..scan_lanes(N, 4) {
            self.reach4[i].forward_from.next = self.reach2[i - 4].forward.val();
        }
        for i in 0..scan_lanes(N, 4).saturating_sub(4) {
            self.reach4[i].backward_from.next = self.reach2[i + 4].backward.val();
        }
        for i in 0..scan_lanes(N, 8) {
            self.reach8[i].clock.next = self.clock.val();
            self.reach8[i].data_in.next = self.reach4[i].data.val();
            self.reach8[i].keep_in.next = self.reach4[i].keep.val();
            self.reach8[i].forward_in.next = self.reach4[i].forward.val();
            self.reach8[i].backward_in.next = self.reach4[i].backward.val();
            self.reach8[i].forward_from.next = 1.into();
            self.reach8[i].backward_from.next = 1.into();
        }
        for i in 8..scan_lanes(N, 8) {
            self.reach8[i].forward_from.next = self.reach4[i - 8].forward.val();
        }
        for i in 0..scan_lanes(N, 8).saturating_sub(8) {
            self.reach8[i].backward_from.next = self.reach4[i + 8].backward.val();
        }
        for i in 0..scan_lanes(N, 16) {
            self.reach16[i].clock.next = self.clock.val();
            self.reach16[i].data_in.next = self.reach8[i].data.val();
            self.reach16[i].keep_in.next = self.reach8[i].keep.val();
            self.reach16[i].forward_in.next = self.reach8[i].forward.val();
            self.reach16[i].backward_in.next = self.reach8[i].backward.val();
            self.reach16[i].forward_from.next = 1.into();
            self.reach16[i].backward_from.next = 1.into();
        }
        for i in 16..scan_lanes(N, 16) {
            self.reach16[i].forward_from.next = self.reach8[i - 16].forward.val();
        }
        for i in 0..scan_lanes(N, 16).saturating_sub(16) {
            self.reach16[i].backward_from.next = self.reach8[i + 16].backward.val();
        }
        for i in 0..if_last(N, 1) {
            self.data[i].next = self.reach1[i].data.val();
            self.keep[i].next = self.reach1[i].keep.val();
            self.forward[i].next = self.reach1[i].forward.val();
            self.backward[i].next = self.reach1[i].backward.val();
        }
        for i in 0..if_last(N, 2) {
            self.data[i].next = self.reach2[i].data.val();
            self.keep[i].next = self.reach2[i].keep.val();
            self.forward[i].next = self.reach2[i].forward.val();
            self.backward[i].next = self.reach2[i].backward.val();
        }
        for i in 0..if_last(N, 4) {
            self.data[i].next = self.reach4[i].data.val();
            self.keep[i].next = self.reach4[i].keep.val();
            self.forward[i].next = self.reach4[i].forward.val();
            self.backward[i].next = self.reach4[i].backward.val();
        }
        for i in 0..if_last(N, 8) {
            self.data[i].next = self.reach8[i].data.val();
            self.keep[i].next = self.reach8[i].keep.val();
            self.forward[i].next = self.reach8[i].forward.val();
            self.backward[i].next = self.reach8[i].backward.val();
        }
        for i in 0..if_last(N, 16) {
            self.data[i].next = self.reach16[i].data.val();
            self.keep[i].next = self.reach16[i].keep.val();
            self.forward[i].next = self.reach16[i].forward.val();
            self.backward[i].next = self.reach16[i].backward.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_scan_is_synthesizable() {
        crate::assert_synthesizable(LaneScan::<1>::default());
        crate::assert_synthesizable(LaneScan::<2>::default());
        crate::assert_synthesizable(LaneScan::<32>::default());
    }
}
