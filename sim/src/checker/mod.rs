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

/// One message as the source made it, from its oldest unit not yet
/// delivered.
struct Message<I> {
    /// Its inputs from the start of its oldest unit not yet delivered.
    inputs: VecDeque<I>,
    /// The stream offset of `inputs[0]`.
    offset: usize,
    /// How many of `inputs` the model has decided into units.
    decided: usize,
    /// Its `tlast` beat was made.
    closed: bool,
}

/// What the model has decided comes next on `m_axis`: a unit or the end of
/// message number `message` (counted from the run's first).
struct Decision<U> {
    message: u64,
    next: Next<U>,
}

/// The model's side of a run. The source's beats are told to it as they
/// are made ([`Expectation::foresee`]), ahead of the cycles that accept
/// them, and the model decides their units a block at a time; a unit is
/// handed out only once the inputs accepted so far decide it, as
/// [`Model::first`] on those inputs would.
struct Expectation<M: Model> {
    model: M,
    /// The messages made and not yet delivered; the first is number
    /// `first_message`.
    messages: VecDeque<Message<M::Input>>,
    first_message: u64,
    /// The message whose units the model decides next.
    deciding: u64,
    decisions: VecDeque<Decision<M::Unit>>,
    /// The stream offset of the next input made.
    made: usize,
    /// Beats made, and beats accepted.
    made_beats: u64,
    accepted_beats: u64,
    /// The stream offset of the next input accepted.
    accepted: usize,
    /// Messages whose `tlast` beat was accepted.
    closes_accepted: u64,
    /// The last beat accepted left its message open.
    open_accepted: bool,
}

impl<M: Model> Expectation<M> {
    fn new(model: M) -> Self {
        Expectation {
            model,
            messages: VecDeque::new(),
            first_message: 0,
            deciding: 0,
            decisions: VecDeque::new(),
            made: 0,
            made_beats: 0,
            accepted_beats: 0,
            accepted: 0,
            closes_accepted: 0,
            open_accepted: false,
        }
    }

    /// Takes a beat the source made into its message; beats are accepted
    /// in the order they are made.
    fn foresee(&mut self, beat: &Beat<M::Input>) {
        if self.messages.back().is_none_or(|m| m.closed) {
            self.messages.push_back(Message {
                inputs: VecDeque::new(),
                offset: self.made,
                decided: 0,
                closed: false,
            });
        }
        let message = self.messages.back_mut().expect("a message is open");
        let before = message.inputs.len();
        message.inputs.extend(beat.items());
        self.made += message.inputs.len() - before;
        message.closed = beat.tlast;
        self.made_beats += 1;
    }

    /// Counts an accepted beat (foreseeing it, if it was not); returns
    /// its items.
    fn accept(&mut self, beat: &Beat<M::Input>) -> usize {
        if self.accepted_beats == self.made_beats {
            self.foresee(beat);
        }
        let items = beat.items().count();
        self.accepted_beats += 1;
        self.accepted += items;
        self.closes_accepted += beat.tlast as u64;
        self.open_accepted = !beat.tlast;
        items
    }

    /// Decides every unit and message end that the inputs made so far
    /// decide.
    fn decide(&mut self) {
        while let Some(message) =
            (self.messages).get_mut((self.deciding - self.first_message) as usize)
        {
            let (number, offset) = (self.deciding, message.offset + message.decided);
            let inputs = &message.inputs.make_contiguous()[message.decided..];
            let decisions = &mut self.decisions;
            message.decided += self.model.decide(inputs, message.closed, &mut |mut unit| {
                unit.shift(offset);
                decisions.push_back(Decision {
                    message: number,
                    next: Next::Unit(unit),
                });
            });
            if !message.closed {
                break;
            }
            self.decisions.push_back(Decision {
                message: number,
                next: Next::EndOfMessage,
            });
            self.deciding += 1;
        }
    }

    /// The next unit of the oldest message, its span in stream offsets.
    fn next(&mut self) -> Next<M::Unit> {
        if self.decisions.is_empty() {
            self.decide();
        }
        let Some(decision) = self.decisions.front() else {
            return Next::Undecided;
        };
        let closed = self.closes_accepted > decision.message;
        let message = self.messages.front_mut().expect("a decision's message");
        match &decision.next {
            Next::Unit(unit) if !closed && self.accepted <= unit.span().end => {
                // Decided by inputs not all accepted yet: the model's word
                // on those that are.
                let start = unit.span().start - message.offset;
                let end = self.accepted.saturating_sub(message.offset).max(start);
                let accepted = &message.inputs.make_contiguous()[start..end];
                if let next @ (Next::Undecided | Next::EndOfMessage) =
                    self.model.first(accepted, false)
                {
                    return next;
                }
            }
            Next::EndOfMessage if !closed => return Next::Undecided,
            // Its end stays next until it is delivered ([`Expectation::end`]).
            Next::EndOfMessage => return Next::EndOfMessage,
            _ => {}
        }
        let decision = self.decisions.pop_front().expect("a decision");
        if let Next::Unit(unit) = &decision.next {
            let delivered = unit.span().end - message.offset;
            message.inputs.drain(..delivered);
            message.offset += delivered;
            message.decided -= delivered;
        }
        decision.next
    }

    /// The oldest message's end, which [`Expectation::next`] gave, was
    /// delivered.
    fn end(&mut self) {
        self.decisions.pop_front();
        self.messages.pop_front();
        self.first_message += 1;
    }

    /// Every accepted message has been delivered, `tlast` included.
    fn is_empty(&self) -> bool {
        self.first_message == self.closes_accepted + self.open_accepted as u64
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
            protocol: Protocol::new(C::LATENCY, C::RATE, C::PACKED),
            expectation: Expectation::new(core.model()),
            delivering: None,
            summary: Summary::of::<C>(),
        }
    }

    /// Tells the model of a beat that the source will offer, after those
    /// told before: beats are accepted in the order they are told, and a
    /// beat accepted untold is told then. The model decides the units of
    /// the beats told in a block, off the per-cycle path.
    pub fn foresee(&mut self, beat: &Beat<M::Input>) {
        self.expectation.foresee(beat);
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
            self.summary.inputs += self.expectation.accept(beat) as u64;
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
                Next::EndOfMessage => self.expectation.end(),
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
            let mut expectation = Expectation::new(Reference(profile));
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

    /// The model decides the beats the source has made ahead of the
    /// cycles that accept them, but a word is held to the bytes accepted
    /// when it leaves: U+20AC after only E2 82 of its three bytes is caught,
    /// and a word that leaves in the cycle after its last byte passes.
    #[test]
    fn a_word_decided_ahead_is_held_to_the_bytes_accepted() {
        let mut checker = Checker::new(&Decoder(Profile::Rfc3629));
        let bytes = [0x41, 0xE2, 0x82, 0xAC];
        for byte in bytes {
            checker.foresee(&Beat::one(byte, false));
        }
        accept(&mut checker, 0, Beat::one(bytes[0], false));
        assert_eq!(deliver(&mut checker, 1, &[beat(&[0x41], false)]), Ok(()));
        accept(&mut checker, 2, Beat::one(bytes[1], false));
        accept(&mut checker, 3, Beat::one(bytes[2], false));
        let early = deliver(&mut checker, 4, &[beat(&[0x20AC], false)]);
        assert!(
            matches!(early, Err(Failure::Protocol(ref m)) if m.contains("before the bytes that decide it")),
            "{early:?}"
        );
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
