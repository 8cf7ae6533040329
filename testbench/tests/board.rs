//! The board tops, simulated bit by bit: bytes go in on the UART receive
//! line, and the lines that come out on the transmit line are those of
//! `utf8hdl reference --format lines`, message (line) by message; or, in
//! echo mode, the input as `String::from_utf8_lossy` makes it. Each board
//! is run at 115200 baud from its own oscillator, with the test's UARTs
//! timed from the board maker's clock, not from the board's row, and at a
//! few clocks per bit on longer random input.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rust_hdl::prelude::*;
use utf8hdl_hdl::Profile;
use utf8hdl_sim::output::unit_line;
use utf8hdl_sim::reference::{decode, encode};
use utf8hdl_synth::board::boards::{Board, BOARDS};
use utf8hdl_synth::board::byte_gatherer::ByteGatherer;
use utf8hdl_synth::board::wide_echo::WideEchoTop;
use utf8hdl_synth::board::{clocks_per_bit, BoardTop, Mode, BAUD};

/// Each board as its maker documents it: the oscillator, the LEDs'
/// polarity, and the clock's and the UART's pins. Sources: the iCEBreaker
/// v1.0 schematic and its `icebreaker.pcf`; Sipeed's Tang Nano 9K page and
/// Project Apicula's `examples/tangnano9k.cst`; the ULX3S's
/// `ulx3s_v20.lpf` (`clk_25mhz`, `ftdi_txd`, `ftdi_rxd`, `led[0]`).
struct Maker {
    board: &'static str,
    oscillator_hz: f64,
    leds_active_low: bool,
    /// (clk, rx, tx): rx is where the FPGA receives.
    pins: [&'static str; 3],
}

const MAKERS: &[Maker] = &[
    Maker {
        board: "icebreaker",
        oscillator_hz: 12e6,
        leds_active_low: true,
        pins: ["35", "6", "9"],
    },
    Maker {
        board: "tangnano9k",
        oscillator_hz: 27e6,
        leds_active_low: true,
        pins: ["52", "18", "17"],
    },
    Maker {
        board: "ulx3s",
        oscillator_hz: 25e6,
        leds_active_low: false,
        pins: ["G2", "M1", "L4"],
    },
];

fn maker(board: &Board) -> &'static Maker {
    MAKERS
        .iter()
        .find(|m| m.board == board.name)
        .unwrap_or_else(|| panic!("no maker's documents for {}", board.name))
}

/// The UART's bit time on `board`, in its clock cycles: not rounded, as
/// a PC's UART at 115200 baud sees it.
fn bit_time(board: &Board) -> f64 {
    maker(board).oscillator_hz / BAUD as f64
}

/// Each board's row puts the clock and the UART on the maker's pins.
#[test]
fn each_board_row_has_the_makers_pins() {
    for board in BOARDS {
        let site = |port: &str| {
            board
                .pins
                .iter()
                .find(|p| p.port == port)
                .map(|p| p.site)
                .unwrap_or_else(|| panic!("{}: no pin for {port}", board.name))
        };
        assert_eq!(
            [site("clk"), site("rx"), site("tx")],
            maker(board).pins,
            "{}",
            board.name
        );
    }
}

/// A board's top as the bench drives it: its clock, its UART lines and
/// its LEDs.
trait Top: Block {
    fn build(board: &Board, profile: Profile, mode: Mode, cpb: u16) -> Self;
    fn clk(&mut self) -> &mut Signal<In, Clock>;
    fn rx(&mut self) -> &mut Signal<In, Bit>;
    fn tx(&self) -> bool;
    /// The levels on the lost and ready LEDs' pins.
    fn leds(&self) -> (bool, bool);
}

/// [`Top`] for a board top whose ports are named as [`BoardTop`]'s, made
/// by `$build`.
macro_rules! top {
    ($top:ty, |$board:ident, $profile:ident, $mode:ident, $cpb:ident| $build:expr) => {
        impl Top for $top {
            fn build($board: &Board, $profile: Profile, $mode: Mode, $cpb: u16) -> Self {
                $build
            }
            fn clk(&mut self) -> &mut Signal<In, Clock> {
                &mut self.clk
            }
            fn rx(&mut self) -> &mut Signal<In, Bit> {
                &mut self.rx
            }
            fn tx(&self) -> bool {
                self.tx.val()
            }
            fn leds(&self) -> (bool, bool) {
                (self.led_lost.val(), self.led_ready.val())
            }
        }
    };
}

top!(BoardTop, |board, profile, mode, cpb| BoardTop::new(
    board, profile, mode, cpb
));
top!(WideEchoTop, |board, profile, mode, cpb| {
    assert_eq!(mode, Mode::Wide);
    WideEchoTop::new(board, profile, cpb)
});

/// The board, a UART on each side of it, and a clock.
struct Bench<T: Top> {
    uut: T,
    /// The test's UARTs' bit time, in clock cycles.
    bit: f64,
    cycles: u64,
    /// The receive line's future, one level per cycle.
    rx_wave: std::collections::VecDeque<bool>,
    /// Where the receive line's queued bits end, in (fractional) cycles.
    rx_end: f64,
    /// The transmit side's UART receiver: the bit it waits for, the byte so
    /// far, and the cycle at which it samples next.
    tx_state: Option<(usize, u16)>,
    tx_sample_at: f64,
    received: Vec<u8>,
}

impl<T: Top> Bench<T> {
    /// The top of `board` with `cpb` clocks per bit, and UARTs of bit time
    /// `bit`.
    fn new(board: &Board, profile: Profile, mode: Mode, cpb: u16, bit: f64) -> Self {
        let mut uut = T::build(board, profile, mode, cpb);
        uut.connect_all();
        check_all(&uut).expect("the board top passes rust-hdl's checks");
        uut.rx().next = true;
        Bench {
            uut,
            bit,
            cycles: 0,
            rx_wave: Default::default(),
            rx_end: 0.0,
            tx_state: None,
            tx_sample_at: 0.0,
            received: Vec::new(),
        }
    }

    /// Queues `bytes` on the receive line, 8N1, with one idle bit after each.
    fn send(&mut self, bytes: &[u8]) {
        let start = self.cycles as f64 + self.rx_wave.len() as f64;
        self.rx_end = self.rx_end.max(start);
        for &b in bytes {
            let bits = std::iter::once(false)
                .chain((0..8).map(|i| b >> i & 1 == 1))
                .chain([true, true]);
            for level in bits {
                self.rx_end += self.bit;
                let queued = self.cycles as usize + self.rx_wave.len();
                let cycles = (self.rx_end.round() as usize).saturating_sub(queued);
                self.rx_wave.extend(std::iter::repeat_n(level, cycles));
            }
        }
    }

    /// Queues `bits` bit times of an idle line.
    fn pause(&mut self, bits: usize) {
        let start = self.cycles as f64 + self.rx_wave.len() as f64;
        self.rx_end = self.rx_end.max(start) + bits as f64 * self.bit;
        let queued = self.cycles as usize + self.rx_wave.len();
        let cycles = (self.rx_end.round() as usize).saturating_sub(queued);
        self.rx_wave.extend(std::iter::repeat_n(true, cycles));
    }

    fn cycle(&mut self) {
        let rx = self.rx_wave.pop_front().unwrap_or(true);
        self.uut.rx().next = rx;
        self.uut.clk().next = Clock::from(false);
        assert!(simulate(&mut self.uut, 64), "the board did not settle");
        self.uut.clk().next = Clock::from(true);
        assert!(simulate(&mut self.uut, 64), "the board did not settle");
        self.cycles += 1;
        // A UART receiver on tx: sample each bit in its middle.
        let tx = self.uut.tx();
        match self.tx_state {
            None => {
                if !tx {
                    self.tx_state = Some((0, 0));
                    self.tx_sample_at = self.cycles as f64 + self.bit / 2.0;
                }
            }
            Some((bit, byte)) => {
                if self.cycles as f64 >= self.tx_sample_at {
                    self.tx_sample_at += self.bit;
                    match bit {
                        0 => {
                            assert!(!tx, "a glitch on tx at cycle {}", self.cycles);
                            self.tx_state = Some((1, 0));
                        }
                        1..=8 => self.tx_state = Some((bit + 1, byte | (tx as u16) << (bit - 1))),
                        _ => {
                            assert!(tx, "a framing error on tx at cycle {}", self.cycles);
                            self.received.push(byte as u8);
                            self.tx_state = None;
                        }
                    }
                }
            }
        }
    }

    /// Runs until the receive line is drained and tx has been idle for
    /// `quiet` bit times.
    fn run_until_quiet(&mut self, quiet: usize, limit: u64) {
        let mut idle = 0;
        while (idle as f64) < quiet as f64 * self.bit {
            self.cycle();
            if self.rx_wave.is_empty() && self.tx_state.is_none() && self.uut.tx() {
                idle += 1;
            } else {
                idle = 0;
            }
            assert!(self.cycles < limit, "no quiet after {limit} cycles");
        }
    }
}

/// The reference's lines for `input`, a message per line feed.
fn expected(input: &[u8], profile: Profile) -> String {
    let mut out = String::new();
    for message in input.split_inclusive(|b| *b == b'\n') {
        for unit in decode(message, profile) {
            out += &unit_line(&unit);
            out.push('\n');
        }
    }
    out
}

/// Sends `input` to `board`'s top in `mode`, at `cpb` clocks per bit
/// with UARTs of bit time `bit`, and checks that `want` comes back, with
/// no input lost.
fn check_mode(
    board: &Board,
    profile: Profile,
    mode: Mode,
    rate: (u16, f64),
    input: &[u8],
    want: &[u8],
) {
    check_bursts(board, profile, mode, rate, &[(input, 0)], want);
}

/// [`check_mode`] with the input sent in bursts, each followed by its
/// pause, in bit times.
fn check_bursts(
    board: &Board,
    profile: Profile,
    mode: Mode,
    rate: (u16, f64),
    bursts: &[(&[u8], usize)],
    want: &[u8],
) {
    match mode {
        Mode::Wide => check_on::<WideEchoTop>(board, profile, mode, rate, bursts, want),
        _ => check_on::<BoardTop>(board, profile, mode, rate, bursts, want),
    }
}

fn check_on<T: Top>(
    board: &Board,
    profile: Profile,
    mode: Mode,
    (cpb, bit): (u16, f64),
    bursts: &[(&[u8], usize)],
    want: &[u8],
) {
    let mut bench = Bench::<T>::new(board, profile, mode, cpb, bit);
    // The line idles while the board comes out of its power-on reset.
    for _ in 0..64 {
        bench.cycle();
    }
    for &(burst, pause) in bursts {
        bench.send(burst);
        bench.pause(pause);
    }
    bench.run_until_quiet(40, 200_000_000);
    // The bytes themselves: a lossy view of both would hide an echo that
    // sends malformed input back unchanged.
    assert!(
        bench.received == want,
        "{} {profile} {mode:?}, {} cycles: got {:?}, want {:?}",
        board.name,
        bench.cycles,
        String::from_utf8_lossy(&bench.received),
        String::from_utf8_lossy(want)
    );
    // An LED is lit when its pin is at the level its maker documents.
    let lit = |level: bool| level != maker(board).leds_active_low;
    let (lost, ready) = bench.uut.leds();
    assert!(
        !lit(lost),
        "{}: the lost LED is lit: input was lost",
        board.name
    );
    assert!(lit(ready), "{}: the ready LED is off", board.name);
}

/// A short input with every kind of unit, and what the board's lines and
/// echo modes send back for it.
const SHORT: &[u8] = b"A\xC3\xA9\xE2\x82\xED\xA0\x80\xF0\x9F\x98\x80\xFF\n";

fn lossy(input: &[u8]) -> Vec<u8> {
    String::from_utf8_lossy(input).into_owned().into_bytes()
}

/// A few clocks per bit, for long inputs; the test's UARTs at the same
/// rate.
const FAST: (u16, f64) = (8, 8.0);

/// Each board, from its own oscillator, talks to a UART at 115200 baud
/// timed from the maker's clock: a board whose row or divisor is wrong
/// reads garbage or sends it.
#[test]
#[ignore = "slow: every board's line mode at full baud timing"]
fn each_board_prints_a_line_per_unit_at_115200_baud() {
    for board in BOARDS {
        let top = BoardTop::for_board(board, Profile::Rfc3629, Mode::Lines);
        let rate = (top.clocks_per_bit(), bit_time(board));
        let want = expected(SHORT, Profile::Rfc3629);
        check_mode(
            board,
            Profile::Rfc3629,
            Mode::Lines,
            rate,
            SHORT,
            want.as_bytes(),
        );
    }
}

/// Echo mode on each board at 115200 baud: what comes back is the input
/// as `String::from_utf8_lossy` makes it.
#[test]
fn each_board_echoes_at_115200_baud() {
    for board in BOARDS {
        let top = BoardTop::for_board(board, Profile::Rfc3629, Mode::Echo);
        let rate = (top.clocks_per_bit(), bit_time(board));
        check_mode(
            board,
            Profile::Rfc3629,
            Mode::Echo,
            rate,
            SHORT,
            &lossy(SHORT),
        );
    }
}

fn random_input(rng: &mut StdRng, profile: Profile, len: usize) -> Vec<u8> {
    let mut out = Vec::new();
    while out.len() < len {
        match rng.gen_range(0..6) {
            0 | 1 => {
                let top =
                    [0x7F, 0x7FF, 0xFFFF, 0x1F_FFFF, 0x3FF_FFFF, 0x7FFF_FFFF][rng.gen_range(0..6)];
                if let Some(b) = encode(rng.gen_range(0..=top.min(profile.max_value())), profile) {
                    out.extend(b);
                }
            }
            2 => {
                if let Some(b) = encode(rng.gen_range(0x80..=profile.max_value()), profile) {
                    out.extend(&b[..rng.gen_range(1..b.len())]);
                }
            }
            3 => out.push(rng.gen_range(0x80..=0xBF)),
            4 => out.push(rng.gen_range(0xC0..=0xFF)),
            _ => out.push(b'\n'),
        }
    }
    out.push(b'\n');
    out
}

/// Every board, on long random input at a few clocks per bit: the lines
/// of the reference in both profiles (the boards take turns), and the echo
/// of `String::from_utf8_lossy` (a line feed ends a message, but it also
/// breaks any sequence open before it, so the messages do not change the
/// answer; rfc3629, whose decoder is Rust's).
#[test]
#[ignore = "slow: long random input through every board in both modes"]
fn each_board_matches_the_reference_on_random_input() {
    let mut rng = StdRng::seed_from_u64(0xb0a2d);
    for (i, board) in BOARDS.iter().enumerate() {
        let profile = Profile::ALL[i % Profile::ALL.len()];
        let input = random_input(&mut rng, profile, 400);
        let want = expected(&input, profile);
        check_mode(board, profile, Mode::Lines, FAST, &input, want.as_bytes());
        let input = random_input(&mut rng, Profile::Rfc3629, 300);
        check_mode(
            board,
            Profile::Rfc3629,
            Mode::Echo,
            FAST,
            &input,
            &lossy(&input),
        );
    }
}

/// Input beyond the FIFO lights the lost LED, at the board's polarity.
#[test]
fn each_board_lights_the_lost_led_when_input_is_lost() {
    for board in BOARDS {
        let mut bench =
            Bench::<BoardTop>::new(board, Profile::Rfc3629, Mode::Lines, FAST.0, FAST.1);
        for _ in 0..64 {
            bench.cycle();
        }
        // More than the 512-byte FIFO and the decoder hold, far faster
        // than the lines can go out.
        bench.send(&[b'A'; 600]);
        while !bench.rx_wave.is_empty() {
            bench.cycle();
        }
        for _ in 0..20 * 8 {
            bench.cycle();
        }
        assert!(
            bench.uut.leds().0 != maker(board).leds_active_low,
            "{}: input was lost but the lost LED is off",
            board.name
        );
    }
}

/// The wide demo on each board that has it, at 115200 baud: the echo of
/// `String::from_utf8_lossy`, the bytes reaching the 4-lane decoder four
/// to a beat.
#[test]
fn each_wide_board_echoes_at_115200_baud() {
    let mut wide = 0;
    for board in BOARDS.iter().filter(|b| b.wide) {
        let rate = (clocks_per_bit(board.clock_hz, BAUD), bit_time(board));
        check_mode(
            board,
            Profile::Rfc3629,
            Mode::Wide,
            rate,
            SHORT,
            &lossy(SHORT),
        );
        wide += 1;
    }
    assert!(wide > 0, "no board has the wide demo");
}

/// The wide demo on random input sent in bursts of 1 to 7 bytes with
/// pauses longer than the gatherer's timeout between them, at a few
/// clocks per bit: beats leave partly filled, with their bytes in the top
/// lanes, and sequences split across beats and bursts; what comes back is
/// still the echo of `String::from_utf8_lossy`.
#[test]
fn each_wide_board_echoes_random_bursts() {
    let mut rng = StdRng::seed_from_u64(0x3d1de);
    for board in BOARDS.iter().filter(|b| b.wide) {
        let input = random_input(&mut rng, Profile::Rfc3629, 160);
        let mut bursts = Vec::new();
        let mut rest = &input[..];
        while !rest.is_empty() {
            let (burst, after) = rest.split_at(rng.gen_range(1..=7).min(rest.len()));
            // Longer than four bytes' time, the gatherer's timeout, or not.
            bursts.push((burst, [0, 2, 60][rng.gen_range(0..3)]));
            rest = after;
        }
        check_bursts(
            board,
            Profile::Rfc3629,
            Mode::Wide,
            FAST,
            &bursts,
            &lossy(&input),
        );
    }
}

/// The gatherer alone: four bytes in a row leave as one beat, in lane
/// order; a byte marked last leaves at once, in the top lane; a lone byte
/// leaves after the timeout's idle cycles, not before.
#[test]
fn the_byte_gatherer_fills_beats_and_flushes_after_its_timeout() {
    const TIMEOUT: usize = 10;
    type Beat = (u32, u8, bool);
    let mut g = ByteGatherer::new(TIMEOUT as u16);
    g.connect_all();
    // One cycle with `byte` offered (or none), m_axis_tready high: the
    // beat on m_axis as the cycle began (tdata, tkeep, tlast), and whether
    // the byte went in.
    let cycle = |g: &mut ByteGatherer, byte: Option<(u8, bool)>| -> (Option<Beat>, bool) {
        // A null lane's byte is any: the kept lanes only.
        let beat = g.m_axis_tvalid.val().then(|| {
            let keep = g.m_axis_tkeep.val().index() as u8;
            let kept = (0..4)
                .filter(|lane| keep >> lane & 1 == 1)
                .fold(0, |mask, lane| mask | 0xFF << (8 * lane));
            (
                g.m_axis_tdata.val().index() as u32 & kept,
                keep,
                g.m_axis_tlast.val(),
            )
        });
        let taken = byte.is_some() && g.s_axis_tready.val();
        g.s_axis_tvalid.next = byte.is_some();
        let (data, last) = byte.unwrap_or_default();
        g.s_axis_tdata.next = (data as u64).into();
        g.s_axis_tlast.next = last;
        g.m_axis_tready.next = true;
        g.clk.next = Clock::from(false);
        assert!(simulate(g, 64));
        g.clk.next = Clock::from(true);
        assert!(simulate(g, 64));
        (beat, taken)
    };
    let mut beats = Vec::new();
    // Offers `byte` until it goes in, collecting the beats meanwhile.
    let send = |g: &mut ByteGatherer, beats: &mut Vec<Beat>, byte: (u8, bool)| loop {
        let (beat, taken) = cycle(g, Some(byte));
        beats.extend(beat);
        if taken {
            break;
        }
    };
    g.rst.next = true;
    cycle(&mut g, None);
    g.rst.next = false;
    for byte in [0x41, 0x42, 0x43, 0x44] {
        send(&mut g, &mut beats, (byte, false));
    }
    send(&mut g, &mut beats, (0x0A, true));
    for _ in 0..2 {
        beats.extend(cycle(&mut g, None).0);
    }
    assert_eq!(
        beats,
        [(0x4443_4241, 0b1111, false), (0x0A00_0000, 0b1000, true)]
    );
    send(&mut g, &mut beats, (0x45, false));
    let waited = (1..100)
        .find(|_| cycle(&mut g, None).0 == Some((0x4500_0000, 0b1000, false)))
        .expect("a lone byte leaves");
    // TIMEOUT + 1 idle cycles counted, then the beat's cycle.
    assert_eq!(waited, TIMEOUT + 2, "the lone byte left early or late");
}
