//! The first design of the guide's chapter 0 (`docs/00-primer.md`): a 4-bit
//! counter with an enable and a synchronous reset.
//!
//! ```sh
//! cargo run --release -p utf8hdl-hdl --example primer_counter
//! ```
//!
//! It simulates the counter for 22 cycles, checks the count in every cycle
//! against a model written in plain Rust, prints one line a cycle, then
//! prints the counter's Verilog. A wrong count stops the simulation with a
//! `HALT` line and the program panics.

use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct Counter {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub enable: Signal<In, Bit>,
    pub count: Signal<Out, Bits<4>>,
    counter: DFF<Bits<4>>,
}

impl Logic for Counter {
    #[hdl_gen]
    fn update(&mut self) {
        // Clock the flop, and hold its value unless something below says
        // otherwise: every path through the kernel then drives `d`.
        dff_setup!(self, clock, counter);
        self.count.next = self.counter.q.val();
        if self.enable.val() {
            // 4 bits wrap from 15 to 0 by themselves: no `%` (which the
            // kernel could not use anyway).
            self.counter.d.next = self.counter.q.val() + 1;
        }
        // Last, so that reset wins over enable.
        if self.rst.val() {
            self.counter.d.next = 0.into();
        }
    }
}

/// Cycles of the run: a reset, 18 counting cycles (past the wrap from 15
/// to 0), two cycles held, one more count.
const CYCLES: usize = 22;

/// (rst, enable) in `cycle`.
fn stimulus(cycle: usize) -> (bool, bool) {
    match cycle {
        0 => (true, false),
        19 | 20 => (false, false),
        _ => (false, true),
    }
}

fn main() {
    let mut sim = simple_sim!(Counter, clock, 100_000_000, ep, {
        let mut x = ep.init()?;
        // The testbench is ordinary Rust: `let`, `%`, vectors, printing.
        // Only the kernel (`update`) is restricted.
        let mut model = 0u64;
        println!("cycle  rst  enable  count");
        for cycle in 0..CYCLES {
            let (rst, enable) = stimulus(cycle);
            x.rst.next = rst;
            x.enable.next = enable;
            // `count` comes from the flop, so it does not depend on the
            // inputs just set: it is the value this whole cycle.
            println!(
                "{cycle:5}  {:3}  {:6}  {:5}",
                rst as u8,
                enable as u8,
                x.count.val().to_u64()
            );
            sim_assert_eq!(ep, x.count.val().to_u64(), model, x);
            // The rising edge at the end of the cycle: the flop takes `d`.
            wait_clock_cycle!(ep, clock, x);
            if rst {
                model = 0;
            } else if enable {
                model = (model + 1) % 16;
            }
        }
        ep.done(x)
    });
    sim.run(Box::new(Counter::default()), sim_time::ONE_MILLISECOND)
        .expect("the counter counts");
    println!("the counter counts, holds, wraps and resets as the model does");

    let mut uut = Counter::default();
    uut.connect_all();
    println!("{}", generate_verilog(&uut));
}

/// `cargo test` runs the example (hdl/Cargo.toml: `test = true`), so the
/// primer's code cannot rot.
#[cfg(test)]
mod tests {
    #[test]
    fn the_example_runs_and_its_checks_pass() {
        super::main();
    }
}
