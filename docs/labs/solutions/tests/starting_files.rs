//! No starting file holds an earlier lab's solution: a student who has not
//! solved lab k finds none of its answer in the file of a later lab, only
//! the ports and what the lab itself gives. Measured as the `duplicates`
//! command measures repeated code: a run of six or more lines of one of
//! lab k's solution's function bodies that stands, line after line, in the
//! starting file of a lab after k (blank lines, comments and lone
//! punctuation passed over, white space folded).

use std::path::Path;

use utf8hdl_lab_solutions::BLOCKS;
use utf8hdl_sim::labs::{LABS, STUDENT};

/// How many lines in a row make a solution's text.
const MIN_LINES: usize = 6;

/// A line as compared: its code without a trailing comment, white space
/// folded; `None` for a line of nothing but comments or punctuation.
fn code(line: &str) -> Option<String> {
    let code = line.split("//").next().unwrap_or_default();
    let folded = code.split_whitespace().collect::<Vec<_>>().join(" ");
    let words = folded.replace("else", "");
    words.chars().any(char::is_alphanumeric).then_some(folded)
}

/// The lines of `text` as compared.
fn code_lines(text: &str) -> Vec<String> {
    text.lines().filter_map(code).collect()
}

/// The bodies of the functions of `text` (from a line that opens `fn ...
/// {` to the line that closes it at the same indentation), as compared.
fn function_bodies(text: &str) -> Vec<Vec<String>> {
    let lines: Vec<&str> = text.lines().collect();
    let mut bodies = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        if !(trimmed.starts_with("fn ") || trimmed.starts_with("pub fn ")) || !line.ends_with('{') {
            continue;
        }
        let close = format!("{}}}", &line[..line.len() - trimmed.len()]);
        let end = lines[i..]
            .iter()
            .position(|l| *l == close)
            .map_or(lines.len(), |at| i + at);
        bodies.push(lines[i + 1..end].iter().copied().filter_map(code).collect());
    }
    bodies
}

/// The longest run of lines of `body` that stands in a row in `file`, and
/// its length.
fn longest_shared_run<'a>(body: &'a [String], file: &[String]) -> (&'a [String], usize) {
    let mut best = (0, 0);
    // run[j]: the run that ends with body[i] and file[j].
    let mut run = vec![0; file.len() + 1];
    for (i, line) in body.iter().enumerate() {
        for j in (0..file.len()).rev() {
            run[j + 1] = match *line == file[j] {
                true => run[j] + 1,
                false => 0,
            };
            if run[j + 1] > best.1 {
                best = (i + 1 - run[j + 1], run[j + 1]);
            }
        }
    }
    (&body[best.0..best.0 + best.1], best.1)
}

/// The workspace's root.
fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."))
}

#[test]
fn no_starting_file_holds_an_earlier_solution() {
    assert_eq!(BLOCKS.len(), LABS.len());
    let mut found = Vec::new();
    for (k, solution) in BLOCKS.iter().enumerate() {
        let bodies = function_bodies(solution.built_from);
        // The measure finds a solution in its own text.
        let own = code_lines(solution.built_from);
        assert!(
            bodies
                .iter()
                .any(|body| longest_shared_run(body, &own).1 >= MIN_LINES),
            "lab {}: no function body of {MIN_LINES} lines or more",
            solution.lab.id
        );
        for later in &LABS[k + 1..] {
            let file = later.file(STUDENT);
            let starting = std::fs::read_to_string(root().join(&file)).unwrap();
            let starting = code_lines(&starting);
            for body in &bodies {
                let (run, length) = longest_shared_run(body, &starting);
                if length >= MIN_LINES {
                    found.push(format!(
                        "{file} holds {length} lines of lab {}'s solution, from `{}`",
                        solution.lab.id, run[0]
                    ));
                }
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// The measure: comments, blank lines and punctuation do not count, and
/// a run is lines in a row.
#[test]
fn a_run_is_code_lines_in_a_row() {
    let body = code_lines("a = 1;\n// why\n\n}\nb = 2; // b\n} else {\nc = 3;\n");
    assert_eq!(body, ["a = 1;", "b = 2;", "c = 3;"]);
    let file = code_lines("x;\na = 1;\n  b   = 2;\nc = 4;\na = 1;\n");
    assert_eq!(longest_shared_run(&body, &file).1, 2);
    let bodies =
        function_bodies("impl X {\n    fn f() {\n        a;\n    }\n}\nfn g() {\n    b;\n}\n");
    assert_eq!(bodies, [vec!["a;".to_string()], vec!["b;".to_string()]]);
}
