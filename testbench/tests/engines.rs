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
use utf8hdl_sim::core::{Beat, Core, Inputs};
use utf8hdl_sim::cores::utf8_decoder::{Decoder, WideDecoder};
use utf8hdl_sim::harness::{Engine, Harness, RustHdl};
use utf8hdl_synth::tools;
use utf8hdl_synth::verilator::TOOLS;
use utf8hdl_testbench::{random_message, traced_step, verilated};

/// Every cycle's inputs, outputs and probes on one engine: random messages
/// in beats of the core's lanes (a null lane now and then, with tkeep),
/// random gaps, backpressure and resets.
fn trace<E: Engine<Core: Core<Input = u8>>>(
    engine: E,
    seed: u64,
    cycles: usize,
) -> Vec<(Inputs<u8>, String)> {
    let mut harness = Harness::on(engine);
    harness.probe_window = 0..u64::MAX;
    let lanes = harness.lanes();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut bytes = Vec::new();
    let mut pending = None;
    let mut trace = Vec::with_capacity(cycles);
    for _ in 0..cycles {
        if bytes.is_empty() {
            bytes = random_message(&mut rng, 12);
        }
        if pending.is_none() && rng.gen_bool(0.8) {
            let beat: Vec<Option<u8>> = (0..lanes.count)
                .map(|_| match lanes.tkeep && rng.gen_ratio(1, 5) {
                    true => None,
                    false => (!bytes.is_empty()).then(|| bytes.remove(0)),
                })
                .collect();
            pending = Some(Beat::new(&beat, bytes.is_empty()));
        }
        let inputs = Inputs {
            rst: rng.gen_ratio(1, 500),
            s_axis: pending,
            m_axis_tready: rng.gen_bool(0.7),
        };
        let (cycle, line) = traced_step(&mut harness, &inputs);
        if cycle.accepted || inputs.rst {
            pending = None;
        }
        trace.push((inputs, line));
    }
    trace
}

#[test]
#[ignore = "slow: Verilator models of the 1-lane decoder against rust-hdl's engine"]
fn engines_agree_cycle_for_cycle() {
    if !tools::require_all(&TOOLS) {
        return;
    }
    for profile in Profile::ALL {
        let seed = 0xE1 + profile as u64;
        let expected = trace(RustHdl::new(Decoder(profile)).unwrap(), seed, 20_000);
        let got = trace(verilated(Decoder(profile)), seed, 20_000);
        for (cycle, (e, g)) in expected.iter().zip(&got).enumerate() {
            assert_eq!(e, g, "{profile}, seed {seed:#x}, cycle {cycle}");
        }
    }
}

#[test]
#[ignore = "slow: Verilator models of the 1-lane decoder against rust-hdl's engine"]
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
            Harness::on(verilated(Decoder(profile))),
            input(),
            &stimulus,
            |_| Ok::<(), Infallible>(()),
            &mut |_, _| {},
        );
        assert!(a.agree() && b.agree(), "{:?} {:?}", a.mismatch, b.mismatch);
        assert_eq!(
            (
                a.inputs,
                a.units,
                a.cycles,
                a.simulated_cycles,
                a.errors_by_code
            ),
            (
                b.inputs,
                b.units,
                b.cycles,
                b.simulated_cycles,
                b.errors_by_code
            ),
            "{profile}"
        );
    }
}

/// The same for a wide core, whose probes are its own state: 4 lanes of
/// rfc3629 and 16 of iso10646 (128- and 512-bit ports), on fewer cycles
/// (rust-hdl simulates a wide core slowly).
#[test]
#[ignore = "slow: Verilator models of the 4- and 16-lane decoders against rust-hdl's engine"]
fn engines_agree_on_wide_cores() {
    if !tools::require_all(&TOOLS) {
        return;
    }
    fn agree<C: Core<Input = u8> + Copy>(core: C, cycles: usize) {
        let expected = trace(RustHdl::new(core).unwrap(), 0xE4, cycles);
        let got = trace(verilated(core), 0xE4, cycles);
        for (cycle, (e, g)) in expected.iter().zip(&got).enumerate() {
            assert_eq!(e, g, "{}, cycle {cycle}", core.name());
        }
    }
    agree(WideDecoder::<4>(Profile::Rfc3629), 3_000);
    agree(WideDecoder::<16>(Profile::Iso10646), 600);
}
