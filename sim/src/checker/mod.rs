//! The one checker of a core ([`Checker`]): the AXI4-Stream rules and the
//! datasheet's invariants on every cycle ([`Protocol`]), every word of
//! every beat against the core's reference model as it leaves ([`Model`]),
//! message by message, and the one stall generator ([`Stalls`]).
//! `utf8hdl sim` runs it through [`run_checked`], which makes the beats
//! (null lanes and message ends at random, when asked); the tests'
//! multi-message driver uses the same pieces.

use std::collections::VecDeque;

use crate::core::{Beat, Core, Inputs, Lane, Model, Next, Unit, MAX_UNIT_OUTPUTS};
use crate::harness::Cycle;

mod protocol;
mod run;
mod summary;

pub use protocol::*;
pub use run::*;
pub use summary::*;

/// One message as far as the design has accepted it: its inputs not yet
/// delivered as units.
struct Message<I> {
    inputs: VecDeque<I>,
    /// The stream offset of `inputs[0]`.
    offset: usize,
    /// Its `tlast` beat was accepted.
    closed: bool,
}

/// The model's side of a run: the messages the design has accepted and not
/// yet delivered, as far as their inputs decide them.
struct Expectation<M: Model> {
    model: M,
    messages: VecDeque<Message<M::Input>>,
    /// The stream offset of the next input accepted.
    offset: usize,
}

impl<M: Model> Expectation<M> {
    /// Takes an accepted beat's items into its message.
    fn accept(&mut self, beat: &Beat<M::Input>) {
        if self.messages.back().is_none_or(|m| m.closed) {
            self.messages.push_back(Message {
                inputs: VecDeque::new(),
                offset: self.offset,
                closed: false,
            });
        }
        let message = self.messages.back_mut().expect("a message is open");
        let before = message.inputs.len();
        message.inputs.extend(beat.items());
        self.offset += message.inputs.len() - before;
        message.closed = beat.tlast;
    }

    /// The next unit of the oldest message, its span in stream offsets.
    fn next(&mut self) -> Next<M::Unit> {
        let Some(message) = self.messages.front_mut() else {
            return Next::Undecided;
        };
        let next = self.model.first(&message.inputs, message.closed);
        if let Next::Unit(unit) = &next {
            message.inputs.drain(..unit.span().end);
        }
        next.map_unit(|mut unit| {
            unit.shift(message.offset);
            message.offset = unit.span().end;
            unit
        })
    }

    /// Every accepted message has been delivered, `tlast` included.
    fn is_empty(&self) -> bool {
        self.messages.is_empty()
    }
}

/// A unit being delivered: its outputs, the first `next` of them seen on
/// `m_axis` (in place: this runs on every unit).
struct Delivering<U: Unit> {
    unit: U,
    outputs: [U::Output; MAX_UNIT_OUTPUTS],
    count: usize,
    next: usize,
}

impl<U: Unit> Delivering<U> {
    fn of(unit: U) -> Self {
        let mut outputs = [U::Output::default(); MAX_UNIT_OUTPUTS];
        let mut count = 0;
        for (slot, output) in outputs.iter_mut().zip(unit.outputs()) {
            *slot = output;
            count += 1;
        }
        Delivering {
            unit,
            outputs,
            count,
            next: 0,
        }
    }
}

/// The one checker: [`Protocol`] on every cycle, and every delivered beat
/// against the core's model, message by message. The items of a beat, lane
/// 0 first, must be the outputs of the oldest message's units in order (a
/// unit's outputs may span beats); `tlast` must come once a message, on the
/// beat that carries its last output or on a null beat after it (the only
/// beat of a message with no units).
pub struct Checker<M: Model> {
    protocol: Protocol<M::Output>,
    expectation: Expectation<M>,
    delivering: Option<Delivering<M::Unit>>,
    pub summary: Summary<M::Unit>,
}

impl<M: Model> Checker<M> {
    /// For `core`, just reset.
    pub fn new<C: Core<Model = M>>(core: &C) -> Self {
        Checker {
            protocol: Protocol::new(C::LATENCY, C::RATE),
            expectation: Expectation {
                model: core.model(),
                messages: VecDeque::new(),
                offset: 0,
            },
            delivering: None,
            summary: Summary::of::<C>(),
        }
    }

    /// Checks cycle number `number`, which had `inputs` and did `cycle`.
    /// `on_unit` sees each unit delivered and checked, its span in stream
    /// offsets; an error from it is returned as it is.
    pub fn check<Stop>(
        &mut self,
        number: u64,
        inputs: &Inputs<M::Input>,
        cycle: &Cycle<M::Output>,
        on_unit: &mut impl FnMut(&M::Unit) -> Result<(), Stop>,
    ) -> Result<Result<(), Failure<M::Unit>>, Stop> {
        if let Err(rule) = self.protocol.check(inputs, cycle) {
            return Ok(Err(Failure::Protocol(rule)));
        }
        // What leaves in a cycle is decided before the cycle's input.
        if let Some(beat) = cycle.delivered() {
            if let Err(failure) = self.delivered(beat, on_unit)? {
                return Ok(Err(failure));
            }
            self.summary.cycles = number + 1;
        }
        if let (true, Some(beat)) = (cycle.accepted, &inputs.s_axis) {
            self.expectation.accept(beat);
            self.summary.inputs += beat.items().count() as u64;
        }
        Ok(Ok(()))
    }

    fn delivered<Stop>(
        &mut self,
        beat: &Beat<M::Output>,
        on_unit: &mut impl FnMut(&M::Unit) -> Result<(), Stop>,
    ) -> Result<Result<(), Failure<M::Unit>>, Stop> {
        for item in beat.items() {
            if self.delivering.is_none() {
                self.delivering = Some(match self.expectation.next() {
                    Next::Unit(unit) => Delivering::of(unit),
                    Next::EndOfMessage => {
                        return Ok(Err(Failure::Word {
                            expected: None,
                            actual: Some(item),
                        }))
                    }
                    Next::Undecided => {
                        return Ok(Err(Failure::Protocol(format!(
                            "{item} left before the {}s that decide it were accepted",
                            <M::Input as Lane>::NAME
                        ))))
                    }
                });
            }
            let delivering = self.delivering.as_mut().expect("a unit is being delivered");
            if delivering.outputs[delivering.next] != item {
                return Ok(Err(Failure::Word {
                    expected: Some(delivering.unit.clone()),
                    actual: Some(item),
                }));
            }
            delivering.next += 1;
            if delivering.next < delivering.count {
                continue;
            }
            let unit = self
                .delivering
                .take()
                .expect("a unit is being delivered")
                .unit;
            self.summary.units += 1;
            if let Some(kind) = unit.error() {
                self.summary.errors_by_code[kind.code() as usize] += 1;
            }
            on_unit(&unit)?;
        }
        if beat.tlast {
            if let Some(Delivering { unit, .. }) = &self.delivering {
                return Ok(Err(Failure::Tlast(format!(
                    "m_axis_tlast inside a unit: {} at {} offset {} is not all out",
                    unit.describe(),
                    <M::Input as Lane>::NAME,
                    unit.span().start
                ))));
            }
            match self.expectation.next() {
                Next::EndOfMessage => {
                    self.expectation.messages.pop_front();
                }
                Next::Unit(unit) => {
                    return Ok(Err(Failure::Tlast(format!(
                        "m_axis_tlast before the message's last unit: {} at {} offset {} is still to come",
                        unit.describe(),
                        <M::Input as Lane>::NAME,
                        unit.span().start
                    ))))
                }
                Next::Undecided => {
                    return Ok(Err(Failure::Tlast(format!(
                        "m_axis_tlast before the message's last {} was accepted",
                        <M::Input as Lane>::NAME
                    ))))
                }
            }
        }
        Ok(Ok(()))
    }

    /// Every message accepted has been delivered, `tlast` included.
    pub fn is_idle(&self) -> bool {
        self.expectation.is_empty()
    }

    /// What the design owes, when it stopped moving.
    pub fn owed(&mut self) -> Failure<M::Unit> {
        if let Some(Delivering { unit, .. }) = self.delivering.take() {
            return Failure::Word {
                expected: Some(unit),
                actual: None,
            };
        }
        match self.expectation.next() {
            Next::Unit(unit) => Failure::Word {
                expected: Some(unit),
                actual: None,
            },
            Next::EndOfMessage => Failure::Tlast("the message's m_axis_tlast never came".into()),
            Next::Undecided => Failure::Protocol("the design stopped taking input".into()),
        }
    }
}

/// The units of core `C`'s model.
pub type UnitOf<C> = <<C as Core>::Model as Model>::Unit;
/// The [`Summary`] of a run of core `C`.
pub type SummaryOf<C> = Summary<UnitOf<C>>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Outputs;
    use crate::cores::utf8_decoder::{Decoder, Reference, Word};
    use crate::harness::Harness;
    use crate::reference::{decode, Unit};
    use proptest::prelude::*;
    use utf8hdl_hdl::{Profile, Utf8Decoder};

    /// The iso10646 design, described as if it were rfc3629's: a core
    /// whose reference disagrees with its block.
    #[derive(Copy, Clone)]
    struct Mislabelled;

    impl Core for Mislabelled {
        const KIND: crate::cores::Kind = crate::cores::Kind::Decoder;
        type Block = Utf8Decoder;
        type Input = u8;
        type Output = Word;
        type Model = Reference;
        const STATE: &'static [&'static str] = &[];
        const LATENCY: u64 = Decoder::LATENCY;
        const ERROR_KINDS: &'static [crate::reference::ErrorKind] = Decoder::ERROR_KINDS;
        fn name(&self) -> String {
            "mislabelled".into()
        }
        fn profile(&self) -> Profile {
            Profile::Rfc3629
        }
        fn model(&self) -> Reference {
            Reference(Profile::Rfc3629)
        }
        fn block(&self) -> Utf8Decoder {
            Decoder(Profile::Iso10646).block()
        }
        crate::axis_io!(Utf8Decoder; m_tuser);
    }

    /// It differs at F8 88 80 80 80 (one character against five U+FFFD).
    /// The summary describes the cycles run up to the difference: all 7
    /// bytes were taken (the design holds the whole five-byte sequence
    /// before its word leaves), and no more than one byte per cycle.
    #[test]
    fn a_mismatch_summary_counts_the_cycles_run() {
        let stimulus = Stimulus::stalls(Stalls::Never, Stalls::Never, 1);
        let bytes = b"AB\xF8\x88\x80\x80\x80";
        let summary = run_checked(
            Harness::new(Mislabelled),
            bytes.iter().copied(),
            &stimulus,
            |_| Ok::<(), ()>(()),
            &mut |_, _| {},
        )
        .unwrap();
        let mismatch = summary.mismatch.clone().expect("the profiles differ");
        let Failure::Word { expected, actual } = &mismatch.failure else {
            panic!("{mismatch}");
        };
        assert_eq!(actual.map(|w| w.tdata), Some(0x20_0000));
        assert_eq!(
            expected.as_ref().map(|u| (u.value, u.span.clone())),
            Some((0xFFFD, 2..3))
        );
        assert_eq!((summary.inputs, summary.units), (7, 2));
        assert_eq!(summary.cycles, mismatch.cycle + 1);
        assert!(summary.inputs_per_cycle() <= 1.0, "{summary:?}");
        let lines = crate::report::summary_lines(&summary);
        assert!(
            lines[1].starts_with(&format!("cycles {}, ", mismatch.cycle + 1)),
            "{lines:?}"
        );
    }

    proptest! {
        /// Units decided from the bytes accepted so far are the units of
        /// the whole message: whatever comes later, a unit the checker
        /// takes as final is the reference's (so a design is never held to
        /// a unit that more bytes would change).
        #[test]
        fn units_decided_early_are_the_whole_message_units(
            bytes in proptest::collection::vec(
                prop_oneof![0x00u8..=0x7F, 0x80u8..=0xBF, 0xC0u8..=0xFF], 0..40),
            profile in prop_oneof![Just(Profile::Rfc3629), Just(Profile::Iso10646)],
        ) {
            let mut expectation = Expectation {
                model: Reference(profile),
                messages: VecDeque::new(),
                offset: 0,
            };
            let mut units = Vec::new();
            for (i, &byte) in bytes.iter().enumerate() {
                let last = i + 1 == bytes.len();
                expectation.accept(&Beat::one(byte, last));
                while let Next::Unit(unit) = expectation.next() {
                    units.push(unit);
                }
            }
            if !bytes.is_empty() {
                prop_assert!(matches!(expectation.next(), Next::EndOfMessage));
            }
            prop_assert_eq!(units, decode(&bytes, profile));
        }
    }

    /// A checker of the 4-lane shape that has accepted `messages`, each in
    /// one beat; the design's side is played by hand.
    fn accepted(messages: &[&[u8]]) -> (Checker<Reference>, u64) {
        let mut checker = Checker::new(&Decoder(Profile::Rfc3629));
        let mut number = 0;
        for message in messages {
            let lanes: Vec<Option<u8>> = message.iter().map(|&b| Some(b)).collect();
            accept(&mut checker, number, Beat::new(&lanes, true));
            number += 1;
        }
        (checker, number)
    }

    /// The checker sees `beat` accepted in cycle `number`, and nothing
    /// delivered; it finds nothing wrong.
    fn accept(checker: &mut Checker<Reference>, number: u64, beat: Beat<u8>) {
        let inputs = Inputs {
            rst: false,
            s_axis: Some(beat),
            m_axis_tready: true,
        };
        let cycle = Cycle {
            outputs: Outputs {
                s_axis_tready: true,
                m_axis: None,
            },
            accepted: true,
            taken: false,
        };
        let checked = checker.check(number, &inputs, &cycle, &mut |_| Ok::<(), ()>(()));
        assert_eq!(checked, Ok(Ok(())));
    }

    /// The words of `values` (characters), in one beat.
    fn beat(values: &[u32], tlast: bool) -> Beat<Word> {
        let words: Vec<Option<Word>> = values
            .iter()
            .map(|&tdata| Some(Word { tdata, tuser: 0 }))
            .collect();
        Beat::new(&words, tlast)
    }

    /// Delivers `beats` one a cycle to `checker`; the first failure.
    fn deliver(
        checker: &mut Checker<Reference>,
        mut number: u64,
        beats: &[Beat<Word>],
    ) -> Result<(), Failure<Unit>> {
        for beat in beats {
            let inputs = Inputs::<u8> {
                rst: false,
                s_axis: None,
                m_axis_tready: true,
            };
            let cycle = Cycle {
                outputs: Outputs {
                    s_axis_tready: true,
                    m_axis: Some(*beat),
                },
                accepted: false,
                taken: true,
            };
            checker
                .check(number, &inputs, &cycle, &mut |_| Ok::<(), ()>(()))
                .unwrap()?;
            number += 1;
        }
        Ok(())
    }

    #[test]
    fn tlast_may_come_with_the_last_unit_or_on_a_null_beat_after_it() {
        let (mut checker, n) = accepted(&[b"AB", b"C", b""]);
        let beats = [beat(&[0x41], false), beat(&[0x42], false), beat(&[], true)];
        assert_eq!(deliver(&mut checker, n, &beats), Ok(()));
        assert_eq!(deliver(&mut checker, n + 3, &[beat(&[0x43], true)]), Ok(()));
        assert!(!checker.is_idle(), "the empty message is still owed");
        assert_eq!(deliver(&mut checker, n + 4, &[beat(&[], true)]), Ok(()));
        assert!(checker.is_idle());
        assert_eq!((checker.summary.inputs, checker.summary.units), (3, 3));
    }

    #[test]
    fn a_misplaced_or_missing_tlast_is_caught() {
        let (mut checker, n) = accepted(&[b"AB", b"C"]);
        let early = deliver(&mut checker, n, &[beat(&[0x41], true)]);
        assert!(
            matches!(early, Err(Failure::Tlast(ref m)) if m.contains("U+0042")),
            "{early:?}"
        );

        let (mut checker, n) = accepted(&[b"AB", b"C"]);
        let late = deliver(
            &mut checker,
            n,
            &[beat(&[0x41, 0x42], false), beat(&[0x43], true)],
        );
        assert_eq!(
            late,
            Err(Failure::Word {
                expected: None,
                actual: Some(Word {
                    tdata: 0x43,
                    tuser: 0
                })
            })
        );

        let (mut checker, n) = accepted(&[b""]);
        let words_of_nothing = deliver(&mut checker, n, &[beat(&[0x41], true)]);
        assert!(matches!(
            words_of_nothing,
            Err(Failure::Word { expected: None, .. })
        ));
    }

    #[test]
    fn holes_in_m_axis_tkeep_and_null_beats_without_tlast_are_caught() {
        let (mut checker, n) = accepted(&[b"AB"]);
        let mut holed = beat(&[0x41, 0, 0x42], true);
        holed.tkeep = 0b101;
        let failure = deliver(&mut checker, n, &[holed]);
        assert_eq!(
            failure,
            Err(Failure::Protocol("m_axis_tkeep 101 is not packed".into()))
        );

        let (mut checker, n) = accepted(&[b"AB"]);
        let failure = deliver(
            &mut checker,
            n,
            &[beat(&[0x41, 0x42], false), beat(&[], false)],
        );
        assert!(matches!(failure, Err(Failure::Protocol(ref m)) if m.contains("null beat")));
    }

    #[test]
    fn a_word_before_the_bytes_that_decide_it_is_caught() {
        let mut checker = Checker::new(&Decoder(Profile::Rfc3629));
        accept(&mut checker, 0, Beat::one(0xE2, false));
        let truncated = Word::of_unit(&decode(b"\xE2", Profile::Rfc3629)[0]);
        let early = Beat::one(truncated, false);
        let failure = deliver(&mut checker, 1, &[early]);
        assert!(
            matches!(failure, Err(Failure::Protocol(ref m)) if m.contains("before the bytes that decide it"))
        );
    }
}
