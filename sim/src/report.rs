//! The human-readable side of a run: the unit table and the summary.

use std::fmt::Write as _;

use utf8hdl_hdl::ErrorKind;

use crate::checker::Summary;
use crate::core;
use crate::reference::Unit;

/// The table's header line.
pub const TABLE_HEADER: &str = "   offset  bytes              code point  char  error";

/// Whether a terminal would act on `c` instead of drawing it, or draw
/// nothing: C0 and C1 controls (ESC, CSI U+009B, NEL U+0085), DEL, format
/// characters (general category Cf: bidi embeddings, overrides and
/// isolates, zero-width characters, the BOM), and the line and paragraph
/// separators.
pub fn acts_on_terminal(c: char) -> bool {
    use unicode_general_category::{get_general_category, GeneralCategory};
    matches!(
        get_general_category(c),
        GeneralCategory::Control
            | GeneralCategory::Format
            | GeneralCategory::LineSeparator
            | GeneralCategory::ParagraphSeparator
    )
}

/// How a code point is shown in the character column: characters a
/// terminal would act on as a visible escape (C0 controls and DEL as their
/// Unicode control pictures ␛ and ␡, the others as `\u{202e}`); values
/// beyond Unicode (iso10646) as blank.
fn shown(value: u32) -> String {
    match char::from_u32(value) {
        Some(c @ '\0'..='\x1f') => char::from_u32(0x2400 + c as u32).unwrap_or(' ').to_string(),
        Some('\x7f') => "␡".into(),
        Some(c) if acts_on_terminal(c) => c.escape_unicode().to_string(),
        Some(c) => c.to_string(),
        None => String::new(),
    }
}

/// One row of the table: offsets, bytes in hex, U+XXXX, the character and
/// the error kind.
pub fn table_row(unit: &Unit, bytes: &[u8]) -> String {
    let hex = bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02X} ");
        s
    });
    let offset = format!("{}..{}", unit.span.start, unit.span.end);
    format!(
        "{offset:>9}  {hex:<18} {:<10}  {:<4}  {}",
        format!("U+{:04X}", unit.value),
        shown(unit.value),
        unit.error.map_or("", ErrorKind::name)
    )
    // Only the padding: a character that is white space is shown as it is.
    .trim_end_matches(' ')
    .to_string()
}

/// The summary lines printed after a run.
pub fn summary_lines<U: core::Unit>(summary: &Summary<U>) -> Vec<String> {
    let by_kind: Vec<String> = summary
        .error_kinds
        .iter()
        .map(|k| (k, summary.errors_by_code[k.code() as usize]))
        .filter(|(_, n)| *n > 0)
        .map(|(k, n)| format!("{} {n}", k.name()))
        .collect();
    let errors = if by_kind.is_empty() {
        "0".to_string()
    } else {
        format!("{} ({})", summary.errors(), by_kind.join(", "))
    };
    vec![
        format!(
            "{}s {}, {}s {}, errors {errors}",
            summary.input_name,
            summary.inputs,
            U::NAME,
            summary.units
        ),
        format!(
            "cycles {}, {:.3} {}s/cycle, {:.2}M simulated cycles/s",
            summary.cycles,
            summary.inputs_per_cycle(),
            summary.input_name,
            summary.cycles_per_second() / 1e6
        ),
        match &summary.mismatch {
            None => "RTL and reference agree".to_string(),
            Some(m) => m.to_string(),
        },
    ]
}
