//! What a failed lab check shows besides the checker's line: the input
//! around the place where the run went wrong, unit by unit as the
//! reference decodes it, then the unit expected there and the word that
//! came instead.

use crate::checker::{Failure, Mismatch};
use crate::core::Unit as _;
use crate::reference::{decode, Unit};
use crate::report::{table_row, TABLE_HEADER};

use super::Profile;

/// How many of the reference's units are shown on each side of the
/// first one that did not agree.
const CONTEXT_UNITS: usize = 4;

/// The stream offset where the run went wrong: the start of the unit the
/// checker expected, or else (a broken rule, a misplaced `tlast`) the end
/// of the last unit that agreed, `agreed_to`.
pub fn offset(mismatch: &Mismatch<Unit>, agreed_to: usize) -> usize {
    match &mismatch.failure {
        Failure::Word {
            expected: Some(unit),
            ..
        } => unit.span.start,
        _ => agreed_to,
    }
}

/// The lines that show `messages` around stream offset `at` (see
/// [`offset`]): a table of the reference's units there, the one at `at`
/// marked `>`, each message's last marked `tlast`; then, for a word that
/// differs, what was expected and what came.
pub fn around(messages: &[Vec<u8>], mismatch: &Mismatch<Unit>, at: usize) -> Vec<String> {
    // Every unit, in stream offsets, with its bytes and whether it ends
    // its message.
    let mut units = Vec::new();
    let mut start = 0;
    for message in messages {
        let decoded = decode(message, Profile::Rfc3629);
        let count = decoded.len();
        for (i, mut unit) in decoded.into_iter().enumerate() {
            let bytes = &message[unit.span.clone()];
            unit.span = unit.span.start + start..unit.span.end + start;
            units.push((unit, bytes, i + 1 == count));
        }
        start += message.len();
    }
    let first = units
        .iter()
        .position(|(unit, ..)| unit.span.end > at)
        .unwrap_or(units.len());
    let shown = first.saturating_sub(CONTEXT_UNITS)..(first + CONTEXT_UNITS + 1).min(units.len());
    let mut lines = vec![
        format!(
            "the input around byte offset {at}, as the reference decodes it \
             (>: the first unit not delivered as expected):"
        ),
        format!("  {TABLE_HEADER}"),
    ];
    for (i, (unit, bytes, ends)) in units[shown.clone()].iter().enumerate() {
        let mark = if shown.start + i == first { ">" } else { " " };
        let end = if *ends {
            "  (tlast: its message ends)"
        } else {
            ""
        };
        lines.push(format!("{mark} {}{end}", table_row(unit, bytes)));
    }
    if let Failure::Word { expected, actual } = &mismatch.failure {
        lines.push(match expected {
            Some(unit) => format!("expected: {}", unit.describe()),
            None => "expected: no word (the message had ended: m_axis_tlast was due on the \
                     word before)"
                .to_string(),
        });
        lines.push(match actual {
            Some(word) => format!("got:      {word}"),
            None => "got:      no word".to_string(),
        });
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table is the reference's units around the offset, the first
    /// that differs marked, message ends told, then expected and got.
    #[test]
    fn a_differing_word_is_shown_among_its_neighbours() {
        let messages = vec![b"ab".to_vec(), "c\u{E9}d".as_bytes().to_vec()];
        let expected = decode("c\u{E9}".as_bytes(), Profile::Rfc3629)[1].clone();
        let expected = Unit {
            span: 3..5,
            ..expected
        };
        let mismatch = Mismatch {
            cycle: 4,
            failure: Failure::Word {
                expected: Some(expected),
                actual: None,
            },
            inputs: "byte",
        };
        let at = offset(&mismatch, 0);
        assert_eq!(at, 3);
        let lines = around(&messages, &mismatch, at);
        let rows: Vec<&str> = lines[2..7].iter().map(|l| l.trim_end()).collect();
        assert!(rows[0].starts_with("       0..1  61"), "{rows:?}");
        assert!(rows[1].ends_with("(tlast: its message ends)"), "{rows:?}");
        assert!(rows[3].starts_with(">      3..5  C3 A9"), "{rows:?}");
        assert_eq!(lines[7], "expected: U+00E9 ok");
        assert_eq!(lines[8], "got:      no word");
    }
}
