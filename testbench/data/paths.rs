//! Where the test data is, for the tests of every crate of the workspace
//! (each includes this file with `#[path]`; every crate sits one folder
//! below the workspace root).

use std::path::PathBuf;

/// The test data file `name`, from the repository's one data folder,
/// `testbench/data` (its README names each file's source and licence).
pub fn data_path(name: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../testbench/data")
        .join(name);
    assert!(
        path.is_file(),
        "test data file {} is missing",
        path.display()
    );
    path
}

/// The bytes of the test data file `name`.
pub fn data(name: &str) -> Vec<u8> {
    std::fs::read(data_path(name)).expect("test data is readable")
}
