//! The second design of the guide's chapter 0 (`docs/00-primer.md`): bytes
//! passed through two registered stages with a valid/ready handshake on
//! each side.
//!
//! ```sh
//! cargo run --release -p utf8hdl-hdl --example primer_passthrough
//! ```
//!
//! It sends "ABCDEFGH" while the sink stalls now and then, prints one line a
//! cycle, and checks the handshake rules in every cycle and, at the end,
//! that every byte arrived once and in order. Then it prints the Verilog.
//! A failed check stops the simulation with a `HALT` line and the program
//! panics.

use rust_hdl::prelude::*;

/// A byte stream, as the block that sends it sees it; joined to a
/// [`StreamIn`]. `data`, `valid` and `ready` play the parts of AXI4-Stream's
/// TDATA, TVALID and TREADY.
#[derive(LogicInterface, Default)]
#[join = "StreamIn"]
pub struct StreamOut {
    pub data: Signal<Out, Bits<8>>,
    pub valid: Signal<Out, Bit>,
    pub ready: Signal<In, Bit>,
}

/// The receiving end of a [`StreamOut`]: every direction reversed.
#[derive(LogicInterface, Default)]
#[join = "StreamOut"]
pub struct StreamIn {
    pub data: Signal<In, Bits<8>>,
    pub valid: Signal<In, Bit>,
    pub ready: Signal<Out, Bit>,
}

/// One register between two streams: `m.data` and `m.valid` come straight
/// from flops; `s.ready` is combinational.
#[derive(LogicBlock, Default)]
pub struct Stage {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub s: StreamIn,
    pub m: StreamOut,
    data: DFF<Bits<8>>,
    valid: DFF<Bit>,
}

impl Logic for Stage {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, data, valid);
        self.m.data.next = self.data.q.val();
        self.m.valid.next = self.valid.q.val();
        // The register may load when it is empty or its byte leaves at this
        // edge; otherwise it holds, and so does everything behind it.
        self.s.ready.next = !self.valid.q.val() | self.m.ready.val();
        if !self.valid.q.val() | self.m.ready.val() {
            self.valid.d.next = self.s.valid.val();
            self.data.d.next = self.s.data.val();
        }
        if self.rst.val() {
            self.valid.d.next = false;
        }
    }
}

/// Two stages in a row: a pipeline two bytes deep.
#[derive(LogicBlock, Default)]
pub struct Passthrough {
    pub clock: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub s_data: Signal<In, Bits<8>>,
    pub s_valid: Signal<In, Bit>,
    pub s_ready: Signal<Out, Bit>,
    pub m_data: Signal<Out, Bits<8>>,
    pub m_valid: Signal<Out, Bit>,
    pub m_ready: Signal<In, Bit>,
    first: Stage,
    second: Stage,
}

impl Logic for Passthrough {
    #[hdl_gen]
    fn update(&mut self) {
        self.first.clock.next = self.clock.val();
        self.second.clock.next = self.clock.val();
        self.first.rst.next = self.rst.val();
        self.second.rst.next = self.rst.val();
        self.first.s.data.next = self.s_data.val();
        self.first.s.valid.next = self.s_valid.val();
        self.s_ready.next = self.first.s.ready.val();
        // data, valid forward and ready back, in one line.
        StreamOut::join(&mut self.first.m, &mut self.second.s);
        self.m_data.next = self.second.m.data.val();
        self.m_valid.next = self.second.m.valid.val();
        self.second.m.ready.next = self.m_ready.val();
    }
}

const BYTES: &[u8] = b"ABCDEFGH";
const CYCLES: usize = 16;

/// `m_ready` in `cycle`: the sink stalls in cycles 3 to 5 and in cycle 8.
fn sink_ready(cycle: usize) -> bool {
    !matches!(cycle, 3..=5 | 8)
}

fn main() {
    let mut sim = Simulation::new();
    // 100 MHz: the clock toggles every 5 ns (5000 ps).
    sim.add_clock(5000, |x: &mut Box<Passthrough>| {
        x.clock.next = !x.clock.val()
    });
    sim.add_testbench(move |mut ep: Sim<Passthrough>| {
        let mut x = ep.init()?;
        x.rst.next = true;
        wait_clock_cycle!(ep, clock, x);
        x.rst.next = false;
        let mut sent = 0;
        let mut received = vec![];
        // Cycles in which the source offered a byte and was not ready.
        let mut stalls = 0;
        // The byte on m_data in a cycle where the sink did not take it: it
        // must be there, valid, in the next cycle too (the AXI4-Stream rule).
        let mut stalled: Option<u64> = None;
        println!("cycle  s_valid s_data s_ready  first  m_valid m_data m_ready");
        for cycle in 0..CYCLES {
            // A source may not wait for ready before it offers a byte, and
            // holds the byte until it is taken: offer BYTES[sent] until then.
            let offer = sent < BYTES.len();
            let byte = BYTES[sent.min(BYTES.len() - 1)] as u64;
            x.s_valid.next = offer;
            x.s_data.next = byte.into();
            x.m_ready.next = sink_ready(cycle);
            // s_ready depends on m_ready within the cycle: let the logic
            // settle (1 ns, the clock still low) before reading it.
            x = ep.wait(1000, x)?;
            let s_ready = x.s_ready.val();
            let m_valid = x.m_valid.val();
            let m_data = x.m_data.val().to_u64();
            let m_ready = sink_ready(cycle);
            // The testbench may read inside the design: the first register.
            let first = show(x.first.m.valid.val(), x.first.m.data.val().to_u64());
            println!(
                "{cycle:5}  {:7} {:>6} {:7}  {:>5}  {:7} {:>6} {:7}",
                offer as u8,
                show(offer, byte),
                s_ready as u8,
                first,
                m_valid as u8,
                show(m_valid, m_data),
                m_ready as u8,
            );
            if let Some(held) = stalled {
                sim_assert!(ep, m_valid && m_data == held, x);
            }
            stalled = if m_valid && !m_ready {
                Some(m_data)
            } else {
                None
            };
            if offer && !s_ready {
                stalls += 1;
            }
            // Both transfers happen at the rising edge that ends the cycle.
            if offer && s_ready {
                sent += 1;
            }
            if m_valid && m_ready {
                received.push(m_data as u8);
            }
            wait_clock_cycle!(ep, clock, x);
        }
        sim_assert_eq!(ep, received.as_slice(), BYTES, x);
        // The run is only a test of backpressure if the source was held.
        sim_assert!(ep, stalls > 0, x);
        ep.done(x)
    });
    sim.run(Box::new(Passthrough::default()), sim_time::ONE_MILLISECOND)
        .expect("every byte arrives once, in order");
    println!("every byte arrived once, in order, under backpressure");

    let mut uut = Passthrough::default();
    uut.connect_all();
    println!("{}", generate_verilog(&uut));
}

/// A byte as the table shows it: its ASCII character, or `-` where its
/// valid is low and the data means nothing.
fn show(valid: bool, byte: u64) -> String {
    if valid {
        (byte as u8 as char).to_string()
    } else {
        "-".into()
    }
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
