//! Writes the Rust of the guide's exercises (`docs/exercises.md`) where
//! the tests compile it (`tests/exercises.rs`): each ```rust block that is
//! a file of tests becomes a module (its inner doc comment dropped, its
//! test functions public and not registered as tests, since they test a
//! port the reader adds), and each `Figure { ... }` a function that
//! returns it. Any other block is a fragment of a file, which the tests
//! find in that file instead.

use std::fmt::Write;
use std::path::Path;

fn main() {
    let manifest_dir =
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let exercises = Path::new(&manifest_dir).join("../docs/exercises.md");
    println!("cargo:rerun-if-changed={}", exercises.display());
    let text = std::fs::read_to_string(&exercises).expect("docs/exercises.md");
    let mut out = String::from("// Written by build.rs from docs/exercises.md.\n");
    let mut blocks = Vec::new();
    // The block being read, and its fence's indentation (a list item's),
    // which its lines drop.
    let mut block: Option<(String, usize)> = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        match &mut block {
            None if trimmed == "```rust" => block = Some((String::new(), indent)),
            Some((code, _)) if trimmed == "```" => {
                blocks.push(std::mem::take(code));
                block = None;
            }
            Some((code, fence)) => {
                writeln!(code, "{}", &line[indent.min(*fence)..]).unwrap();
            }
            None => {}
        }
    }
    let (mut files, mut figures) = (0, 0);
    for code in blocks {
        if code.contains("#[test]") {
            files += 1;
            let module: String = code
                .lines()
                .filter(|l| !l.starts_with("//!") && l.trim() != "#[test]")
                .map(|l| l.replacen("fn ", "pub fn ", usize::from(l.starts_with("fn "))) + "\n")
                .collect();
            writeln!(out, "pub mod test_file_{files} {{\n{module}}}").unwrap();
        } else if code.starts_with("Figure {") {
            figures += 1;
            let figure = code.trim_end().trim_end_matches(',');
            writeln!(
                out,
                "pub fn figure_{figures}() -> utf8hdl_sim::figures::Figure {{\n\
                 use utf8hdl_sim::figures::{{Feed, Figure, View}};\n{figure}\n}}"
            )
            .unwrap();
        }
    }
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("exercises.rs");
    std::fs::write(dest, out).unwrap();
}
