//! The two engines agree: rust-hdl's simulation of the design and the
//! Verilator model of its exported Verilog, driven through the same harness
//! with the same seeded stimulus, give the same outputs and the same probe
//! values (everything a waveform shows) on every cycle, and the checker
//! gives the same summary.

use std::convert::Infallible;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use utf8hdl_hdl::Profile;
use utf8hdl_sim::checker::{run_checked, Stalls, Stimulus};
use utf8hdl_sim::core::{to_hex, ByteBeat, Decoder, Inputs, Values};
use utf8hdl_sim::harness::{Engine, Harness, RustHdl};
use utf8hdl_synth::tools;
use utf8hdl_synth::verilator::{Verilated, TOOLS};
use utf8hdl_testbench::random_message;

fn verilated(profile: Profile) -> Verilated<Decoder> {
    let verilog = utf8hdl_synth::verilog(profile);
    Verilated::new(Decoder(profile), &verilog, &|m| eprintln!("{m}")).unwrap()
}

/// Every cycle's inputs, outputs and probes on one engine.
fn trace<E: Engine>(engine: E, seed: u64, cycles: usize) -> Vec<(Inputs, String)> {
    let mut harness = Harness::on(engine);
    harness.probe_window = 0..u64::MAX;
    let mut rng = StdRng::seed_from_u64(seed);
    let mut bytes = Vec::new();
    let mut pending = None;
    let mut trace = Vec::with_capacity(cycles);
    for _ in 0..cycles {
        if bytes.is_empty() {
            bytes = random_message(&mut rng, 12);
        }
        if pending.is_none() && rng.gen_bool(0.8) {
            let tdata = bytes.remove(0);
            pending = Some(ByteBeat::byte(tdata, bytes.is_empty()));
        }
        let inputs = Inputs {
            rst: rng.gen_ratio(1, 500),
            s_axis: pending,
            m_axis_tready: rng.gen_bool(0.7),
        };
        let mut seen = String::new();
        let cycle = harness.step(&inputs, &mut |_, values: Option<&Values>| {
            let values = values.expect("every cycle is probed");
            seen = (0..values.len())
                .map(|i| to_hex(values.get(i)))
                .collect::<Vec<_>>()
                .join(" ");
        });
        if cycle.accepted || inputs.rst {
            pending = None;
        }
        trace.push((inputs, format!("{cycle:?} {seen}")));
    }
    trace
}

#[test]
fn engines_agree_cycle_for_cycle() {
    if !tools::require_all(&TOOLS) {
        return;
    }
    for profile in Profile::ALL {
        let seed = 0xE1 + profile as u64;
        let expected = trace(RustHdl::new(Decoder(profile)).unwrap(), seed, 20_000);
        let got = trace(verilated(profile), seed, 20_000);
        for (cycle, (e, g)) in expected.iter().zip(&got).enumerate() {
            assert_eq!(e, g, "{profile}, seed {seed:#x}, cycle {cycle}");
        }
    }
}

#[test]
fn engines_give_the_same_summary() {
    if !tools::require_all(&TOOLS) {
        return;
    }
    let mut rng = StdRng::seed_from_u64(5);
    let bytes: Vec<u8> = (0..200)
        .flat_map(|_| random_message(&mut rng, 16))
        .collect();
    for profile in Profile::ALL {
        let stimulus = Stimulus::stalls(Stalls::Random(0.3), Stalls::Bursty, 11);
        let input = || bytes.iter().copied();
        let Ok(a) = run_checked(
            Harness::new(Decoder(profile)),
            input(),
            &stimulus,
            |_| Ok::<(), Infallible>(()),
            &mut |_, _| {},
        );
        let Ok(b) = run_checked(
            Harness::on(verilated(profile)),
            input(),
            &stimulus,
            |_| Ok::<(), Infallible>(()),
            &mut |_, _| {},
        );
        assert!(a.agree() && b.agree(), "{:?} {:?}", a.mismatch, b.mismatch);
        assert_eq!(
            (
                a.bytes,
                a.words,
                a.cycles,
                a.simulated_cycles,
                a.errors_by_code
            ),
            (
                b.bytes,
                b.words,
                b.cycles,
                b.simulated_cycles,
                b.errors_by_code
            ),
            "{profile}"
        );
    }
}
