//! The one checker catches what it claims to: a design that breaks an
//! AXI4-Stream rule is reported, by the same `run_checked` that `utf8hdl
//! sim` runs (which exits 1 on any report). Each violation is planted by a
//! wrapper around the real decoder, described as a core of its own.

use std::convert::Infallible;

use rust_hdl::prelude::*;
use utf8hdl_hdl::{Profile, Utf8Decoder};
use utf8hdl_sim::checker::{run_checked, Failure, Stalls, Stimulus, SummaryOf};
use utf8hdl_sim::core::Core;
use utf8hdl_sim::cores::utf8_decoder::{Decoder, Reference, Word};
use utf8hdl_sim::harness::Harness;
use utf8hdl_sim::report::summary_lines;

/// How the wrapper breaks the output.
#[derive(Copy, Clone, Debug, PartialEq, Eq, LogicState)]
pub enum Fault {
    /// `m_axis_tvalid` falls while `m_axis_tready` is low.
    DropsTvalid,
    /// `m_axis_tdata` changes while `m_axis_tready` is low.
    ChangesTdata,
    /// The design never moves: `s_axis_tready` and `m_axis_tvalid` low.
    Stops,
}

utf8hdl_hdl::axis_core! {
    /// The decoder with a planted fault on `m_axis` (combinational from
    /// `m_axis_tready`, which is exactly the kind of mistake a stall exposes),
    /// or with both streams stopped.
    #[derive(LogicBlock)]
    pub struct Faulty<s_axis_tdata: 8, m_axis_tdata: 32, m_axis_tuser: 4> {
        fault: Constant<Fault>,
        inner: Utf8Decoder,
    }
}

impl Logic for Faulty {
    #[hdl_gen]
    fn update(&mut self) {
        self.inner.clk.next = self.clk.val();
        self.inner.rst.next = self.rst.val();
        self.inner.s_axis_tdata.next = self.s_axis_tdata.val();
        self.inner.s_axis_tvalid.next = self.s_axis_tvalid.val();
        self.inner.s_axis_tlast.next = self.s_axis_tlast.val();
        self.inner.m_axis_tready.next = self.m_axis_tready.val();
        self.s_axis_tready.next = self.inner.s_axis_tready.val();
        self.m_axis_tuser.next = self.inner.m_axis_tuser.val();
        self.m_axis_tlast.next = self.inner.m_axis_tlast.val();
        self.m_axis_tvalid.next = self.inner.m_axis_tvalid.val();
        self.m_axis_tdata.next = self.inner.m_axis_tdata.val();
        match self.fault.val() {
            Fault::DropsTvalid => {
                if !self.m_axis_tready.val() {
                    self.m_axis_tvalid.next = false;
                }
            }
            Fault::ChangesTdata => {
                if !self.m_axis_tready.val() {
                    self.m_axis_tdata.next = !self.inner.m_axis_tdata.val();
                }
            }
            Fault::Stops => {
                self.s_axis_tready.next = false;
                self.m_axis_tvalid.next = false;
            }
        }
    }
}

/// The faulty decoder as a core: the real decoder's description, with
/// another block.
#[derive(Copy, Clone)]
struct FaultyCore(Fault);

impl Core for FaultyCore {
    const KIND: utf8hdl_sim::cores::Kind = utf8hdl_sim::cores::Kind::Decoder;
    type Block = Faulty;
    type Input = u8;
    type Output = Word;
    type Model = Reference;
    const STATE: &'static [&'static str] = &[];
    const LATENCY: u64 = Decoder::LATENCY;
    const ERROR_KINDS: &'static [utf8hdl_sim::reference::ErrorKind] = Decoder::ERROR_KINDS;

    fn name(&self) -> String {
        "faulty_utf8_decoder".into()
    }
    fn profile(&self) -> Profile {
        Profile::Rfc3629
    }
    fn model(&self) -> Reference {
        Reference(Profile::Rfc3629)
    }
    fn block(&self) -> Faulty {
        utf8hdl_hdl::with_axis_ports!(Faulty {
            fault: Constant::new(self.0),
            inner: Decoder(Profile::Rfc3629).block(),
        })
    }
    utf8hdl_sim::axis_io!(Faulty; m_tuser);
}

fn run(fault: Fault, sink: Stalls) -> SummaryOf<FaultyCore> {
    let stimulus = Stimulus::stalls(Stalls::Never, sink, 7);
    let text = "naïve café, ☺, 𝄞 and \u{7FF}".bytes();
    let Ok(summary) = run_checked(
        Harness::new(FaultyCore(fault)),
        text,
        &stimulus,
        |_| Ok::<(), Infallible>(()),
        &mut |_, _| {},
    );
    summary
}

#[test]
fn with_a_ready_sink_the_wrappers_are_transparent() {
    for fault in [Fault::DropsTvalid, Fault::ChangesTdata] {
        let summary = run(fault, Stalls::Never);
        assert!(summary.agree(), "{fault:?}: {:?}", summary.mismatch);
        assert!(summary.units > 10);
    }
}

#[test]
fn a_stall_that_drops_tvalid_is_reported() {
    let summary = run(Fault::DropsTvalid, Stalls::Random(0.5));
    let mismatch = summary.mismatch.clone().expect("the violation is reported");
    let Failure::Protocol(rule) = &mismatch.failure else {
        panic!("not reported as a protocol violation: {mismatch}");
    };
    assert!(rule.starts_with("a stalled word did not hold"), "{rule}");
    assert!(rule.ends_with("became no word"), "{rule}");
    // What `utf8hdl sim` prints before it exits 1.
    let lines = summary_lines(&summary).join("\n");
    assert!(lines.contains("broke a rule"), "{lines}");
}

/// The faulty word changes in the cycle after `m_axis_tready` falls, so
/// the rule needs a word shown on the cycle the sink stalls after a ready
/// one. A sink that is mostly ready stalls first while a word it would
/// have taken is shown (a sink mostly stalled shows words already
/// changed, which leave as wrong words instead).
#[test]
fn a_stall_that_changes_tdata_is_reported() {
    let summary = run(Fault::ChangesTdata, Stalls::Random(0.1));
    let mismatch = summary.mismatch.expect("the violation is reported");
    let Failure::Protocol(rule) = &mismatch.failure else {
        panic!("not reported as a protocol violation: {mismatch}");
    };
    assert!(rule.starts_with("a stalled word did not hold"), "{rule}");
}

/// A design that has stopped is reported, whatever the sink does. With a
/// sink that is ready one cycle in eight, the rate rule (`s_axis_tready`
/// high after `m_axis_tready` has been for the latency) can never fire, so
/// only the stuck count can report it: stall cycles between the cycles
/// where the design could move must not reset that count (they once did,
/// and `utf8hdl sim --lanes 32 --stall-out 0.5` ran for ever on a core
/// whose queue had stopped). Each run has a deadline, so that a checker
/// that never reports fails this test instead of hanging it.
#[test]
fn a_design_that_stops_is_reported_under_any_sink() {
    for sink in [
        Stalls::Never,
        Stalls::Random(0.5),
        Stalls::Bursty,
        Stalls::OneInEight,
    ] {
        let (done, summary) = std::sync::mpsc::channel();
        std::thread::spawn(move || done.send(run(Fault::Stops, sink).mismatch));
        let mismatch = summary
            .recv_timeout(std::time::Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("{sink:?}: no report within 60 s"))
            .expect("the stopped design is reported");
        let Failure::Protocol(rule) = &mismatch.failure else {
            panic!("{sink:?}: not reported as a protocol violation: {mismatch}");
        };
        if sink == Stalls::OneInEight {
            assert_eq!(rule, "the design stopped taking input", "{sink:?}");
        }
    }
}
