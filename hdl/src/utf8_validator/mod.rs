//! # `Utf8Validator`: UTF-8 validation, N bytes a clock, bytes unchanged
//!
//! Module `utf8_validator_x<N>` (rfc3629) or `utf8_validator_iso10646_x<N>`.
//! The beats of `s_axis` leave on `m_axis` as they came, `tdata`, `tkeep`
//! and `tlast` bit for bit, with `m_axis_tuser` marking, lane by lane, the
//! first byte of every malformed maximal subpart with its error kind: in
//! rfc3629, the bytes where `String::from_utf8_lossy` would start a
//! U+FFFD (in iso10646 likewise, with Annex R's five- and six-octet
//! sequences valid), a sequence truncated by `tlast` included. A beat with no byte and no `tlast`
//! carries nothing and is not passed on (AXI4-Stream lets null beats be
//! removed).
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clk`, `rst` | in | 1 | clock; synchronous reset, active high |
//! | `s_axis_tdata`, `s_axis_tkeep` | in | 8N, N | bytes, lane 0 first; null lanes anywhere |
//! | `s_axis_tvalid`, `s_axis_tlast` | in | 1 | |
//! | `s_axis_tready` | out | 1 | registered: a credit is free (see below) |
//! | `m_axis_tdata`, `m_axis_tkeep`, `m_axis_tlast` | out | 8N, N, 1 | registered: the beat as it came |
//! | `m_axis_tuser` | out | 4N | registered: per lane, 0, or the error's `tuser` code ([`ErrorKind::tuser`](utf8hdl_reference::ErrorKind::tuser): bit 0 set, the kind in bits 3:1) on the first byte of a malformed maximal subpart |
//! | `m_axis_tvalid` | out | 1 | registered |
//! | `m_axis_tready` | in | 1 | |
//!
//! ## Pipeline
//! ```text
//! s_axis ─▶ LaneLookup ×N ─▶ input register ─▶ ByteSummary ×N ─▶ LaneScan (log₂ N levels)
//!        ─▶ BeatMarks (carry between beats) ─▶ OpenLeadHold, or past it ─▶ BeatFifo ─▶ m_axis
//!           BeatCredits: s_axis_tready = (beats inside < 2^QUEUE), a flop
//! ```
//! A byte's mark depends on the bytes before it (is it inside an open
//! sequence?) and, for a first octet, on up to five bytes after it (does
//! its sequence complete?). Both are prefix scans over the lanes: each
//! byte's table lookups ([`LaneLookup`], its *mark class*) are made as it
//! comes in and registered with it; from them it becomes two small
//! summaries ([`ByteSummary`]) that
//! [`LaneScan`] joins across the beat, one registered level per bit of N,
//! and [`BeatMarks`] joins the message's earlier beats in front. A first
//! octet whose sequence runs past its beat is decided by a later beat;
//! its beat, and those behind it, wait in the [`OpenLeadHold`] until then
//! (only beats of continuing octets can be between, so fewer than its
//! sequence's octets: the hold has a place per octet of the longest).
//! Every other beat goes past the hold, straight into the queue, while
//! none waits there.
//!
//! No stage stalls: every beat moves on at every clock, and the output
//! queue ([`BeatFifo`], in its passing form: a beat goes straight into
//! its `m_axis` registers while it is empty) absorbs backpressure. `s_axis_tready` is a flop
//! from a count of the beats inside ([`BeatCredits`]), not a pass-through
//! of `m_axis_tready`: a first octet held open needs the beats behind it
//! to come in while its beat waits, so input must not wait for output.
//! With bytes on every cycle it takes N bytes a clock, whatever they are.
//!
//! ## Latency
//! [`Utf8Validator::LATENCY`] cycles from a beat's acceptance to its
//! `m_axis_tvalid`, with `m_axis_tready` high, when no first octet in it
//! is open at its end, no beat waits in the hold and none in the queue:
//! such a beat passes the hold and the queue's RAM by. A beat that ends in an open first octet waits for the
//! beat that decides it, and the beats behind it wait with it. The
//! hold passes on a beat a clock, two cycles later than the way past it,
//! so the beats after such a beat keep to the hold, at full rate, until
//! it empties: a clock with no beat in takes one beat off it. Likewise,
//! once `m_axis_tready` has been low, beats take the way through the
//! queue's RAM, two cycles longer, until the queue empties.
//!
//! ## Invariants
//! * The beats out are the beats in, in order, less null beats without
//!   `tlast`; `tdata`, `tkeep` and `tlast` unchanged.
//! * A lane is marked exactly when its byte is the first of a malformed
//!   maximal subpart (the reference validator, `utf8hdl_reference::validate`).
//! * While `m_axis_tvalid & !m_axis_tready`, every `m_axis_*` output holds.

pub mod backward_join;
pub mod beat_marks;
pub mod byte_summary;
pub mod forward_join;
pub mod hold_place;
pub mod lane_lookup;
pub mod lane_mark;
pub mod lane_scan;
pub mod mark_class;
pub mod open_lead_hold;
pub mod scan_cell;

pub use backward_join::BackwardJoin;
pub use beat_marks::BeatMarks;
pub use byte_summary::ByteSummary;
pub use forward_join::ForwardJoin;
pub use hold_place::HoldPlace;
pub use lane_lookup::LaneLookup;
pub use lane_mark::LaneMark;
pub use lane_scan::{LaneScan, SCANNED_LANE};
pub use mark_class::{MarkClass, MARK_CLASS};
pub use open_lead_hold::OpenLeadHold;
pub use scan_cell::ScanCell;

use rust_hdl::prelude::*;

use crate::utf8_decoder_wide::queue::{BeatCredits, BeatFifo};
use crate::{axis_core, many, with_axis_ports};
use utf8hdl_reference::Profile;

/// 1 lane, a byte a clock: `utf8_validator_x1`; a 32-beat queue.
pub type Utf8ValidatorX1 = Utf8Validator<1, 8, 4, 5>;
/// 2 lanes: `utf8_validator_x2`.
pub type Utf8ValidatorX2 = Utf8Validator<2, 16, 8, 5>;
/// 4 lanes: `utf8_validator_x4`.
pub type Utf8ValidatorX4 = Utf8Validator<4, 32, 16, 5>;
/// 8 lanes, a 64-bit bus: `utf8_validator_x8`.
pub type Utf8ValidatorX8 = Utf8Validator<8, 64, 32, 5>;
/// 16 lanes: `utf8_validator_x16`.
pub type Utf8ValidatorX16 = Utf8Validator<16, 128, 64, 5>;
/// 32 lanes, a 256-bit bus: `utf8_validator_x32`.
pub type Utf8ValidatorX32 = Utf8Validator<32, 256, 128, 5>;

axis_core! {
    /// The validator of `N` lanes. The other parameters are figures that
    /// stable Rust cannot compute from `N`; the aliases set them: `TDATA` =
    /// 8N, `TUSER` = 4N, and `QUEUE`, the output queue's address bits: it
    /// holds 2^QUEUE beats, more than are ever inside at line rate.
    #[derive(LogicBlock)]
    pub struct Utf8Validator<const N: usize, const TDATA: usize, const TUSER: usize, const QUEUE: usize>
        [lanes: N, s_axis_tdata: TDATA, m_axis_tdata: TDATA, m_axis_tuser: TUSER]
    {
        pub credits: BeatCredits<QUEUE>,
        /// Each lane's byte and its mark class, into the input register.
        lookups: Vec<LaneLookup>,
        /// The input register: the accepted beat, unless it is null without
        /// `tlast`.
        beat: DFF<Bit>,
        last: DFF<Bit>,
        lanes: Vec<DFF<Bits<SCANNED_LANE>>>,
        lane_keep: Vec<DFF<Bit>>,
        summaries: Vec<ByteSummary>,
        pub scan: LaneScan<N>,
        pub marks: BeatMarks<N, TDATA, TUSER>,
        pub hold: OpenLeadHold<N, TDATA, TUSER>,
        pub queue: BeatFifo<N, 8, 4, TDATA, TUSER, QUEUE>,
        accepted: Signal<Local, Bit>,
        /// The accepted beat has no byte and no `tlast`.
        null_beat: Signal<Local, Bit>,
        /// The beat out of the marks passes the hold by.
        bypass: Signal<Local, Bit>,
    }
}

impl<const N: usize, const TDATA: usize, const TUSER: usize, const QUEUE: usize>
    Utf8Validator<N, TDATA, TUSER, QUEUE>
{
    /// The cycles from a beat on `s_axis` to the same beat on `m_axis`,
    /// with `m_axis_tready` high, when no first octet is open at its end
    /// and no beat waits in the hold: the input register, the scan, the
    /// marks' output register, and the queue's `m_axis` registers (such a
    /// beat passes the hold by, and the queue's RAM when it is empty; the
    /// queue writes it from the marks' output register).
    pub const LATENCY: u64 =
        1 + LaneScan::<N>::LATENCY + 1 + BeatFifo::<N, 8, 4, TDATA, TUSER, QUEUE>::PASSING_LATENCY;

    /// The beats the output queue holds, and so the most beats inside.
    pub const QUEUE_BEATS: usize = 1 << QUEUE;

    pub fn new(profile: Profile) -> Self {
        assert_eq!((TDATA, TUSER), (8 * N, 4 * N), "Utf8Validator: 8N and 4N");
        assert!(
            Self::LATENCY + 8 < Self::QUEUE_BEATS as u64,
            "Utf8Validator: the queue holds more beats than are inside at line rate"
        );
        with_axis_ports!(lanes Utf8Validator {
            credits: Default::default(),
            beat: Default::default(),
            last: Default::default(),
            lookups: LaneLookup::lanes(profile, N),
            lanes: many(N),
            lane_keep: many(N),
            summaries: many(N),
            scan: Default::default(),
            marks: Default::default(),
            hold: OpenLeadHold::new(open_lead_hold::places(profile)),
            queue: BeatFifo::passing_when_empty(),
            accepted: Default::default(),
            null_beat: Default::default(),
            bypass: Default::default(),
        })
    }
}

impl<const N: usize, const TDATA: usize, const TUSER: usize, const QUEUE: usize> Logic
    for Utf8Validator<N, TDATA, TUSER, QUEUE>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk, beat, last);
        self.credits.clock.next = self.clk.val();
        self.scan.clock.next = self.clk.val();
        self.marks.clock.next = self.clk.val();
        self.hold.clock.next = self.clk.val();
        self.queue.clock.next = self.clk.val();
        self.credits.rst.next = self.rst.val();
        self.scan.rst.next = self.rst.val();
        self.marks.rst.next = self.rst.val();
        self.hold.rst.next = self.rst.val();
        self.queue.rst.next = self.rst.val();

        // Input: a beat is taken whenever a credit is free.
        self.s_axis_tready.next = self.credits.s_axis_tready.val();
        self.accepted.next = self.s_axis_tvalid.val() & self.credits.s_axis_tready.val();
        self.null_beat.next = (self.s_axis_tkeep.val() == 0) & !self.s_axis_tlast.val();
        self.credits.accepted.next = self.accepted.val();
        self.credits.returned.next = self.queue.returned.val();
        self.credits.dropped_early.next = self.accepted.val() & self.null_beat.val();
        self.credits.dropped_late.next = false;
        self.beat.d.next = self.accepted.val() & !self.null_beat.val();
        if self.accepted.val() {
            self.last.d.next = self.s_axis_tlast.val();
        }
        for i in 0..N {
            self.lookups[i].tdata.next = self.s_axis_tdata.val().get_bits::<8>(8 * i);
            self.lanes[i].clock.next = self.clk.val();
            self.lane_keep[i].clock.next = self.clk.val();
            self.lanes[i].d.next = self.lanes[i].q.val();
            self.lane_keep[i].d.next = self.lane_keep[i].q.val();
            if self.accepted.val() {
                self.lanes[i].d.next = self.lookups[i].lane.val();
                self.lane_keep[i].d.next = self.s_axis_tkeep.val().get_bit(i);
            }
            self.summaries[i].continuing.next = self.lanes[i].q.val().get_bit(8);
            self.summaries[i].need.next = self.lanes[i].q.val().get_bits::<3>(9);
            self.summaries[i].range.next = self.lanes[i].q.val().get_bits::<5>(12);
            self.summaries[i].keep.next = self.lane_keep[i].q.val();
            self.scan.data_in[i].next = self.lanes[i].q.val();
            self.scan.keep_in[i].next = self.lane_keep[i].q.val();
            self.scan.forward_in[i].next = self.summaries[i].forward.val();
            self.scan.backward_in[i].next = self.summaries[i].backward.val();
            self.marks.data[i].next = self.scan.data[i].val();
            self.marks.keep[i].next = self.scan.keep[i].val();
            self.marks.forward[i].next = self.scan.forward[i].val();
            self.marks.backward[i].next = self.scan.backward[i].val();
        }
        self.scan.beat_in.next = self.beat.q.val();
        self.scan.last_in.next = self.last.q.val();
        self.marks.beat.next = self.scan.beat.val();
        self.marks.last.next = self.scan.last.val();

        // A beat with no first octet open after it, when none waits in the
        // hold, goes straight into the queue: no beat is before it, and none
        // of its lanes waits for a later beat.
        self.bypass.next = self.marks.closed.val() & self.hold.idle.val();
        self.hold.write.next = self.marks.write.val();
        self.hold.pass.next = self.bypass.val();
        self.hold.tdata.next = self.marks.tdata.val();
        self.hold.tkeep.next = self.marks.tkeep.val();
        self.hold.tlast.next = self.marks.tlast.val();
        self.hold.tuser.next = self.marks.tuser.val();
        self.hold.open.next = self.marks.open.val();
        self.hold.resolved.next = self.marks.resolved.val();
        self.hold.resolved_tuser.next = self.marks.resolved_tuser.val();

        // The hold's output register and a passing beat never meet: the
        // hold is idle only when that register is empty.
        self.queue.write.next = self.hold.release.val() | self.bypass.val();
        self.queue.tdata.next = self.marks.tdata.val();
        self.queue.tuser.next = self.marks.tuser.val();
        self.queue.tkeep.next = self.marks.tkeep.val();
        self.queue.tlast.next = self.marks.tlast.val();
        if self.hold.release.val() {
            self.queue.tdata.next = self.hold.tdata_out.val();
            self.queue.tuser.next = self.hold.tuser_out.val();
            self.queue.tkeep.next = self.hold.tkeep_out.val();
            self.queue.tlast.next = self.hold.tlast_out.val();
        }
        // The same beat, lane by lane, for the queue's way past its RAM.
        for i in 0..N {
            self.queue.lane_tdata[i].next = self.marks.tdata.val().get_bits::<8>(8 * i);
            self.queue.lane_tuser[i].next = self.marks.tuser.val().get_bits::<4>(4 * i);
            self.queue.lane_tkeep[i].next = self.marks.tkeep.val().get_bit(i);
            if self.hold.release.val() {
                self.queue.lane_tdata[i].next = self.hold.tdata_out.val().get_bits::<8>(8 * i);
                self.queue.lane_tuser[i].next = self.hold.tuser_out.val().get_bits::<4>(4 * i);
                self.queue.lane_tkeep[i].next = self.hold.tkeep_out.val().get_bit(i);
            }
        }
        self.queue.m_axis_tready.next = self.m_axis_tready.val();
        self.m_axis_tdata.next = self.queue.m_axis_tdata.val();
        self.m_axis_tuser.next = self.queue.m_axis_tuser.val();
        self.m_axis_tkeep.next = self.queue.m_axis_tkeep.val();
        self.m_axis_tvalid.next = self.queue.m_axis_tvalid.val();
        self.m_axis_tlast.next = self.queue.m_axis_tlast.val();
        if self.rst.val() {
            self.beat.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_validator_is_synthesizable() {
        crate::assert_synthesizable(Utf8ValidatorX1::new(Profile::Rfc3629));
        crate::assert_synthesizable(Utf8ValidatorX2::new(Profile::Rfc3629));
        crate::assert_synthesizable(Utf8ValidatorX32::new(Profile::Iso10646));
    }
}
