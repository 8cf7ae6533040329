//! The repository needs nothing beside it: no file refers to a `shared`
//! folder next to the workspace (where the project's specifications and
//! corpus were first kept). Users clone the repository alone, so the test
//! data lives in `testbench/data` and the guide cites the public documents.

use std::path::Path;

use walkdir::WalkDir;

/// The references that would reach outside the repository. Spelt in pieces
/// so that this file does not match itself.
fn forbidden() -> Vec<String> {
    let shared = ["shared", "/"].concat();
    vec![
        format!("../{shared}"),
        format!("{shared}seeds"),
        format!("{shared}corpus"),
    ]
}

#[test]
fn no_file_refers_to_a_shared_folder_beside_the_workspace() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let forbidden = forbidden();
    let mut offenders = Vec::new();
    let mut read = 0;
    let entries = WalkDir::new(&root).into_iter().filter_entry(|e| {
        let name = e.file_name().to_string_lossy();
        !(e.depth() > 0 && (name.starts_with('.') && name != ".ci" || name == "target"))
    });
    for entry in entries {
        let entry = entry.expect("the workspace is readable");
        if !entry.file_type().is_file() {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(entry.path()) else {
            continue; // not text: a figure or a binary
        };
        read += 1;
        for (number, line) in text.lines().enumerate() {
            if forbidden.iter().any(|f| line.contains(f.as_str())) {
                let path = entry.path().strip_prefix(&root).unwrap();
                offenders.push(format!("{}:{}: {line}", path.display(), number + 1));
            }
        }
    }
    assert!(read > 50, "only {read} files read: is this the workspace?");
    assert!(
        offenders.is_empty(),
        "files refer outside the repository:\n{}",
        offenders.join("\n")
    );
}
