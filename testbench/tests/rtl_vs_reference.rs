//! The RTL against the reference decoder: exhaustively for short messages,
//! and on random messages under every backpressure pattern, with the
//! AXI4-Stream rules checked on every cycle.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use utf8hdl_hdl::Profile;
use utf8hdl_sim::checker::Stalls;
use utf8hdl_sim::cores::utf8_decoder::Decoder;
use utf8hdl_sim::harness::Harness;
use utf8hdl_synth::{tools, verilator};
use utf8hdl_testbench::{all_messages, random_message, Bench};

/// Every 1-byte and 2-byte message, back to back, in both profiles, on
/// rust-hdl's engine: the design as written.
#[test]
fn every_message_of_one_and_two_bytes() {
    for profile in Profile::ALL {
        for len in 1..=2 {
            let words = all_messages(Harness::new(Decoder(profile)), len)
                .unwrap_or_else(|e| panic!("{profile}, {len} bytes: {e}"));
            assert!(
                words >= 1 << (8 * len),
                "every message yields at least one word"
            );
        }
    }
}

/// Every 3-byte message (16,777,216 of them) in both profiles: some 10⁸
/// cycles, so on the Verilator engine when its tools are there (the
/// engines are shown to agree cycle for cycle in `engines.rs`), and on
/// rust-hdl's, some minutes, when they are not.
#[test]
#[ignore = "slow: every 3-byte message, some 10^8 cycles, on a Verilator model"]
fn every_message_of_three_bytes() {
    for profile in Profile::ALL {
        let result = if tools::require_all(&verilator::TOOLS) {
            let verilog = utf8hdl_synth::verilog(profile);
            let model =
                verilator::Verilated::new(Decoder(profile), &verilog, &|m| eprintln!("{m}"))
                    .expect("the Verilator model builds");
            all_messages(Harness::on(model), 3)
        } else {
            eprintln!("running on rust-hdl's engine instead: some minutes");
            all_messages(Harness::new(Decoder(profile)), 3)
        };
        result.unwrap_or_else(|e| panic!("{profile}, 3 bytes: {e}"));
    }
}

/// Random messages with random lengths (so random tlast), under each pair
/// of backpressure patterns. The seed is in the failure message.
#[test]
fn random_messages_under_backpressure() {
    for profile in Profile::ALL {
        for (s, source) in Stalls::ALL.into_iter().enumerate() {
            for (k, sink) in Stalls::ALL.into_iter().enumerate() {
                let seed = 0x5EED ^ (s as u64) << 8 ^ (k as u64) << 16 ^ (profile as u64) << 24;
                let mut rng = StdRng::seed_from_u64(seed);
                let mut bench = Bench::new(profile, source, sink, seed);
                let result = (0..300)
                    .try_for_each(|_| bench.message(&random_message(&mut rng, 24)))
                    .and_then(|_| bench.drain());
                if let Err(e) = result {
                    panic!("{profile}, source {source:?}, sink {sink:?}, seed {seed:#x}: {e}");
                }
            }
        }
    }
}

/// Long random runs with a fresh seed each time the test runs with
/// UTF8HDL_SEED set, so a failure can be replayed.
#[test]
fn random_bytes_long_run() {
    let seed = std::env::var("UTF8HDL_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(42u64);
    let mut rng = StdRng::seed_from_u64(seed);
    for profile in Profile::ALL {
        let mut bench = Bench::new(profile, Stalls::Random(0.5), Stalls::Bursty, seed);
        for _ in 0..2000 {
            let len = rng.gen_range(1..=64);
            let message: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
            bench
                .message(&message)
                .unwrap_or_else(|e| panic!("{profile}, seed {seed}: {e}"));
        }
        bench
            .drain()
            .unwrap_or_else(|e| panic!("{profile}, seed {seed}: {e}"));
    }
}
