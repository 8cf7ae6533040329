//! Writes the planted student mistakes of the labs' tests
//! (`tests/mistakes.rs`): each is a lab's solution, from `src/`, with one
//! change, made here from the
//! solution's text, so that a mistake is the solution as it is now, not a
//! copy that drifts from it. A change names whole lines (their text
//! without indentation), which must be in the solution once, in a row.

use std::fmt::Write;
use std::path::Path;

/// A planted mistake: the module it becomes, the solution it changes, what
/// a student got wrong, and the change (lines, and the lines that replace
/// them).
struct Mistake {
    name: &'static str,
    solution: &'static str,
    what: &'static str,
    edits: &'static [(&'static str, &'static str)],
}

/// Lab 4's decoder at the end of a message: a sequence left open after
/// its second or third byte gives no U+FFFD, and its state carries into
/// the next message (only a lead alone at the end is told).
const MESSAGE_END_IGNORED: &[(&str, &str)] = &[
    (
        "} else if self.s_axis_tlast.val() {\n\
         self.own_valid.next = true;\n\
         self.own_tuser.next = 0x7.into(); // truncated\n\
         }",
        "}",
    ),
    (
        "// No state crosses a message's end.\n\
         if self.s_axis_tlast.val() {\n\
         self.bytes_left.d.next = 0.into();\n\
         }",
        "",
    ),
];

/// The same in labs 6 and 7, whose decoder reads the classifier's row.
const ROW_END_IGNORED: &[(&str, &str)] = &[
    (
        "} else if self.classifier.last.val() {\n\
         self.own_valid.next = true;\n\
         self.own_tuser.next = 0x7.into(); // truncated\n\
         }",
        "}",
    ),
    (
        "// No state crosses a message's end.\n\
         if self.classifier.last.val() {\n\
         self.bytes_left.d.next = 0.into();\n\
         }",
        "",
    ),
];

fn mistakes() -> Vec<Mistake> {
    vec![
        Mistake {
            name: "lab1_combinational_tlast",
            solution: "lab1_ascii.rs",
            what: "m_axis_tlast wired from s_axis_tlast (exercise 2's wrong answer)",
            edits: &[(
                "self.m_axis_tlast.next = self.last.q.val();",
                "self.m_axis_tlast.next = self.s_axis_tlast.val();",
            )],
        },
        Mistake {
            name: "lab1_combinational_tvalid",
            solution: "lab1_ascii.rs",
            what: "m_axis_tvalid wired from s_axis_tvalid",
            edits: &[(
                "self.m_axis_tvalid.next = self.valid.q.val();",
                "self.m_axis_tvalid.next = self.s_axis_tvalid.val();",
            )],
        },
        Mistake {
            name: "lab1_sticky_tlast",
            solution: "lab1_ascii.rs",
            what: "the tlast flop set by s_axis_tlast and never cleared",
            edits: &[(
                "self.last.d.next = self.s_axis_tlast.val();",
                "self.last.d.next = self.last.q.val() | self.s_axis_tlast.val();",
            )],
        },
        Mistake {
            name: "lab2_continuing_byte_unmasked",
            solution: "lab2_two_bytes.rs",
            what: "the continuing byte's 10 not masked off (0x3F)",
            edits: &[(
                "| (bit_cast::<32, 8>(self.s_axis_tdata.val()) & 0x3F);",
                "| bit_cast::<32, 8>(self.s_axis_tdata.val());",
            )],
        },
        Mistake {
            name: "lab2_tlast_of_the_lead",
            solution: "lab2_two_bytes.rs",
            what: "a two-octet character's word given its lead's tlast (exercise 2)",
            edits: &[(
                "self.last.d.next = self.s_axis_tlast.val();\n\
                 if self.continuing.q.val() {",
                "if !self.continuing.q.val() {\n\
                 self.last.d.next = self.s_axis_tlast.val();\n\
                 }\n\
                 if self.continuing.q.val() {",
            )],
        },
        Mistake {
            name: "lab3_four_octet_lead_counts_two",
            solution: "lab3_long_characters.rs",
            what: "11110uuu loads bytes_left with 2, not 3",
            edits: &[(
                "self.gathered.d.next = self.octet.val() & 0x07;\n\
                 self.bytes_left.d.next = 3.into();",
                "self.gathered.d.next = self.octet.val() & 0x07;\n\
                 self.bytes_left.d.next = 2.into();",
            )],
        },
        Mistake {
            name: "lab3_four_octet_lead_mask",
            solution: "lab3_long_characters.rs",
            what: "11110uuu masked with 0x03, not 0x07 (one bit of uuu lost)",
            edits: &[(
                "self.gathered.d.next = self.octet.val() & 0x07;",
                "self.gathered.d.next = self.octet.val() & 0x03;",
            )],
        },
        Mistake {
            name: "lab3a_message_end_ignored",
            solution: "lab3a_open_sequences.rs",
            what: "a message's end inside a character ignored, its state carried over",
            edits: &[(
                "} else if self.s_axis_tlast.val() {\n\
                 // The message ends inside the character.\n\
                 self.word.d.next = 0xFFFD.into();\n\
                 self.tuser.d.next = 0x7.into(); // truncated\n\
                 self.valid.d.next = true;\n\
                 self.bytes_left.d.next = 0.into();\n\
                 }",
                "}",
            )],
        },
        Mistake {
            name: "lab3a_broken_sequence_silent",
            solution: "lab3a_open_sequences.rs",
            what: "a lead where a continuing octet is due reopens without a U+FFFD",
            edits: &[(
                "if self.bytes_left.q.val() != 0 {\n\
                 // Not the continuing octet that was due.\n\
                 self.word.d.next = 0xFFFD.into();\n\
                 self.tuser.d.next = 0x7.into(); // truncated\n\
                 self.valid.d.next = true;\n\
                 }",
                "",
            )],
        },
        Mistake {
            name: "lab3b_e0_takes_80",
            solution: "lab3b_bounds.rs",
            what: "E0's bound A0-BF left out: overlong three-octet forms decoded",
            edits: &[("self.low.d.next = 0xA0.into();", "")],
        },
        Mistake {
            name: "lab3b_surrogates_decoded",
            solution: "lab3b_bounds.rs",
            what: "ED's bound 80-9F left out: surrogates decoded",
            edits: &[("self.high.d.next = 0x9F.into();", "")],
        },
        Mistake {
            name: "lab3b_f4_takes_90",
            solution: "lab3b_bounds.rs",
            what: "F4's bound 80-8F taken as 80-90: U+110000 decoded",
            edits: &[(
                "self.high.d.next = 0x8F.into();",
                "self.high.d.next = 0x90.into();",
            )],
        },
        Mistake {
            name: "lab3b_c0_c1_as_leads",
            solution: "lab3b_bounds.rs",
            what: "C0 and C1 taken for two-octet leads",
            edits: &[(
                "} else if self.octet.val() < 0xC2 {",
                "} else if self.octet.val() < 0xC0 {",
            )],
        },
        Mistake {
            name: "lab3b_rejected_byte_swallowed",
            solution: "lab3b_bounds.rs",
            what: "a second byte out of bounds taken into its lead's U+FFFD, not read again",
            edits: &[("self.rejected.next = true;", "")],
        },
        Mistake {
            name: "lab4_message_end_ignored",
            solution: "lab4_error_policy.rs",
            what: "a message's end inside a character ignored, its state carried over",
            edits: MESSAGE_END_IGNORED,
        },
        Mistake {
            name: "lab4_breaking_byte_swallowed",
            solution: "lab4_error_policy.rs",
            what: "the byte that breaks a sequence not read again as a unit of its own",
            edits: &[(
                "self.last.d.next = false;\n\
                 if self.own_valid.val() {",
                "self.last.d.next = self.s_axis_tlast.val();\n\
                 if self.own_valid.val() & !self.broken_valid.val() {",
            )],
        },
        Mistake {
            name: "lab4_bounds_error_truncated",
            solution: "lab4_error_policy.rs",
            what: "a continuing octet outside the lead's bounds reported truncated",
            edits: &[(
                "self.broken_tuser.next = self.outside.q.val();",
                "self.broken_tuser.next = 0x7.into();",
            )],
        },
        Mistake {
            name: "lab5_combinational_tready",
            solution: "lab5_backpressure.rs",
            what: "s_axis_tready = !m_axis_tvalid | m_axis_tready (exercise 2's wrong answer)",
            edits: &[(
                "self.s_axis_tready.next = self.ready.q.val();",
                "self.s_axis_tready.next = !self.valid.q.val() | self.m_axis_tready.val();",
            )],
        },
        Mistake {
            name: "lab5_always_ready",
            solution: "lab5_backpressure.rs",
            what: "s_axis_tready left the constant 1",
            edits: &[(
                "self.s_axis_tready.next = self.ready.q.val();",
                "self.s_axis_tready.next = true;",
            )],
        },
        Mistake {
            name: "lab6_message_end_ignored",
            solution: "lab6_classifier.rs",
            what: "a message's end inside a character ignored, its state carried over",
            edits: ROW_END_IGNORED,
        },
        Mistake {
            name: "lab6_c0_c1_as_leads",
            solution: "lab6_classifier.rs",
            what: "C0 and C1 classified as two-octet leads",
            edits: &[(
                "} else if self.tdata.val() < 0xC2 {",
                "} else if self.tdata.val() < 0xC0 {",
            )],
        },
        Mistake {
            name: "lab6_f5_as_invalid",
            solution: "lab6_classifier.rs",
            what: "F5 to FD classified as invalid_byte, as FE and FF",
            edits: &[(
                "} else if self.tdata.val() < 0xFE {",
                "} else if self.tdata.val() < 0xF5 {",
            )],
        },
        Mistake {
            name: "lab7_message_end_ignored",
            solution: "lab7_full_decoder.rs",
            what: "a message's end inside a character ignored, its state carried over",
            edits: ROW_END_IGNORED,
        },
        Mistake {
            name: "lab7_surrogates_accepted",
            solution: "lab7_full_decoder.rs",
            what: "ED's bound 80-9F left out: surrogates decoded",
            edits: &[(
                "self.row_high.d.next = 0x1F.into();",
                "self.row_high.d.next = 0x3F.into();",
            )],
        },
        Mistake {
            name: "lab7_overlongs_accepted",
            solution: "lab7_full_decoder.rs",
            what: "E0's bound A0-BF left out: overlong three-octet forms decoded",
            edits: &[(
                "self.row_low.d.next = 0x20.into();",
                "self.row_low.d.next = 0x00.into();",
            )],
        },
        Mistake {
            name: "lab8_pending_lead_from_lane_0",
            solution: "lab8_wide_step.rs",
            what: "the lead kept for the next beat taken from lane 0, not lane 1",
            edits: &[(
                "self.pending_bits.d.next = self.octet1.val() & 0x1F;",
                "self.pending_bits.d.next = self.octet0.val() & 0x1F;",
            )],
        },
        Mistake {
            name: "lab8_lead_in_lane_1_gives_a_word",
            solution: "lab8_wide_step.rs",
            what: "m_axis_tkeep 11 whenever lane 0 gives a word, a lead in lane 1 too",
            edits: &[(
                "self.keep.d.next = 0b01.into();\n\
                 if self.gives1.val() {\n\
                 self.keep.d.next = 0b11.into();\n\
                 }",
                "self.keep.d.next = 0b11.into();",
            )],
        },
    ]
}

/// `text` with `from`'s lines (compared without indentation), which must
/// be there once, replaced by `to`'s, indented as the first of them.
fn edit(text: &str, from: &str, to: &str, what: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let from: Vec<&str> = from.lines().map(str::trim).collect();
    let at: Vec<usize> = (0..lines.len().saturating_sub(from.len() - 1))
        .filter(|&i| {
            lines[i..i + from.len()]
                .iter()
                .map(|l| l.trim())
                .eq(from.iter().copied())
        })
        .collect();
    assert!(
        at.len() == 1,
        "{what}: the lines {from:?} are in the solution {} times, not once",
        at.len()
    );
    let i = at[0];
    let indent = &lines[i][..lines[i].len() - lines[i].trim_start().len()];
    let mut out: Vec<String> = lines[..i].iter().map(|l| l.to_string()).collect();
    out.extend(to.lines().map(|l| format!("{indent}{}", l.trim())));
    out.extend(lines[i + from.len()..].iter().map(|l| l.to_string()));
    out.join("\n") + "\n"
}

fn main() {
    let manifest_dir =
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let solutions = Path::new(&manifest_dir).join("src");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed={}", solutions.display());
    let mut out = String::from(
        "// Written by build.rs: the labs' solutions, each with one planted mistake.\n",
    );
    for mistake in mistakes() {
        let path = solutions.join(mistake.solution);
        println!("cargo:rerun-if-changed={}", path.display());
        let source = std::fs::read_to_string(&path).expect("a lab's solution");
        // The block alone, without its inner doc comment.
        let mut text: String = source
            .lines()
            .filter(|l| !l.starts_with("//!"))
            .map(|l| format!("{l}\n"))
            .collect();
        for (from, to) in mistake.edits {
            text = edit(&text, from, to, mistake.name);
        }
        writeln!(
            out,
            "/// {}'s solution with one mistake: {}.\npub mod {} {{\n{text}}}\n",
            mistake.solution, mistake.what, mistake.name
        )
        .unwrap();
    }
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("lab_mistakes.rs");
    std::fs::write(dest, out).unwrap();
}
