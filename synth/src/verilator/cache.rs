//! The model cache: a model built once per Verilog text, shim, Verilator
//! version and C++ flags, checked against its stamp before it is loaded,
//! and swapped into place complete (see the module documentation above).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

use super::*;
use anyhow::{bail, Context, Result};
use sha2::{Digest, Sha256};
use utf8hdl_sim::output::ScratchDir;

fn tool_output(program: &str, args: &[&str]) -> Result<String> {
    let out = crate::tools::output(Command::new(program).args(args))
        .with_context(|| format!("cannot run {program}: is it installed?"))?;
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The environment variable that sets the cache root, in place of
/// `~/.cache/utf8hdl` (models go in its `verilator` folder).
pub const CACHE_VAR: &str = "UTF8HDL_CACHE";

/// The model library's name in a model directory.
const LIBRARY: &str = "libmodel.so";

/// The stamp's name in a model directory, and its first line.
const STAMP: &str = "stamp";
const STAMP_HEADER: &str = "utf8hdl Verilator model, stamp 1";

/// A `.build-*` directory older than this (by its modification time, which
/// each object file written into it renews) is abandoned: its build was
/// killed, or failed and was kept for its logs. A build takes at most
/// minutes.
const ABANDONED_AFTER: Duration = Duration::from_secs(3600);

/// Where models are cached: `$UTF8HDL_CACHE/verilator`, or `verilator` in
/// utf8hdl's folder of the user's cache directory. Err: why there is none.
fn cache_root() -> std::result::Result<PathBuf, String> {
    match std::env::var_os(CACHE_VAR) {
        Some(root) if !root.is_empty() => std::path::absolute(&root)
            .map(|root| root.join("verilator"))
            .map_err(|e| format!("{CACHE_VAR} '{}' is unusable: {e}", root.to_string_lossy())),
        _ => dirs::cache_dir()
            .map(|base| base.join("utf8hdl").join("verilator"))
            .ok_or_else(|| format!("this user has no cache directory and {CACHE_VAR} is not set")),
    }
}

/// The model's key: SHA-256 of everything its library depends on, each
/// part preceded by its length so that no two lists of parts collide.
fn model_key(parts: &[&str]) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part.as_bytes());
    }
    crate::lower_hex(&hasher.finalize())
}

/// What a model directory's stamp says: which model it holds, and the size
/// and SHA-256 of its library, as they were when its build completed.
#[derive(Debug, PartialEq, Eq)]
struct Stamp {
    key: String,
    size: u64,
    sha256: String,
}

impl Stamp {
    /// The stamp of the library `file` of the model `key`.
    fn of(key: &str, file: &mut std::fs::File) -> std::io::Result<Stamp> {
        let size = file.metadata()?.len();
        let mut hasher = Sha256::new();
        let mut buffer = vec![0u8; 1 << 16];
        loop {
            match file.read(&mut buffer) {
                Ok(0) => break,
                Ok(n) => hasher.update(&buffer[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(Stamp {
            key: key.to_string(),
            size,
            sha256: crate::lower_hex(&hasher.finalize()),
        })
    }

    fn text(&self) -> String {
        format!(
            "{STAMP_HEADER}\nkey {}\nsize {}\nsha256 {}\n",
            self.key, self.size, self.sha256
        )
    }

    fn parse(text: &str) -> Option<Stamp> {
        let lines: Vec<&str> = text.strip_suffix('\n')?.split('\n').collect();
        let [STAMP_HEADER, key, size, sha256] = lines[..] else {
            return None;
        };
        fn value<'a>(line: &'a str, name: &str) -> Option<&'a str> {
            line.strip_prefix(name)?.strip_prefix(' ')
        }
        Some(Stamp {
            key: value(key, "key")?.to_string(),
            size: value(size, "size")?.parse().ok()?,
            sha256: value(sha256, "sha256")?.to_string(),
        })
    }
}

/// What a model directory holds.
#[derive(Debug, PartialEq, Eq)]
enum Found {
    /// A complete model: its library matches its stamp, in size and bytes.
    Ready,
    /// Nothing.
    Absent,
    /// Something that must not be loaded, and why (a phrase after "the
    /// cached model ...").
    Damaged(String),
}

/// Checks the model directory `dir` of the model `key` against its stamp:
/// the library's size first, which a truncated or emptied file fails at
/// no cost, then its bytes.
fn check(dir: &Path, key: &str) -> Found {
    use std::io::ErrorKind::{NotADirectory, NotFound};
    match std::fs::symlink_metadata(dir) {
        Err(e) if matches!(e.kind(), NotFound | NotADirectory) => return Found::Absent,
        Err(e) => return Found::Damaged(format!("cannot be read ({e})")),
        Ok(m) if !m.is_dir() => return Found::Damaged("is not a directory".into()),
        Ok(_) => {}
    }
    let stamp = match std::fs::read(dir.join(STAMP)) {
        Ok(bytes) => std::str::from_utf8(&bytes).ok().and_then(Stamp::parse),
        Err(e) if e.kind() == NotFound => {
            return Found::Damaged("has no stamp: its build did not complete".into())
        }
        Err(e) => return Found::Damaged(format!("has an unreadable stamp ({e})")),
    };
    let Some(stamp) = stamp else {
        return Found::Damaged("has a garbled stamp".into());
    };
    if stamp.key != key {
        return Found::Damaged("is stamped as another model".into());
    }
    let mut file = match std::fs::File::open(dir.join(LIBRARY)) {
        Ok(file) => file,
        Err(e) if e.kind() == NotFound => return Found::Damaged(format!("has no {LIBRARY}")),
        Err(e) => return Found::Damaged(format!("has an unreadable {LIBRARY} ({e})")),
    };
    match file.metadata() {
        Ok(m) if !m.is_file() => return Found::Damaged(format!("has a {LIBRARY} that is no file")),
        Ok(m) if m.len() != stamp.size => {
            return Found::Damaged(format!(
                "has a {LIBRARY} of {} bytes where its stamp says {}",
                m.len(),
                stamp.size
            ))
        }
        Ok(_) => {}
        Err(e) => return Found::Damaged(format!("has an unreadable {LIBRARY} ({e})")),
    }
    match Stamp::of(key, &mut file) {
        Ok(actual) if actual == stamp => Found::Ready,
        Ok(_) => Found::Damaged(format!("has a {LIBRARY} whose bytes differ from its stamp")),
        Err(e) => Found::Damaged(format!("has an unreadable {LIBRARY} ({e})")),
    }
}

/// A model library checked against its stamp, ready to load.
pub(super) struct Model {
    pub(super) library: PathBuf,
    /// The private temporary directory it was built in, when the cache
    /// cannot be written: removed once the library is loaded.
    _scratch: Option<ScratchDir>,
}

/// The key of the model of `verilog` with `shim`, once its tools are known
/// to be on PATH.
pub(super) fn key_of(verilog: &str, shim: &str) -> Result<String> {
    for tool in TOOLS {
        if crate::tools::find(tool).is_none() {
            bail!("--engine verilator needs {tool}, which is not on PATH");
        }
    }
    Ok(model_key(&[
        verilog,
        shim,
        verilator_version()?,
        OPTIMIZE,
        OPTIMIZE_ONCE,
    ]))
}

/// `verilator --version`, asked once a process (it starts Perl).
fn verilator_version() -> Result<&'static str> {
    static VERSION: OnceLock<String> = OnceLock::new();
    if let Some(version) = VERSION.get() {
        return Ok(version);
    }
    let version = tool_output("verilator", &["--version"])?;
    Ok(VERSION.get_or_init(|| version))
}

/// Builds (or finds in the cache) the library of the model `key`: `verilog`,
/// whose top module is `top`, with `shim`. `progress` is told when a build
/// starts.
pub(super) fn model_library(
    top: &str,
    verilog: &str,
    shim: &str,
    key: &str,
    progress: &dyn Fn(&str),
) -> Result<Model> {
    let name = format!("{top}-{}", &key[..16]);
    let root = cache_root();
    let mut damage = None;
    if let Ok(root) = &root {
        let dir = root.join(&name);
        match check(&dir, key) {
            Found::Ready => {
                return Ok(Model {
                    library: dir.join(LIBRARY),
                    _scratch: None,
                })
            }
            Found::Absent => {}
            Found::Damaged(why) => {
                damage = Some(format!("the cached one in {} {why}", dir.display()))
            }
        }
    }
    // Built aside and swapped into place, so that a build that fails or is
    // killed leaves nothing a later run would load. A failed build is kept,
    // so that the log its error names is there to read, until a later
    // build removes it as abandoned.
    let aside = root.and_then(|root| {
        std::fs::create_dir_all(&root)
            .and_then(|()| lock_builds(&root, progress))
            .and_then(|lock| {
                remove_abandoned(&root);
                ScratchDir::new_in(&root, ".build-").map(|build| (root.join(&name), build, lock))
            })
            .map_err(|e| format!("the cache '{}' cannot be written ({e})", root.display()))
    });
    let (dir, build, _lock) = match aside {
        Ok(aside) => aside,
        Err(unwritable) => {
            return build_privately(top, verilog, shim, key, damage, &unwritable, progress)
        }
    };
    // Another run may have built the model while this one waited.
    if matches!(check(&dir, key), Found::Ready) {
        return Ok(Model {
            library: dir.join(LIBRARY),
            _scratch: None,
        });
    }
    progress(&match &damage {
        None => format!(
            "building the Verilator model of {top} (once; cached in {})",
            dir.display()
        ),
        Some(damage) => format!("rebuilding the Verilator model of {top}: {damage}"),
    });
    if let Err(e) = build_stamped(build.path(), top, verilog, shim, key) {
        let _kept = build.keep();
        return Err(e);
    }
    put_in_place(build, &dir, key)?;
    match check(&dir, key) {
        Found::Ready => Ok(Model {
            library: dir.join(LIBRARY),
            _scratch: None,
        }),
        Found::Absent | Found::Damaged(_) => bail!(
            "the Verilator model just built in '{}' no longer matches its stamp; \
             remove that directory and run again",
            dir.display()
        ),
    }
}

/// The cache's build lock, held until dropped: one build at a time in a
/// cache, so that runs that need the same model at once (two tests, two
/// terminals) build it once, and the second loads what the first built.
/// Each build already compiles on every core. Loading a ready model takes
/// no lock; the lock of a killed run is released with its process.
fn lock_builds(root: &Path, progress: &dyn Fn(&str)) -> std::io::Result<std::fs::File> {
    let lock = std::fs::File::open(root)?;
    match lock.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            progress(&format!(
                "waiting for another run's Verilator build in {}",
                root.display()
            ));
            lock.lock()?;
        }
        Err(std::fs::TryLockError::Error(e)) => return Err(e),
    }
    Ok(lock)
}

/// The model built in a private temporary directory, for a cache that
/// cannot be written (`unwritable` says why); `damage` says what is wrong
/// with the cached one, if there is one.
fn build_privately(
    top: &str,
    verilog: &str,
    shim: &str,
    key: &str,
    damage: Option<String>,
    unwritable: &str,
    progress: &dyn Fn(&str),
) -> Result<Model> {
    let scratch = ScratchDir::new("utf8hdl-verilator-").with_context(|| {
        format!(
            "{unwritable}, nor can a temporary directory be made in '{}'; \
             set {CACHE_VAR} to a writable directory",
            std::env::temp_dir().display()
        )
    })?;
    let damage = damage.map_or(String::new(), |d| format!("{d}, and "));
    progress(&format!(
        "building the Verilator model of {top} in a private temporary directory, not kept: \
         {damage}{unwritable}; set {CACHE_VAR} to a writable directory to keep models"
    ));
    if let Err(e) = build_stamped(scratch.path(), top, verilog, shim, key) {
        let _kept = scratch.keep();
        return Err(e);
    }
    match check(scratch.path(), key) {
        Found::Ready => Ok(Model {
            library: scratch.path().join(LIBRARY),
            _scratch: Some(scratch),
        }),
        Found::Absent | Found::Damaged(_) => {
            bail!(
                "the Verilator model just built in '{}' does not match its stamp",
                scratch.path().display()
            )
        }
    }
}

/// Removes what killed or failed runs left in the cache `root`: `.build-*`
/// directories older than [`ABANDONED_AFTER`], and `.stale-*` ones (models
/// moved aside to be replaced) of any age. Best effort: another run may be
/// removing the same.
fn remove_abandoned(root: &Path) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let abandoned = name.starts_with(".stale-")
            || name.starts_with(".build-")
                && entry
                    .metadata()
                    .and_then(|m| m.modified())
                    .is_ok_and(|t| t.elapsed().is_ok_and(|age| age > ABANDONED_AFTER));
        if abandoned {
            remove_any(&entry.path());
        }
    }
}

/// Removes `path`, a directory or not; best effort.
fn remove_any(path: &Path) {
    let _ = match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => std::fs::remove_dir_all(path),
        _ => std::fs::remove_file(path),
    };
}

/// Puts the complete, stamped model `build` in place as `dir`. What is
/// there is moved aside first and removed after, unless it is a complete
/// model of its own: another run built the same model meanwhile, and that
/// one is used. A rename replaces nothing but an empty directory, so the
/// swap is two renames; a run that finds nothing between them puts its own
/// model there, and this one then uses it.
fn put_in_place(build: ScratchDir, dir: &Path, key: &str) -> Result<()> {
    let stale = match check(dir, key) {
        Found::Ready => return Ok(()),
        Found::Absent => None,
        Found::Damaged(_) => move_aside(dir)?,
    };
    let placed = build.rename_to(dir);
    if let Some(stale) = stale {
        remove_any(&stale);
    }
    match placed {
        Ok(()) => Ok(()),
        Err(_) if check(dir, key) == Found::Ready => Ok(()),
        Err(e) => Err(e).with_context(|| {
            format!(
                "cannot move the new Verilator model to '{}'; remove that path, \
                 or set {CACHE_VAR} to another directory, and run again",
                dir.display()
            )
        }),
    }
}

/// Renames `dir` to a new `.stale-*` name beside it, and returns that name;
/// `None` if `dir` is already gone.
fn move_aside(dir: &Path) -> Result<Option<PathBuf>> {
    let parent = dir.parent().expect("a model directory has a parent");
    for attempt in 0u32.. {
        let stale = parent.join(format!(".stale-{}-{attempt}", std::process::id()));
        if std::fs::symlink_metadata(&stale).is_ok() {
            continue;
        }
        return match std::fs::rename(dir, &stale) {
            Ok(()) => Ok(Some(stale)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e).with_context(|| {
                format!(
                    "cannot move the damaged Verilator model '{}' aside; remove it and run again",
                    dir.display()
                )
            }),
        };
    }
    unreachable!("some attempt's name is free")
}

/// [`build_in`], then the stamp, written only once the library is complete.
fn build_stamped(dir: &Path, top: &str, verilog: &str, shim: &str, key: &str) -> Result<()> {
    build_in(dir, top, verilog, shim)?;
    let library = dir.join(LIBRARY);
    let stamp = std::fs::File::open(&library)
        .and_then(|mut file| Stamp::of(key, &mut file))
        .with_context(|| format!("cannot read the model just built, '{}'", library.display()))?;
    std::fs::write(dir.join(STAMP), stamp.text())
        .with_context(|| format!("cannot write '{}'", dir.join(STAMP).display()))
}

/// Verilates `verilog` (top module `top`) and compiles it with `shim` into
/// `dir/libmodel.so`, each tool's output in a log beside it.
fn build_in(dir: &Path, top: &str, verilog: &str, shim: &str) -> Result<()> {
    std::fs::write(dir.join(format!("{top}.v")), verilog)?;
    std::fs::write(dir.join("shim.cpp"), shim)?;
    let file = format!("{top}.v");
    let args = [
        "--cc",
        &file,
        "--top-module",
        top,
        "--prefix",
        "Vmodel",
        "-O3",
        "--Mdir",
        "obj",
    ];
    crate::tools::run(dir, "verilator", &args, "verilator.log")?;
    let root = tool_output("verilator", &["--getenv", "VERILATOR_ROOT"])?;
    let include = format!("{root}/include");
    // Relative to the build directory, which is renamed once complete.
    let mut sources: Vec<String> = std::fs::read_dir(dir.join("obj"))?
        .filter_map(|e| e.ok())
        .map(|e| Path::new("obj").join(e.file_name()))
        .filter(|p| p.extension().is_some_and(|x| x == "cpp"))
        .map(|p| p.display().to_string())
        .collect();
    sources.sort();
    sources.push(format!("{include}/verilated.cpp"));
    sources.push(format!("{include}/verilated_threads.cpp"));
    sources.push("shim.cpp".into());
    // A makefile so that the sources compile on every core.
    let objects: Vec<String> = (0..sources.len()).map(|i| format!("o{i}.o")).collect();
    let mut makefile = format!(
        "CXXFLAGS = -fPIC -fno-semantic-interposition -w -std=c++17 -Iobj -I{include} -I{include}/vltstd\n\
         libmodel.so: {}\n\t$(CXX) -shared -pthread -o $@ $^\n",
        objects.join(" ")
    );
    for (object, source) in objects.iter().zip(&sources) {
        let optimize = if runs_once(source) {
            OPTIMIZE_ONCE
        } else {
            OPTIMIZE
        };
        makefile += &format!("{object}: {source}\n\t$(CXX) {optimize} $(CXXFLAGS) -c -o $@ $<\n");
    }
    std::fs::write(dir.join("Makefile"), makefile)?;
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    crate::tools::run(
        dir,
        "make",
        &["-s".to_string(), format!("-j{jobs}")],
        "make.log",
    )?;
    Ok(())
}

/// The optimisation of the code a cycle runs: as fast as the compiler
/// makes it.
const OPTIMIZE: &str = "-O3";

/// The optimisation of the code that runs once, or outside the cycle
/// loop: Verilator's runtime library and the `__Slow` files of the model
/// (its constructors, initial values and first settle). At `-O1` these
/// compile in 40-50 % of their `-O3` time (verilated.cpp 3.9 s against
/// 9.6 s; the 16-lane decoder's largest `__Slow` file 6.4 s against
/// 12.1 s), a third of a model's build.
const OPTIMIZE_ONCE: &str = "-O1";

/// Whether `source`, a file a model is compiled from, holds code that
/// runs once ([`OPTIMIZE_ONCE`]).
fn runs_once(source: &str) -> bool {
    let name = Path::new(source)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(source);
    name.starts_with("verilated") || name.ends_with("__Slow.cpp")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    const KEY: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    /// A model directory in `parent` named `name`, holding a stand-in
    /// library of `bytes`, stamped as the model [`KEY`].
    fn stamped(parent: &Path, name: &str, bytes: &[u8]) -> PathBuf {
        let dir = parent.join(name);
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join(LIBRARY), bytes).unwrap();
        let stamp = Stamp::of(KEY, &mut fs::File::open(dir.join(LIBRARY)).unwrap()).unwrap();
        fs::write(dir.join(STAMP), stamp.text()).unwrap();
        dir
    }

    fn damaged(found: Found) -> String {
        match found {
            Found::Damaged(why) => why,
            other => panic!("{other:?}, not damaged"),
        }
    }

    #[test]
    fn a_stamp_reads_back_and_nothing_else_parses() {
        let stamp = Stamp {
            key: KEY.into(),
            size: 282_488,
            sha256: "ab".repeat(32),
        };
        assert_eq!(Stamp::parse(&stamp.text()), Some(stamp));
        for garbled in [
            "",
            "\n",
            "garbage\n",
            "utf8hdl Verilator model, stamp 1\nkey x\n",
        ] {
            assert_eq!(Stamp::parse(garbled), None, "{garbled:?}");
        }
        let text = Stamp {
            key: KEY.into(),
            size: 1,
            sha256: "00".repeat(32),
        }
        .text();
        assert_eq!(Stamp::parse(&text.replace("size 1", "size one")), None);
        assert_eq!(Stamp::parse(&format!("{text}extra\n")), None);
        assert_eq!(Stamp::parse(text.trim_end()), None, "a stamp cut short");
    }

    /// A model is ready only when its library is the one its stamp
    /// describes, in size and in bytes.
    #[test]
    fn check_finds_every_kind_of_damage() {
        let parent = tempfile::tempdir().unwrap();
        let bytes: Vec<u8> = (0..100_000u32).map(|i| (i * 7) as u8).collect();
        let dir = stamped(parent.path(), "m", &bytes);
        assert_eq!(check(&dir, KEY), Found::Ready);
        assert_eq!(check(&parent.path().join("none"), KEY), Found::Absent);
        assert!(damaged(check(&dir, &KEY.replace('0', "1"))).contains("another model"));

        let library = dir.join(LIBRARY);
        fs::write(&library, &bytes[..50_000]).unwrap();
        assert!(damaged(check(&dir, KEY)).contains("of 50000 bytes where its stamp says 100000"));
        fs::write(&library, b"").unwrap();
        assert!(damaged(check(&dir, KEY)).contains("of 0 bytes"));
        let mut garbled = bytes.clone();
        garbled[60_000] ^= 1;
        fs::write(&library, &garbled).unwrap();
        assert!(damaged(check(&dir, KEY)).contains("bytes differ"));
        fs::remove_file(&library).unwrap();
        assert!(damaged(check(&dir, KEY)).contains("has no libmodel.so"));

        let dir = stamped(parent.path(), "n", &bytes);
        fs::remove_file(dir.join(STAMP)).unwrap();
        assert!(damaged(check(&dir, KEY)).contains("has no stamp"));
        fs::write(dir.join(STAMP), b"\xff garbage").unwrap();
        assert!(damaged(check(&dir, KEY)).contains("garbled stamp"));

        let file = parent.path().join("file");
        fs::write(&file, b"").unwrap();
        assert!(damaged(check(&file, KEY)).contains("not a directory"));
        assert_eq!(check(&file.join("below"), KEY), Found::Absent);
    }

    /// A new model replaces a damaged directory or a file in the way, and
    /// leaves nothing aside; a complete model already there is kept.
    #[test]
    fn put_in_place_swaps_out_what_is_damaged_and_keeps_what_is_complete() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("top-model");
        let build = |bytes: &[u8]| {
            let build = ScratchDir::new_in(root.path(), ".build-").unwrap();
            fs::remove_dir(build.path()).unwrap();
            stamped(
                root.path(),
                build.path().file_name().unwrap().to_str().unwrap(),
                bytes,
            );
            build
        };
        // A directory without its library, which a plain rename cannot
        // replace ("Directory not empty").
        fs::create_dir(&dir).unwrap();
        fs::write(dir.join("o0.o"), b"object").unwrap();
        put_in_place(build(b"first"), &dir, KEY).unwrap();
        assert_eq!(check(&dir, KEY), Found::Ready);
        assert_eq!(fs::read(dir.join(LIBRARY)).unwrap(), b"first");
        assert_eq!(entries(root.path()), ["top-model"]);

        // A complete model put there by another run is the one kept.
        put_in_place(build(b"second"), &dir, KEY).unwrap();
        assert_eq!(fs::read(dir.join(LIBRARY)).unwrap(), b"first");
        assert_eq!(entries(root.path()), ["top-model"]);

        fs::write(dir.join(LIBRARY), b"firsT").unwrap();
        put_in_place(build(b"third"), &dir, KEY).unwrap();
        assert_eq!(fs::read(dir.join(LIBRARY)).unwrap(), b"third");

        fs::remove_dir_all(&dir).unwrap();
        fs::write(&dir, b"a file in the way").unwrap();
        put_in_place(build(b"fourth"), &dir, KEY).unwrap();
        assert_eq!(check(&dir, KEY), Found::Ready);
        assert_eq!(entries(root.path()), ["top-model"]);
    }

    /// What killed runs left is removed; a build that may be running is
    /// not.
    #[test]
    fn remove_abandoned_spares_recent_builds() {
        let root = tempfile::tempdir().unwrap();
        for name in [".build-old", ".build-new", ".stale-1-0", "top-model"] {
            fs::create_dir(root.path().join(name)).unwrap();
            fs::write(root.path().join(name).join("o0.o"), b"object").unwrap();
        }
        let two_hours_ago = std::time::SystemTime::now() - Duration::from_secs(7200);
        fs::File::open(root.path().join(".build-old"))
            .unwrap()
            .set_modified(two_hours_ago)
            .unwrap();
        remove_abandoned(root.path());
        assert_eq!(entries(root.path()), [".build-new", "top-model"]);
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }
}
