//! # `BeatFifo`: the wide decoder's output queue and its `m_axis` registers
//!
//! The stages before it never stall: every beat they hold moves on at
//! every clock. Backpressure stops here. The queue holds up to 2^A beats in
//! a [`BeatRam`] (distributed RAM on ECP5, block RAM on iCE40), and the
//! `m_axis` registers in front of it are loaded from the RAM's read
//! register, as a first-word-fall-through queue with registered outputs.
//! `m_axis_tready` reaches the read side (`fetch`), not only the `m_axis`
//! registers: a skid register per lane that keeps it off the read side
//! was measured, and it gains at N = 8 but loses at N = 16 and 32, for
//! many more LUT4 at N = 32, because `m_axis_tready` must then reach the
//! skids and the choice in front of every `m_axis` register instead
//! (`docs/design.md`, the design notes on the wide decoder). The
//! [`BeatCredits`](crate::utf8_decoder_wide::queue::BeatCredits) make sure that
//! no more beats are ever in flight than the queue holds, so it needs no
//! `full`.
//!
//! [`BeatFifo::passing_when_empty`] builds the form in which a beat written
//! while the queue holds none, and the `m_axis` registers are free, goes
//! straight into them: one cycle from `write` to `m_axis_tvalid` rather
//! than three. The other beats take the way through the RAM, behind it.
//! The choice reads `write`, `m_axis_tready` and the lane's flags, and
//! reaches the `m_axis` registers, the write addresses and pointer,
//! `not_empty` and `one_left` (on the iCE40 it is the 1-lane validator's
//! limit in most seeds: `docs/design.md`). `Default` builds the form
//! without it, whose Verilog has nothing of it: the passing logic is in
//! loops over vectors that are empty there.
//!
//! ## Parameters
//! * `N`, `LD`, `LU`: the lanes and each lane's `tdata` and `tuser` bits
//!   (32 and 4, a decoded word and its error, in the wide decoder).
//! * `TDATA` = `LD`·N, `TUSER` = `LU`·N: the `m_axis` widths.
//! * `A`: the address bits; the queue holds 2^A beats.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `rst` | in | 1 | clock; synchronous reset, active high |
//! | `write`, `tdata`, `tuser`, `tkeep`, `tlast` | in | 1, 32N, 4N, N, 1 | a beat to queue |
//! | `lane_tdata[i]`, `lane_tuser[i]`, `lane_tkeep[i]` | in | LD, LU, 1 | the passing form only: lane `i` of `tdata`, `tuser` and `tkeep` again (`#[hdl_gen]` cannot cut a lane of a generic width out of a vector), for lane `i`'s `m_axis` registers |
//! | `m_axis_*` | out | | registered |
//! | `m_axis_tready` | in | 1 | |
//! | `returned` | out | 1 | a beat left on `m_axis` this cycle (its credit returns) |
//!
//! ## Latency
//! [`BeatFifo::LATENCY`], three cycles from `write` to `m_axis_tvalid`
//! (write, read, output register), with `m_axis_tready` high; in the
//! passing form, [`BeatFifo::PASSING_LATENCY`], one, when the queue is
//! empty:
//!
//! ```text
//! clock           _/‾\_/‾\_/‾\_/‾\_/‾\_
//! write           _/‾‾‾\___________
//! fetch           _____/‾‾‾\_______      (the RAM is read)
//! fetched         _________/‾‾‾\___      (the RAM's read register holds it)
//! m_axis_tvalid   _____________/‾‾‾\_
//! m_axis_tvalid   _____/‾‾‾\_______      (passing, the queue empty)
//! ```
//!
//! ## Invariants
//! * While `m_axis_tvalid & !m_axis_tready`, every `m_axis_*` output holds.
//! * The `m_axis` registers load only a fetched (or passing) beat, so they
//!   hold 0 until the first and then the last beat sent (never what the
//!   RAM's read register holds before any beat: unknown in Verilog).
//! * After a stall, a beat leaves on every cycle again: no bubble, but
//!   for one in the passing form, after the stall that ends a run of
//!   passing beats (the beat behind the stalled one took the way through
//!   the RAM, two cycles long). Beats pass again once the queue empties.
//! * Beats leave in the order they were written; none is lost, provided
//!   no more than 2^A are ever written and not yet returned.

use rust_hdl::prelude::*;

use crate::utf8_decoder_wide::many;

use crate::utf8_decoder_wide::queue::BeatRam;
use crate::utf8_decoder_wide::wiring::LaneBus;

#[derive(LogicBlock)]
pub struct BeatFifo<
    const N: usize,
    const LD: usize,
    const LU: usize,
    const TDATA: usize,
    const TUSER: usize,
    const A: usize,
> {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub write: Signal<In, Bit>,
    pub tdata: Signal<In, Bits<TDATA>>,
    pub tuser: Signal<In, Bits<TUSER>>,
    pub tkeep: Signal<In, Bits<N>>,
    pub tlast: Signal<In, Bit>,
    /// The passing form's lanes of the beat written, once per lane (none
    /// in the other form).
    pub lane_tdata: Vec<Signal<In, Bits<LD>>>,
    pub lane_tuser: Vec<Signal<In, Bits<LU>>>,
    pub lane_tkeep: Vec<Signal<In, Bit>>,
    pub m_axis_tdata: Signal<Out, Bits<TDATA>>,
    pub m_axis_tuser: Signal<Out, Bits<TUSER>>,
    pub m_axis_tkeep: Signal<Out, Bits<N>>,
    pub m_axis_tvalid: Signal<Out, Bit>,
    pub m_axis_tlast: Signal<Out, Bit>,
    pub m_axis_tready: Signal<In, Bit>,
    pub returned: Signal<Out, Bit>,
    ram: BeatRam<N, LD, LU, TDATA, TUSER, A>,
    /// One bit more than the address, so that full and empty differ.
    write_pointer: DFF<Bits<8>>,
    /// The read pointer plus one: the queue's read pointer itself is only
    /// ever needed as the RAM's read address (below). A fetch loads the
    /// read address from it, so that `fetch` only selects between values
    /// held in flops (an adder behind `fetch` was the critical path at
    /// N = 16).
    read_pointer_ahead: DFF<Bits<8>>,
    /// The read pointer plus two, kept likewise, so that `two_left`
    /// compares two flops (a carry chain in front of the compare was the
    /// critical path at N = 8).
    read_pointer_two_ahead: DFF<Bits<8>>,
    /// `read_pointer_ahead`'s address bits, what a fetch loads.
    next_read_address: Signal<Local, Bits<A>>,
    /// The RAM holds exactly one beat not yet fetched, registered: every
    /// lane's `not_empty` reads it, so it reaches N lanes from a flop
    /// rather than from a pointer compare (at N = 32 the compare and its
    /// nets across the device were the critical path: 6 levels, 1.88 ns
    /// logic + 7.35 ns routing). Its next value needs only flops, `write`
    /// and `fetch`.
    one_left: DFF<Bit>,
    /// Two beats not yet fetched: after a fetch with no write, one is left.
    two_left: Signal<Local, Bit>,
    /// The read state, once per lane. Every lane's copy holds the same
    /// values, but each is its own net: lane `i`'s `fetch` enables only
    /// lane `i`'s RAM read register, and its `output_free` only lane `i`'s
    /// `m_axis` registers (37 flops, not 37N; see [`BeatRam`]). The copies
    /// are not merged by synthesis: each one's next state reads its own.
    ///
    /// `read_address`: the address of lane `i`'s memory (one address for
    /// every lane was the critical path at N = 32: 7.23 ns of routing into
    /// the memories of 32 lanes).
    read_address: Vec<DFF<Bits<A>>>,
    /// Where lane `i`'s memory is written: `write_pointer`'s address bits,
    /// kept once per lane as `read_address` is (with one write address,
    /// `write_pointer` into the write ports of 32 lanes' memories was the
    /// critical path at N = 32: 1 level, 1.15 ns logic + 6.65 ns routing).
    write_address: Vec<DFF<Bits<A>>>,
    /// The RAM's read register holds a beat not yet in the `m_axis`
    /// registers.
    fetched: Vec<DFF<Bit>>,
    fetch: Vec<Signal<Local, Bit>>,
    /// The RAM holds a beat not yet fetched: registered, so that `fetch`
    /// is one LUT from flops (a pointer compare in front of it was the
    /// critical path at N = 8 and 16: 5 LUTs and 6 ns of routing to 37N
    /// enables).
    not_empty: Vec<DFF<Bit>>,
    /// The `m_axis` registers take a beat this cycle, if there is one.
    output_free: Vec<Signal<Local, Bit>>,
    tvalid_out: Vec<DFF<Bit>>,
    tdata_out: Vec<DFF<Bits<LD>>>,
    tuser_out: Vec<DFF<Bits<LU>>>,
    tkeep_out: Vec<DFF<Bits<1>>>,
    tlast_out: DFF<Bit>,
    tdata_bus: LaneBus<LD, TDATA>,
    tuser_bus: LaneBus<LU, TUSER>,
    tkeep_bus: LaneBus<1, N>,
    /// In the passing form, once per lane (in the other, none): the beat
    /// written goes straight into lane `i`'s `m_axis` registers, not into
    /// the RAM. The queue holds no beat (none in the RAM, none in its read
    /// register), and those registers are free.
    passing: Vec<Signal<Local, Bit>>,
}

impl<
        const N: usize,
        const LD: usize,
        const LU: usize,
        const TDATA: usize,
        const TUSER: usize,
        const A: usize,
    > BeatFifo<N, LD, LU, TDATA, TUSER, A>
{
    /// From `write` to `m_axis_tvalid`: write, read, output register.
    pub const LATENCY: u64 = 3;
    /// From `write` to `m_axis_tvalid` in the passing form, when the queue
    /// is empty: the output register.
    pub const PASSING_LATENCY: u64 = 1;

    /// The form in which a beat written into an empty queue, with the
    /// `m_axis` registers free, goes straight into them.
    pub fn passing_when_empty() -> Self {
        BeatFifo {
            lane_tdata: many(N),
            lane_tuser: many(N),
            lane_tkeep: many(N),
            passing: many(N),
            ..Self::default()
        }
    }
}

impl<
        const N: usize,
        const LD: usize,
        const LU: usize,
        const TDATA: usize,
        const TUSER: usize,
        const A: usize,
    > Default for BeatFifo<N, LD, LU, TDATA, TUSER, A>
{
    fn default() -> Self {
        assert!(A < 8, "BeatFifo: at most 2^7 beats");
        BeatFifo {
            clock: Default::default(),
            rst: Default::default(),
            write: Default::default(),
            tdata: Default::default(),
            tuser: Default::default(),
            tkeep: Default::default(),
            tlast: Default::default(),
            lane_tdata: Vec::new(),
            lane_tuser: Vec::new(),
            lane_tkeep: Vec::new(),
            m_axis_tdata: Default::default(),
            m_axis_tuser: Default::default(),
            m_axis_tkeep: Default::default(),
            m_axis_tvalid: Default::default(),
            m_axis_tlast: Default::default(),
            m_axis_tready: Default::default(),
            returned: Default::default(),
            ram: Default::default(),
            write_pointer: Default::default(),
            read_pointer_ahead: Default::default(),
            read_pointer_two_ahead: Default::default(),
            next_read_address: Default::default(),
            one_left: Default::default(),
            two_left: Default::default(),
            read_address: many(N),
            write_address: many(N),
            fetched: many(N),
            fetch: many(N),
            not_empty: many(N),
            output_free: many(N),
            tvalid_out: many(N),
            tdata_out: many(N),
            tuser_out: many(N),
            tkeep_out: many(N),
            tlast_out: Default::default(),
            tdata_bus: Default::default(),
            tuser_bus: Default::default(),
            tkeep_bus: Default::default(),
            passing: Vec::new(),
        }
    }
}

impl<
        const N: usize,
        const LD: usize,
        const LU: usize,
        const TDATA: usize,
        const TUSER: usize,
        const A: usize,
    > Logic for BeatFifo<N, LD, LU, TDATA, TUSER, A>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            write_pointer,
            read_pointer_ahead,
            read_pointer_two_ahead,
            one_left,
            tlast_out
        );
        for i in 0..N {
            self.read_address[i].clock.next = self.clock.val();
            self.read_address[i].d.next = self.read_address[i].q.val();
            self.write_address[i].clock.next = self.clock.val();
            self.write_address[i].d.next = self.write_address[i].q.val();
            self.fetched[i].clock.next = self.clock.val();
            self.fetched[i].d.next = self.fetched[i].q.val();
            self.not_empty[i].clock.next = self.clock.val();
            self.not_empty[i].d.next = self.not_empty[i].q.val();
            self.tvalid_out[i].clock.next = self.clock.val();
            self.tvalid_out[i].d.next = self.tvalid_out[i].q.val();
            self.tdata_out[i].clock.next = self.clock.val();
            self.tdata_out[i].d.next = self.tdata_out[i].q.val();
            self.tuser_out[i].clock.next = self.clock.val();
            self.tuser_out[i].d.next = self.tuser_out[i].q.val();
            self.tkeep_out[i].clock.next = self.clock.val();
            self.tkeep_out[i].d.next = self.tkeep_out[i].q.val();
            self.tdata_bus.lane[i].next = self.tdata_out[i].q.val();
            self.tuser_bus.lane[i].next = self.tuser_out[i].q.val();
            self.tkeep_bus.lane[i].next = self.tkeep_out[i].q.val();
        }
        self.ram.clock.next = self.clock.val();
        self.m_axis_tdata.next = self.tdata_bus.bus.val();
        self.m_axis_tuser.next = self.tuser_bus.bus.val();
        self.m_axis_tkeep.next = self.tkeep_bus.bus.val();
        self.m_axis_tvalid.next = self.tvalid_out[0].q.val();
        self.m_axis_tlast.next = self.tlast_out.q.val();
        self.returned.next = self.tvalid_out[0].q.val() & self.m_axis_tready.val();
        self.ram.write_enable.next = self.write.val();
        self.ram.write_tdata.next = self.tdata.val();
        self.ram.write_tuser.next = self.tuser.val();
        self.ram.write_tkeep.next = self.tkeep.val();
        self.ram.write_tlast.next = self.tlast.val();
        self.next_read_address.next = self.read_pointer_ahead.q.val().get_bits::<A>(0);
        if self.write.val() {
            self.write_pointer.d.next = self.write_pointer.q.val() + 1;
        }
        for i in 0..N {
            self.output_free[i].next = !self.tvalid_out[i].q.val() | self.m_axis_tready.val();
            self.fetch[i].next =
                self.not_empty[i].q.val() & (!self.fetched[i].q.val() | self.output_free[i].val());
            self.ram.read_enable[i].next = self.fetch[i].val();
            self.ram.read_address[i].next = self.read_address[i].q.val();
            self.ram.write_address[i].next = self.write_address[i].q.val();
            if self.write.val() {
                self.write_address[i].d.next = self.write_address[i].q.val() + 1;
            }
            if self.fetch[i].val() {
                self.read_address[i].d.next = self.next_read_address.val();
            }
            self.not_empty[i].d.next = self.write.val()
                | (self.not_empty[i].q.val() & !(self.fetch[i].val() & self.one_left.q.val()));
            self.fetched[i].d.next =
                self.fetch[i].val() | (self.fetched[i].q.val() & !self.output_free[i].val());
            if self.output_free[i].val() {
                self.tvalid_out[i].d.next = self.fetched[i].q.val();
            }
            if self.output_free[i].val() & self.fetched[i].q.val() {
                self.tdata_out[i].d.next = self.ram.read_tdata[i].val();
                self.tuser_out[i].d.next = self.ram.read_tuser[i].val();
                self.tkeep_out[i].d.next = self.ram.read_tkeep[i].val().into();
            }
        }
        self.two_left.next = self.write_pointer.q.val() == self.read_pointer_two_ahead.q.val();
        // The next `write_pointer == read_pointer_ahead`, case by case
        // (after `fetch` is assigned: one always block in the Verilog, in
        // order, or Verilator sees a combinational loop).
        if self.write.val() & !self.fetch[0].val() {
            self.one_left.d.next = !self.not_empty[0].q.val();
        } else if !self.write.val() & self.fetch[0].val() {
            self.one_left.d.next = self.two_left.val();
        }
        // The pointer and `tlast` follow lane 0's copy.
        if self.fetch[0].val() {
            self.read_pointer_ahead.d.next = self.read_pointer_ahead.q.val() + 1;
            self.read_pointer_two_ahead.d.next = self.read_pointer_two_ahead.q.val() + 1;
        }
        if self.output_free[0].val() & self.fetched[0].q.val() {
            self.tlast_out.d.next = self.ram.read_tlast.val();
        }
        // The passing form (no statement in the other): a passing beat
        // loads the m_axis registers and leaves the RAM's state as it is.
        for i in 0..self.passing.len() {
            self.passing[i].next = self.write.val()
                & !self.not_empty[i].q.val()
                & !self.fetched[i].q.val()
                & self.output_free[i].val();
            if self.passing[i].val() {
                self.write_address[i].d.next = self.write_address[i].q.val();
                self.not_empty[i].d.next = false;
                self.tvalid_out[i].d.next = true;
                self.tdata_out[i].d.next = self.lane_tdata[i].val();
                self.tuser_out[i].d.next = self.lane_tuser[i].val();
                self.tkeep_out[i].d.next = self.lane_tkeep[i].val().into();
            }
        }
        for i in 0..self.passing.len().min(1) {
            if self.passing[i].val() {
                self.write_pointer.d.next = self.write_pointer.q.val();
                self.one_left.d.next = false;
                self.tlast_out.d.next = self.tlast.val();
            }
        }
        if self.rst.val() {
            self.write_pointer.d.next = 0.into();
            self.read_pointer_ahead.d.next = 1.into();
            self.read_pointer_two_ahead.d.next = 2.into();
            self.one_left.d.next = false;
            for i in 0..N {
                self.read_address[i].d.next = 0.into();
                self.write_address[i].d.next = 0.into();
                self.fetched[i].d.next = false;
                self.not_empty[i].d.next = false;
                self.tvalid_out[i].d.next = false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn beat_fifo_is_synthesizable() {
        crate::assert_synthesizable(BeatFifo::<2, 32, 4, 64, 8, 4>::default());
        crate::assert_synthesizable(BeatFifo::<2, 32, 4, 64, 8, 4>::passing_when_empty());
    }

    /// The other form's Verilog has nothing of the passing form.
    #[test]
    fn only_the_passing_form_has_the_way_past_the_ram() {
        let verilog = |mut fifo: Fifo| {
            fifo.connect_all();
            generate_verilog(&fifo)
        };
        assert!(!verilog(Fifo::default()).contains("passing"));
        assert!(verilog(Fifo::passing_when_empty()).contains("passing$1"));
    }

    type Fifo = BeatFifo<2, 32, 4, 64, 8, 4>;

    /// Beats 1, 2, 3, … written into `uut` one a cycle from cycle 0, as
    /// credits allow (no more than the queue's 16 inside, as BeatCredits
    /// keeps it), with `m_axis_tready` from `ready(cycle)`: the beats taken
    /// on `m_axis`, as (the cycle of their handshake, lane 0's word, lane
    /// 1's `tuser`), a beat written in cycle `c` with a latency of `l`
    /// being taken in cycle `c + l` at the earliest.
    fn run_on(
        mut uut: Fifo,
        beats: u64,
        cycles: u64,
        ready: fn(u64) -> bool,
    ) -> Vec<(u64, u64, u64)> {
        uut.connect_all();
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<Fifo>| x.clock.next = !x.clock.val());
        let taken = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let log = taken.clone();
        sim.add_testbench(move |mut sim: Sim<Fifo>| {
            let mut x = sim.init()?;
            x.rst.next = true;
            wait_clock_cycle!(sim, clock, x);
            x.rst.next = false;
            let (mut written, mut inside) = (0u64, 0u64);
            for cycle in 0..cycles {
                let write = written < beats && inside < 16;
                x.write.next = write;
                x.tdata.next = (written + 1).into();
                x.tuser.next = (((written + 1) % 16) << 4).into();
                x.tkeep.next = 1.into();
                // The passing form's lanes: lane 0's word, lane 1's tuser.
                for i in 0..x.lane_tdata.len() {
                    x.lane_tdata[i].next = (if i == 0 { written + 1 } else { 0 }).into();
                    x.lane_tuser[i].next = (if i == 1 { (written + 1) % 16 } else { 0 }).into();
                    x.lane_tkeep[i].next = i == 0;
                }
                x.m_axis_tready.next = ready(cycle);
                // The outputs are flops: their values now are the ones the
                // coming clock edge sees.
                let taken = x.m_axis_tvalid.val() & ready(cycle);
                if taken {
                    let word = x.m_axis_tdata.val().get_bits::<32>(0).to_u64();
                    let tuser = x.m_axis_tuser.val().get_bits::<4>(4).to_u64();
                    log.lock().unwrap().push((cycle, word, tuser));
                }
                written += u64::from(write);
                inside = inside + u64::from(write) - u64::from(taken);
                wait_clock_cycle!(sim, clock, x);
            }
            sim.done(x)
        });
        sim.run(Box::new(uut), 100_000).unwrap();
        let taken = taken.lock().unwrap();
        taken.clone()
    }

    fn run(beats: u64, cycles: u64, ready: fn(u64) -> bool) -> Vec<(u64, u64, u64)> {
        run_on(Fifo::default(), beats, cycles, ready)
    }

    /// `m_axis_tready` low in about a third of the cycles, irregularly.
    fn irregular(cycle: u64) -> bool {
        (cycle.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 61) > 2
    }

    /// Each form's latency is its constant's, on an empty queue.
    #[test]
    fn the_latency_is_the_datasheets() {
        for (fifo, latency) in [
            (Fifo::default(), Fifo::LATENCY),
            (Fifo::passing_when_empty(), Fifo::PASSING_LATENCY),
        ] {
            let taken = run_on(fifo, 1, 10, |_| true);
            assert_eq!(taken.len(), 1);
            assert_eq!(taken[0].0, latency);
        }
    }

    /// With stalls on about a third of the cycles, in both forms: every
    /// beat leaves once, in order, both lanes' payload as written (lane 1
    /// of a passing beat comes from the write's lane 1).
    #[test]
    fn stalls_lose_no_beat_and_keep_the_order() {
        for fifo in [Fifo::default(), Fifo::passing_when_empty()] {
            let taken = run_on(fifo, 60, 200, irregular);
            let words: Vec<u64> = taken.iter().map(|&(_, w, _)| w).collect();
            assert_eq!(words, (1..=60).collect::<Vec<u64>>());
            assert!(taken.iter().all(|&(_, w, tuser)| tuser == w % 16));
        }
    }

    /// The passing form: a stall while beats pass (beat 4 waits in cycle
    /// 4), then `m_axis_tready` high again: beat 5, behind the stalled one,
    /// went into the RAM, and m_axis waits a cycle for it (the datasheet's
    /// one bubble); after it, a beat leaves on every cycle.
    #[test]
    fn the_passing_form_has_one_bubble_after_a_stall() {
        let taken = run_on(Fifo::passing_when_empty(), 12, 30, |cycle| cycle != 4);
        let words: Vec<u64> = taken.iter().map(|&(_, w, _)| w).collect();
        assert_eq!(words, (1..=12).collect::<Vec<u64>>());
        let cycles: Vec<u64> = taken.iter().map(|&(c, _, _)| c).collect();
        assert_eq!(cycles[..5], [1, 2, 3, 5, 7]);
        assert!(
            cycles[4..].windows(2).all(|w| w[1] == w[0] + 1),
            "a second bubble: {cycles:?}"
        );
    }

    /// The datasheet's stall: `m_axis_tready` low for two cycles in a
    /// stream. Every beat leaves once, in order, and once `m_axis_tready`
    /// is back, a beat leaves on every cycle, with no bubble after the
    /// stall.
    #[test]
    fn a_stall_costs_no_beat_and_no_cycle() {
        let taken = run(12, 30, |cycle| !(6..8).contains(&cycle));
        let words: Vec<u64> = taken.iter().map(|&(_, w, _)| w).collect();
        assert_eq!(words, (1..=12).collect::<Vec<u64>>());
        let cycles: Vec<u64> = taken.iter().map(|&(c, _, _)| c).collect();
        let resumed = cycles.iter().position(|&c| c >= 8).unwrap();
        assert!(
            cycles[resumed..].windows(2).all(|w| w[1] == w[0] + 1),
            "a bubble after the stall: {cycles:?}"
        );
        assert_eq!(run(12, 30, |_| true).len(), 12);
    }
}
