//! The iCEBreaker board top, simulated bit by bit: bytes go in on the UART
//! receive line, and the lines that come out on the transmit line are those
//! of `utf8hdl reference --format lines`, message (line) by message; or, in
//! echo mode, the input as `String::from_utf8_lossy` makes it.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rust_hdl::prelude::*;
use utf8hdl_hdl::Profile;
use utf8hdl_sim::output::unit_line;
use utf8hdl_sim::reference::{decode, encode};
use utf8hdl_synth::board::{clocks_per_bit, IceBreakerTop, Mode, BAUD, CLOCK_HZ};

/// The board, a UART on each side of it, and a clock.
struct Bench {
    uut: IceBreakerTop,
    cpb: usize,
    cycles: u64,
    /// The receive line's future, one level per cycle.
    rx_wave: std::collections::VecDeque<bool>,
    /// The transmit side's UART receiver.
    tx_state: Option<(usize, u16)>,
    tx_count: usize,
    received: Vec<u8>,
}

impl Bench {
    fn new(profile: Profile, mode: Mode, cpb: u16) -> Self {
        let mut uut = IceBreakerTop::new(profile, mode, cpb);
        uut.connect_all();
        check_all(&uut).expect("the board top passes rust-hdl's checks");
        uut.rx.next = true;
        Bench {
            uut,
            cpb: cpb as usize,
            cycles: 0,
            rx_wave: Default::default(),
            tx_state: None,
            tx_count: 0,
            received: Vec::new(),
        }
    }

    /// Queues `bytes` on the receive line, 8N1, with one idle bit after each.
    fn send(&mut self, bytes: &[u8]) {
        for &b in bytes {
            let bits = std::iter::once(false)
                .chain((0..8).map(|i| b >> i & 1 == 1))
                .chain([true, true]);
            for bit in bits {
                self.rx_wave.extend(std::iter::repeat_n(bit, self.cpb));
            }
        }
    }

    fn cycle(&mut self) {
        let rx = self.rx_wave.pop_front().unwrap_or(true);
        self.uut.rx.next = rx;
        self.uut.clk.next = Clock::from(false);
        assert!(simulate(&mut self.uut, 64), "the board did not settle");
        self.uut.clk.next = Clock::from(true);
        assert!(simulate(&mut self.uut, 64), "the board did not settle");
        self.cycles += 1;
        // A UART receiver on tx: sample each bit in its middle.
        let tx = self.uut.tx.val();
        match self.tx_state {
            None => {
                if !tx {
                    self.tx_state = Some((0, 0));
                    self.tx_count = self.cpb / 2;
                }
            }
            Some((bit, byte)) => {
                self.tx_count -= 1;
                if self.tx_count == 0 {
                    self.tx_count = self.cpb;
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
        while idle < quiet * self.cpb {
            self.cycle();
            if self.rx_wave.is_empty() && self.tx_state.is_none() && self.uut.tx.val() {
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

fn check(profile: Profile, cpb: u16, input: &[u8]) {
    let want = expected(input, profile);
    check_mode(profile, Mode::Lines, cpb, input, want.as_bytes());
}

/// Sends `input` to the board in `mode` and checks that `want` comes back,
/// with no input lost.
fn check_mode(profile: Profile, mode: Mode, cpb: u16, input: &[u8], want: &[u8]) {
    let mut bench = Bench::new(profile, mode, cpb);
    // The line idles while the board comes out of its power-on reset.
    for _ in 0..64 {
        bench.cycle();
    }
    bench.send(input);
    bench.run_until_quiet(40, 200_000_000);
    // The bytes themselves: a lossy view of both would hide an echo that
    // sends malformed input back unchanged.
    assert!(
        bench.received == want,
        "{profile} {mode:?}, {} cycles: got {:?}, want {:?}",
        bench.cycles,
        String::from_utf8_lossy(&bench.received),
        String::from_utf8_lossy(want)
    );
    assert!(
        bench.uut.led_red_n.val(),
        "the red LED is lit: input was lost"
    );
    assert!(!bench.uut.led_green_n.val(), "the green LED is off");
}

#[test]
fn board_prints_a_line_per_unit_at_115200_baud() {
    let cpb = clocks_per_bit(CLOCK_HZ, BAUD);
    assert_eq!(cpb, 104);
    check(
        Profile::Rfc3629,
        cpb,
        b"A\xC3\xA9\xE2\x82\xED\xA0\x80\xF0\x9F\x98\x80\xFF\n",
    );
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

#[test]
fn board_matches_the_reference_on_random_input() {
    let mut rng = StdRng::seed_from_u64(0xb0a2d);
    for profile in Profile::ALL {
        let input = random_input(&mut rng, profile, 400);
        check(profile, 8, &input);
    }
}

#[test]
fn board_lights_the_red_led_when_input_is_lost() {
    let mut bench = Bench::new(Profile::Rfc3629, Mode::Lines, 8);
    for _ in 0..64 {
        bench.cycle();
    }
    // More than the 512-byte FIFO and the decoder hold, far faster than
    // the lines can go out.
    bench.send(&[b'A'; 600]);
    while !bench.rx_wave.is_empty() {
        bench.cycle();
    }
    for _ in 0..20 * 8 {
        bench.cycle();
    }
    assert!(
        !bench.uut.led_red_n.val(),
        "input was lost but the red LED is off"
    );
}

/// Echo mode: what comes back is the input as `String::from_utf8_lossy`
/// makes it (a line feed ends a message, but it also breaks any sequence
/// open before it, so the messages do not change the answer), at 115200
/// baud on a short input and faster on a random one (rfc3629, whose
/// decoder is Rust's).
#[test]
fn echo_mode_sends_back_what_from_utf8_lossy_makes() {
    let short = b"A\xC3\xA9\xE2\x82\xED\xA0\x80\xF0\x9F\x98\x80\xFF\n";
    let lossy = |input: &[u8]| String::from_utf8_lossy(input).into_owned().into_bytes();
    let cpb = clocks_per_bit(CLOCK_HZ, BAUD);
    check_mode(Profile::Rfc3629, Mode::Echo, cpb, short, &lossy(short));
    let mut rng = StdRng::seed_from_u64(0xec40);
    let input = random_input(&mut rng, Profile::Rfc3629, 300);
    check_mode(Profile::Rfc3629, Mode::Echo, 8, &input, &lossy(&input));
}
