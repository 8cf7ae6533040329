//! # `BeatRam`: the memory of the [`BeatFifo`](crate::utf8_decoder_wide::queue::BeatFifo)
//!
//! A simple dual-port memory of `2^A` beats with a registered, enabled
//! read. A beat is written whole; it is stored, and read, lane by lane:
//! lane `i` is its `tdata` (a word, in the wide decoder), its `tuser` and its `tkeep` bit (and lane 0
//! also `tlast`), one memory each, each read register with its own enable.
//! The enables, and the read and write addresses, are the same signal in
//! value, but not one net: each comes from its lane's copy of the queue's
//! state, so that none fans out to more than one lane's flops (37 in the
//! wide decoder) or memory. (One enable for the whole beat was the wide core's critical
//! path at N = 16: 593 enables, 6.12 ns of routing; one read address was
//! at N = 32: 7.23 ns of routing into the memories of 32 lanes, and then
//! one write address, 6.65 ns.)
//!
//! The Verilog forces no `ram_style`, so yosys maps it by cost: on ECP5 to
//! distributed RAM (`TRELLIS_DPR16X4`, read asynchronously into a fabric
//! register), on iCE40 to block RAM (`SB_RAM40_4K`). On ECP5 a `DP16KD` is
//! too slow for the wide core: yosys cannot use its output register, and
//! its clock-to-out alone is 5.8 ns (at x8 its critical path ran from
//! `DP16KD.DOB` into the `m_axis` registers; 156.25 MHz is 6.4 ns).
//!
//! rust-hdl 0.46's `RAM` widget has no read enable (its read register
//! loads on every cycle, so a beat read early would be lost behind the
//! next) and one data port, so this block writes its own Verilog, and its
//! `update` does the same in Rust: the co-simulation tests check that the
//! two agree.
//!
//! ## Parameters
//! * `N`, `LD`, `LU`: the lanes and each lane's `tdata` and `tuser` bits.
//! * `TDATA` = `LD`·N, `TUSER` = `LU`·N: the beat's widths (`tkeep` is N
//!   bits, `tlast` one).
//! * `A`: the address bits; the memory holds 2^A beats.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock` | in | 1 | |
//! | `write_enable`, `write_address[i]` | in | 1, A | write the beat at the clock edge, lane `i` at `write_address[i]` |
//! | `write_tdata`, `write_tuser`, `write_tkeep`, `write_tlast` | in | | the beat written |
//! | `read_enable[i]`, `read_address[i]` | in | 1, A | read lane `i` of the beat at the clock edge |
//! | `read_tdata[i]`, `read_tuser[i]`, `read_tkeep[i]`, `read_tlast` | out | LD, LU, 1, 1 | registered: lane `i` of the beat last read (`tlast` with lane 0) |
//!
//! ## Latency
//! One cycle from `read_enable` to `read_*`. A read of the address written
//! at the same edge returns the old beat (the FIFO never does both).

use rust_hdl::prelude::*;

use crate::utf8_decoder_wide::many;

#[derive(LogicBlock)]
pub struct BeatRam<
    const N: usize,
    const LD: usize,
    const LU: usize,
    const TDATA: usize,
    const TUSER: usize,
    const A: usize,
> {
    pub clock: Signal<In, Clock>,
    pub write_enable: Signal<In, Bit>,
    pub write_address: Vec<Signal<In, Bits<A>>>,
    pub write_tdata: Signal<In, Bits<TDATA>>,
    pub write_tuser: Signal<In, Bits<TUSER>>,
    pub write_tkeep: Signal<In, Bits<N>>,
    pub write_tlast: Signal<In, Bit>,
    pub read_enable: Vec<Signal<In, Bit>>,
    pub read_address: Vec<Signal<In, Bits<A>>>,
    pub read_tdata: Vec<Signal<Out, Bits<LD>>>,
    pub read_tuser: Vec<Signal<Out, Bits<LU>>>,
    pub read_tkeep: Vec<Signal<Out, Bit>>,
    pub read_tlast: Signal<Out, Bit>,
    /// The simulation's memory, lane by lane, and `tlast` (a leading
    /// underscore: not signals).
    _lanes: Vec<Vec<(Bits<LD>, Bits<LU>, Bit)>>,
    _tlast: Vec<Bit>,
}

impl<
        const N: usize,
        const LD: usize,
        const LU: usize,
        const TDATA: usize,
        const TUSER: usize,
        const A: usize,
    > Default for BeatRam<N, LD, LU, TDATA, TUSER, A>
{
    fn default() -> Self {
        assert_eq!(
            (TDATA, TUSER),
            (LD * N, LU * N),
            "BeatRam: LD and LU bits a lane"
        );
        BeatRam {
            clock: Default::default(),
            write_enable: Default::default(),
            write_address: many(N),
            write_tdata: Default::default(),
            write_tuser: Default::default(),
            write_tkeep: Default::default(),
            write_tlast: Default::default(),
            read_enable: many(N),
            read_address: many(N),
            read_tdata: many(N),
            read_tuser: many(N),
            read_tkeep: many(N),
            read_tlast: Default::default(),
            _lanes: vec![vec![Default::default(); 1 << A]; N],
            _tlast: vec![false; 1 << A],
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
    > Logic for BeatRam<N, LD, LU, TDATA, TUSER, A>
{
    fn update(&mut self) {
        if self.clock.pos_edge() {
            for i in 0..N {
                if self.read_enable[i].val() {
                    let (tdata, tuser, tkeep) = self._lanes[i][self.read_address[i].val().index()];
                    self.read_tdata[i].next = tdata;
                    self.read_tuser[i].next = tuser;
                    self.read_tkeep[i].next = tkeep;
                }
            }
            if self.read_enable[0].val() {
                self.read_tlast.next = self._tlast[self.read_address[0].val().index()];
            }
            if self.write_enable.val() {
                let (tdata, tuser, tkeep) = (
                    self.write_tdata.val(),
                    self.write_tuser.val(),
                    self.write_tkeep.val(),
                );
                for (i, lane) in self._lanes.iter_mut().enumerate() {
                    lane[self.write_address[i].val().index()] = (
                        tdata.get_bits::<LD>(LD * i),
                        tuser.get_bits::<LU>(LU * i),
                        tkeep.get_bit(i),
                    );
                }
                self._tlast[self.write_address[0].val().index()] = self.write_tlast.val();
            }
        }
    }

    fn connect(&mut self) {
        for i in 0..N {
            self.read_tdata[i].connect();
            self.read_tuser[i].connect();
            self.read_tkeep[i].connect();
        }
        self.read_tlast.connect();
    }

    fn hdl(&self) -> Verilog {
        let last = (1 << A) - 1;
        let mut memories = String::new();
        let mut writes = String::new();
        let mut reads = String::new();
        for i in 0..N {
            let (tlast, top) = if i == 0 {
                ("write_tlast, ", LD + LU + 1)
            } else {
                ("", LD + LU)
            };
            memories.push_str(&format!("reg [{top}:0] beats${i} [0:{last}];\n"));
            writes.push_str(&format!(
                "        beats${i}[write_address${i}] <= {{{tlast}write_tkeep[{i}], write_tuser[{tu_hi}:{tu_lo}], write_tdata[{td_hi}:{td_lo}]}};\n",
                tu_hi = LU * i + LU - 1,
                tu_lo = LU * i,
                td_hi = LD * i + LD - 1,
                td_lo = LD * i,
            ));
            let read_tlast = if i == 0 { "read_tlast, " } else { "" };
            reads.push_str(&format!(
                "    if (read_enable${i}) {{{read_tlast}read_tkeep${i}, read_tuser${i}, read_tdata${i}}} <= beats${i}[read_address${i}];\n"
            ));
        }
        Verilog::Custom(format!(
            "{memories}always @(posedge clock) begin
    if (write_enable) begin
{writes}    end
{reads}end"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn beat_ram_is_synthesizable() {
        crate::assert_synthesizable(BeatRam::<2, 32, 4, 64, 8, 4>::default());
    }

    /// Written beats read back; a read without `read_enable` keeps the
    /// beat last read.
    #[test]
    fn reads_what_was_written() {
        let mut uut = BeatRam::<2, 32, 4, 64, 8, 4>::default();
        uut.connect_all();
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<BeatRam<2, 32, 4, 64, 8, 4>>| {
            x.clock.next = !x.clock.val()
        });
        sim.add_testbench(move |mut sim: Sim<BeatRam<2, 32, 4, 64, 8, 4>>| {
            let mut x = sim.init()?;
            for a in 0..16u64 {
                x.write_enable.next = true;
                x.write_address[0].next = a.into();
                x.write_address[1].next = a.into();
                x.write_tdata.next = (0x1000 + a).into();
                x.write_tuser.next = a.into();
                x.write_tkeep.next = (a & 3).into();
                x.write_tlast.next = a % 2 == 1;
                wait_clock_cycle!(sim, clock, x);
            }
            x.write_enable.next = false;
            for a in [3u64, 12] {
                x.read_enable[0].next = true;
                x.read_enable[1].next = true;
                x.read_address[0].next = a.into();
                x.read_address[1].next = a.into();
                wait_clock_cycle!(sim, clock, x);
                x.read_enable[0].next = false;
                x.read_enable[1].next = false;
                x.read_address[0].next = 0.into();
                x.read_address[1].next = 0.into();
                wait_clock_cycle!(sim, clock, x);
                sim_assert_eq!(sim, x.read_tdata[0].val().to_u64(), 0x1000 + a, x);
                sim_assert_eq!(sim, x.read_tdata[1].val().to_u64(), 0, x);
                sim_assert_eq!(sim, x.read_tuser[0].val().to_u64(), a, x);
                sim_assert_eq!(sim, x.read_tkeep[0].val(), a & 1 == 1, x);
                sim_assert_eq!(sim, x.read_tkeep[1].val(), a & 2 == 2, x);
                sim_assert_eq!(sim, x.read_tlast.val(), a % 2 == 1, x);
            }
            // Lane 1 alone: lane 0's register keeps beat 12.
            x.read_enable[1].next = true;
            x.read_address[1].next = 6.into();
            wait_clock_cycle!(sim, clock, x);
            x.read_enable[1].next = false;
            wait_clock_cycle!(sim, clock, x);
            sim_assert_eq!(sim, x.read_tkeep[1].val(), true, x);
            sim_assert_eq!(sim, x.read_tkeep[0].val(), false, x);
            sim_assert_eq!(sim, x.read_tdata[0].val().to_u64(), 0x1000 + 12, x);
            sim.done(x)
        });
        sim.run(Box::new(uut), 1000).unwrap();
    }
}
