//! The RTL against the reference decoder: exhaustively for short messages,
//! and on random messages under every backpressure pattern, with the
//! AXI4-Stream rules checked on every cycle.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use utf8hdl_hdl::Profile;
use utf8hdl_sim::checker::Stalls;
use utf8hdl_testbench::{all_messages, random_message, Bench};

/// Every 1-byte and 2-byte message, back to back, in both profiles.
#[test]
fn every_message_of_one_and_two_bytes() {
    for profile in Profile::ALL {
        for len in 1..=2 {
            let words = all_messages(profile, len)
                .unwrap_or_else(|e| panic!("{profile}, {len} bytes: {e}"));
            assert!(
                words >= 1 << (8 * len),
                "every message yields at least one word"
            );
        }
    }
}

/// Every 3-byte message (16,777,216 of them) in both profiles.
#[test]
fn every_message_of_three_bytes() {
    for profile in Profile::ALL {
        all_messages(profile, 3).unwrap_or_else(|e| panic!("{profile}, 3 bytes: {e}"));
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
