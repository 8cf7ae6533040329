//! # `BeatRam`: the memory of the [`BeatFifo`](crate::wide::beat_fifo::BeatFifo)
//!
//! A simple dual-port memory of `2^A` beats with a registered, enabled
//! read. A beat is its four `m_axis` fields, stored side by side.
//!
//! The Verilog forces no `ram_style`, so yosys maps it by cost: on ECP5 to
//! distributed RAM (`TRELLIS_DPR16X4`, read asynchronously into a fabric
//! register), on iCE40 to block RAM (`SB_RAM40_4K`). On ECP5 a `DP16KD` is
//! too slow for the wide core: yosys cannot use its output register, and
//! its clock-to-out alone is 5.8 ns (x8 at 117.6 MHz, its critical path
//! from `DP16KD.DOB` into the `m_axis` registers; 156.25 MHz is 6.4 ns).
//!
//! rust-hdl 0.46's `RAM` widget has no read enable (its read register
//! loads on every cycle, so a beat read early would be lost behind the
//! next) and one data port, so this block writes its own Verilog, and its
//! `update` does the same in Rust: the co-simulation tests check that the
//! two agree.
//!
//! ## Parameters
//! * `N`, `TDATA`, `TUSER`: the lanes and the widths of `tdata` and
//!   `tuser` (`tkeep` is N bits, `tlast` one).
//! * `A`: the address bits; the memory holds 2^A beats.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock` | in | 1 | |
//! | `write_enable`, `write_address` | in | 1, A | write the beat at the clock edge |
//! | `write_tdata`, `write_tuser`, `write_tkeep`, `write_tlast` | in | | the beat written |
//! | `read_enable`, `read_address` | in | 1, A | read the beat at the clock edge |
//! | `read_tdata`, `read_tuser`, `read_tkeep`, `read_tlast` | out | | registered: the beat last read |
//!
//! ## Latency
//! One cycle from `read_enable` to `read_*`. A read of the address written
//! at the same edge returns the old beat (the FIFO never does both).

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct BeatRam<const N: usize, const TDATA: usize, const TUSER: usize, const A: usize> {
    pub clock: Signal<In, Clock>,
    pub write_enable: Signal<In, Bit>,
    pub write_address: Signal<In, Bits<A>>,
    pub write_tdata: Signal<In, Bits<TDATA>>,
    pub write_tuser: Signal<In, Bits<TUSER>>,
    pub write_tkeep: Signal<In, Bits<N>>,
    pub write_tlast: Signal<In, Bit>,
    pub read_enable: Signal<In, Bit>,
    pub read_address: Signal<In, Bits<A>>,
    pub read_tdata: Signal<Out, Bits<TDATA>>,
    pub read_tuser: Signal<Out, Bits<TUSER>>,
    pub read_tkeep: Signal<Out, Bits<N>>,
    pub read_tlast: Signal<Out, Bit>,
    /// The simulation's memory (a leading underscore: not a signal).
    _beats: Vec<(Bits<TDATA>, Bits<TUSER>, Bits<N>, Bit)>,
}

impl<const N: usize, const TDATA: usize, const TUSER: usize, const A: usize> Default
    for BeatRam<N, TDATA, TUSER, A>
{
    fn default() -> Self {
        BeatRam {
            clock: Default::default(),
            write_enable: Default::default(),
            write_address: Default::default(),
            write_tdata: Default::default(),
            write_tuser: Default::default(),
            write_tkeep: Default::default(),
            write_tlast: Default::default(),
            read_enable: Default::default(),
            read_address: Default::default(),
            read_tdata: Default::default(),
            read_tuser: Default::default(),
            read_tkeep: Default::default(),
            read_tlast: Default::default(),
            _beats: vec![Default::default(); 1 << A],
        }
    }
}

impl<const N: usize, const TDATA: usize, const TUSER: usize, const A: usize> Logic
    for BeatRam<N, TDATA, TUSER, A>
{
    fn update(&mut self) {
        if self.clock.pos_edge() {
            if self.read_enable.val() {
                let (tdata, tuser, tkeep, tlast) = self._beats[self.read_address.val().index()];
                self.read_tdata.next = tdata;
                self.read_tuser.next = tuser;
                self.read_tkeep.next = tkeep;
                self.read_tlast.next = tlast;
            }
            if self.write_enable.val() {
                self._beats[self.write_address.val().index()] = (
                    self.write_tdata.val(),
                    self.write_tuser.val(),
                    self.write_tkeep.val(),
                    self.write_tlast.val(),
                );
            }
        }
    }

    fn connect(&mut self) {
        self.read_tdata.connect();
        self.read_tuser.connect();
        self.read_tkeep.connect();
        self.read_tlast.connect();
    }

    fn hdl(&self) -> Verilog {
        let width = TDATA + TUSER + N + 1;
        Verilog::Custom(format!(
            "reg [{top}:0] beats [0:{last}];
always @(posedge clock) begin
    if (write_enable) beats[write_address] <= {{write_tlast, write_tkeep, write_tuser, write_tdata}};
    if (read_enable) {{read_tlast, read_tkeep, read_tuser, read_tdata}} <= beats[read_address];
end",
            top = width - 1,
            last = (1 << A) - 1,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn beat_ram_is_synthesizable() {
        crate::assert_synthesizable(BeatRam::<2, 64, 8, 4>::default());
    }

    /// Written beats read back; a read without `read_enable` keeps the
    /// beat last read.
    #[test]
    fn reads_what_was_written() {
        let mut uut = BeatRam::<2, 64, 8, 4>::default();
        uut.connect_all();
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<BeatRam<2, 64, 8, 4>>| {
            x.clock.next = !x.clock.val()
        });
        sim.add_testbench(move |mut sim: Sim<BeatRam<2, 64, 8, 4>>| {
            let mut x = sim.init()?;
            for a in 0..16u64 {
                x.write_enable.next = true;
                x.write_address.next = a.into();
                x.write_tdata.next = (0x1000 + a).into();
                x.write_tuser.next = a.into();
                x.write_tkeep.next = (a & 3).into();
                x.write_tlast.next = a % 2 == 1;
                wait_clock_cycle!(sim, clock, x);
            }
            x.write_enable.next = false;
            for a in [3u64, 12] {
                x.read_enable.next = true;
                x.read_address.next = a.into();
                wait_clock_cycle!(sim, clock, x);
                x.read_enable.next = false;
                x.read_address.next = 0.into();
                wait_clock_cycle!(sim, clock, x);
                sim_assert_eq!(sim, x.read_tdata.val().to_u64(), 0x1000 + a, x);
                sim_assert_eq!(sim, x.read_tuser.val().to_u64(), a, x);
                sim_assert_eq!(sim, x.read_tkeep.val().to_u64(), a & 3, x);
                sim_assert_eq!(sim, x.read_tlast.val(), a % 2 == 1, x);
            }
            sim.done(x)
        });
        sim.run(Box::new(uut), 1000).unwrap();
    }
}
