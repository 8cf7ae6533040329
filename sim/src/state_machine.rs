//! The decoder's states and every edge, derived from the reference decoder
//! alone (not from the RTL), for the two figures of chapter 3 that are drawn
//! from it: the state table ([`crate::state_table`]) and the state diagram
//! ([`crate::state_diagram`]).
//!
//! A state is an open sequence, named by the octets it still needs and the
//! range its next octet must lie in ("2 · A0–BF", as in chapter 3); an edge
//! is what one byte does there: the state it leads to, the word it
//! completes (or the U+FFFD of its kind) and the U+FFFD of the sequence it
//! breaks. Every edge is read off the reference's units for the open
//! sequence's bytes followed by the byte, in every state by the same rule,
//! so that what the figures say about all open states (a breaking byte acts
//! as in state 0; `tlast` truncates what stays open) is checked, not
//! assumed.

use utf8hdl_hdl::Profile;

use crate::reference::{decode, ErrorKind, Unit};

/// An open sequence: its bytes so far, the octets it still needs, and the
/// bytes that continue it.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    prefix: Vec<u8>,
    /// Continuing octets still needed: the decoder's `bytes_left`.
    pub needed: usize,
    continuing: Vec<u8>,
}

impl State {
    /// The state's name in the guide: "`bytes_left` · what the next octet
    /// must be".
    pub fn name(&self) -> String {
        if self.is_none_open() {
            return "0 · none open".into();
        }
        format!("{} · {}", self.needed, ranges(&self.continuing))
    }

    /// State 0, where a byte starts a unit.
    pub fn is_none_open(&self) -> bool {
        self.prefix.is_empty()
    }

    /// The same state: what it needs and admits, whatever its bytes.
    fn same(&self, other: &State) -> bool {
        self.needed == other.needed && self.continuing == other.continuing
    }
}

/// `80–BF`, `E1–EC EE–EF`: runs of consecutive bytes.
pub fn ranges(bytes: &[u8]) -> String {
    let mut runs: Vec<(u8, u8)> = Vec::new();
    for &b in bytes {
        match runs.last_mut() {
            Some((_, end)) if u16::from(*end) + 1 == u16::from(b) => *end = b,
            _ => runs.push((b, b)),
        }
    }
    runs.iter()
        .map(|&(a, b)| match a == b {
            true => format!("{a:02X}"),
            false => format!("{a:02X}–{b:02X}"),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The name of a unit's error kind (`ok` for a character), as the README's
/// table of `tuser` codes spells it.
pub fn kind(unit: &Unit) -> &'static str {
    unit.error.map_or("ok", |k| k.name())
}

/// `byte` continues the open `prefix`: the reference's first unit of the
/// two together spans them all (a word, or `truncated` at the message's
/// end).
fn continues(prefix: &[u8], byte: u8, profile: Profile) -> bool {
    let bytes = [prefix, &[byte]].concat();
    decode(&bytes, profile)
        .first()
        .is_some_and(|u| u.span.end == bytes.len())
}

/// The state after an open `prefix` (empty for none).
fn state(prefix: &[u8], profile: Profile) -> State {
    if prefix.is_empty() {
        return State {
            prefix: Vec::new(),
            needed: 0,
            continuing: Vec::new(),
        };
    }
    let continuing: Vec<u8> = (0..=255)
        .filter(|&b| continues(prefix, b, profile))
        .collect();
    // Octets still needed: extend with continuing bytes until a word ends.
    let mut bytes = prefix.to_vec();
    let mut needed = 0;
    while let Some(next) = (0..=255u8).find(|&b| continues(&bytes, b, profile)) {
        bytes.push(next);
        needed += 1;
        if decode(&bytes, profile)
            .first()
            .is_some_and(|u| u.error.is_none())
        {
            break;
        }
    }
    State {
        prefix: prefix.to_vec(),
        needed,
        continuing,
    }
}

/// What a byte does in a state.
#[derive(Clone, Debug, PartialEq)]
pub struct Edge {
    /// The state it leads to (an index into the states).
    pub to: usize,
    /// The unit it completes, if any: a character or a one-byte error.
    pub word: Option<Unit>,
    /// It breaks the open sequence, whose U+FFFD (`truncated`, or the kind
    /// of a bound it misses) goes first.
    pub breaks: Option<Unit>,
}

impl Edge {
    /// The two edges lead to the same state with the same kinds of unit
    /// (the values of the words may differ): the figures draw them as one.
    pub fn acts_like(&self, other: &Edge) -> bool {
        let kinds = |e: &Edge| {
            (
                e.word.as_ref().map(|u| u.error),
                e.breaks.as_ref().map(|u| u.error),
            )
        };
        self.to == other.to && kinds(self) == kinds(other)
    }
}

/// What `byte` does after the open `prefix` (empty for state 0), from the
/// reference's units for the two together: the last unit, when a further
/// byte can still join it, stays open (the next state); the others leave,
/// the one ending before `byte` as the broken sequence's U+FFFD.
fn step(prefix: &[u8], byte: u8, profile: Profile) -> (State, Option<Unit>, Option<Unit>) {
    let bytes = [prefix, &[byte]].concat();
    let mut units = decode(&bytes, profile);
    let last = units.last().expect("a byte makes a unit").clone();
    let open = &bytes[last.span.clone()];
    // The last unit stays open when some byte continues it.
    let after = state(open, profile);
    let next = match !after.continuing.is_empty() {
        true => {
            // What `tlast` on this byte gives instead: the figures draw it
            // as one rule, "tlast: U+FFFD truncated → 0", for every state.
            assert_eq!(
                last.error,
                Some(ErrorKind::Truncated),
                "the reference ends the open {open:02X?} with {last:?}, not U+FFFD truncated"
            );
            units.pop();
            after
        }
        false => state(&[], profile),
    };
    let word = units.pop_if(|u| u.span.end == bytes.len());
    let breaks = units.pop();
    assert!(
        units.is_empty() && breaks.as_ref().is_none_or(|u| u.span == (0..prefix.len())),
        "{bytes:02X?} leaves more than the open sequence and the byte's unit"
    );
    (next, word, breaks)
}

/// A decoder's states, reachable from state 0, and each state's edge for
/// every byte. Derived once, drawn by both figures.
pub struct StateMachine {
    pub profile: Profile,
    /// In the order found, state 0 first.
    pub states: Vec<State>,
    /// `edges[state][byte]`.
    pub edges: Vec<Vec<Edge>>,
}

impl StateMachine {
    /// Explores `profile`'s decoder from state 0, byte by byte.
    pub fn derive(profile: Profile) -> StateMachine {
        let mut states = vec![state(&[], profile)];
        let mut edges: Vec<Vec<Edge>> = Vec::new();
        let mut i = 0;
        while i < states.len() {
            let prefix = states[i].prefix.clone();
            let row = (0..=255u8)
                .map(|byte| {
                    let (next, word, breaks) = step(&prefix, byte, profile);
                    let to = match states.iter().position(|s| s.same(&next)) {
                        Some(to) => to,
                        None => {
                            states.push(next);
                            states.len() - 1
                        }
                    };
                    Edge { to, word, breaks }
                })
                .collect();
            edges.push(row);
            i += 1;
        }
        StateMachine {
            profile,
            states,
            edges,
        }
    }

    /// `byte` breaks the open `state` and then does exactly what it does
    /// in state 0 (same next state, same word), after one U+FFFD
    /// `truncated`: the one rule the state diagram draws for all open
    /// states. An edge that breaks otherwise is drawn on its own.
    pub fn breaks_as_in_state_0(&self, state: usize, byte: u8) -> bool {
        let (edge, from_0) = (
            &self.edges[state][usize::from(byte)],
            &self.edges[0][usize::from(byte)],
        );
        let value_and_kind = |u: &Option<Unit>| u.as_ref().map(|u| (u.value, u.error));
        edge.breaks
            .as_ref()
            .is_some_and(|u| u.error == Some(ErrorKind::Truncated))
            && edge.to == from_0.to
            && value_and_kind(&edge.word) == value_and_kind(&from_0.word)
    }

    /// The bytes of `state`'s edges that `keep` selects, grouped by
    /// [`Edge::acts_like`] in the order of their first byte.
    pub fn groups(&self, state: usize, keep: impl Fn(u8) -> bool) -> Vec<(Vec<u8>, &Edge)> {
        let mut groups: Vec<(Vec<u8>, &Edge)> = Vec::new();
        for byte in (0..=255u8).filter(|&b| keep(b)) {
            let edge = &self.edges[state][usize::from(byte)];
            match groups.iter_mut().find(|(_, e)| e.acts_like(edge)) {
                Some((bytes, _)) => bytes.push(byte),
                None => groups.push((vec![byte], edge)),
            }
        }
        groups
    }
}
