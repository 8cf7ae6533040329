//! Ports wider than 64 bits, bit for bit: a 16-lane register slice
//! (128-bit `s_axis_tdata`, 512-bit `m_axis_tdata`, 64-bit `m_axis_tuser`,
//! `tkeep` on both sides) whose outputs are known bit by bit, so that where
//! each lane lands in rust-hdl's engine and in the VCD is checked against
//! the block itself rather than through a decoder. It is no decoder (its
//! words are its input bytes, four a lane). The wide decoders' own ports go
//! through the Verilator engine in `engines.rs` and through Icarus and
//! Verilator in `cosim.rs`.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rust_hdl::prelude::*;
use utf8hdl_hdl::Profile;
use utf8hdl_sim::core::{Beat, Core, Inputs, Lanes};
use utf8hdl_sim::cores::utf8_decoder::{Reference, Word};
use utf8hdl_sim::harness::Harness;
use utf8hdl_sim::waveform::{gtkw, TimescaleUnit, VcdRecorder};

/// A register slice of 16 byte lanes: `m_axis` shows each accepted beat
/// one cycle later, its bytes in the low 128 bits of `m_axis_tdata` and
/// again in the high 128 (so every word of the port matters), and the low
/// 64 in `m_axis_tuser`; a skid register keeps `s_axis_tready` a flop at
/// full rate.
#[derive(LogicBlock, Default)]
pub struct WideSlice {
    pub clk: Signal<In, Clock>,
    pub rst: Signal<In, Bit>,
    pub s_axis_tdata: Signal<In, Bits<128>>,
    pub s_axis_tkeep: Signal<In, Bits<16>>,
    pub s_axis_tvalid: Signal<In, Bit>,
    pub s_axis_tready: Signal<Out, Bit>,
    pub s_axis_tlast: Signal<In, Bit>,
    pub m_axis_tdata: Signal<Out, Bits<512>>,
    pub m_axis_tuser: Signal<Out, Bits<64>>,
    pub m_axis_tkeep: Signal<Out, Bits<16>>,
    pub m_axis_tvalid: Signal<Out, Bit>,
    pub m_axis_tready: Signal<In, Bit>,
    pub m_axis_tlast: Signal<Out, Bit>,
    advance: Signal<Local, Bit>,
    accept: Signal<Local, Bit>,
    ready: DFF<Bit>,
    main_valid: DFF<Bit>,
    main_tdata: DFF<Bits<128>>,
    main_tkeep: DFF<Bits<16>>,
    main_tlast: DFF<Bit>,
    skid_valid: DFF<Bit>,
    skid_tdata: DFF<Bits<128>>,
    skid_tkeep: DFF<Bits<16>>,
    skid_tlast: DFF<Bit>,
}

impl Logic for WideSlice {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clk, ready, main_valid, main_tdata, main_tkeep, main_tlast, skid_valid,
            skid_tdata, skid_tkeep, skid_tlast
        );
        self.advance.next = self.m_axis_tready.val() | !self.main_valid.q.val();
        self.accept.next = self.s_axis_tvalid.val() & self.ready.q.val();
        if self.advance.val() {
            if self.skid_valid.q.val() {
                self.main_valid.d.next = true;
                self.main_tdata.d.next = self.skid_tdata.q.val();
                self.main_tkeep.d.next = self.skid_tkeep.q.val();
                self.main_tlast.d.next = self.skid_tlast.q.val();
                self.skid_valid.d.next = false;
            } else {
                self.main_valid.d.next = self.accept.val();
                self.main_tdata.d.next = self.s_axis_tdata.val();
                self.main_tkeep.d.next = self.s_axis_tkeep.val();
                self.main_tlast.d.next = self.s_axis_tlast.val();
            }
        } else if self.accept.val() {
            self.skid_valid.d.next = true;
            self.skid_tdata.d.next = self.s_axis_tdata.val();
            self.skid_tkeep.d.next = self.s_axis_tkeep.val();
            self.skid_tlast.d.next = self.s_axis_tlast.val();
        }
        self.ready.d.next = self.advance.val() | !(self.skid_valid.q.val() | self.accept.val());
        if self.rst.val() {
            self.main_valid.d.next = false;
            self.skid_valid.d.next = false;
            self.ready.d.next = true;
        }
        self.s_axis_tready.next = self.ready.q.val();
        self.m_axis_tdata.next = bit_cast::<512, 128>(self.main_tdata.q.val())
            | (bit_cast::<512, 128>(self.main_tdata.q.val()) << 384);
        self.m_axis_tuser.next = self.main_tdata.q.val().get_bits::<64>(0);
        self.m_axis_tkeep.next = self.main_tkeep.q.val();
        self.m_axis_tvalid.next = self.main_valid.q.val();
        self.m_axis_tlast.next = self.main_tlast.q.val();
    }
}

/// The slice, described as a core.
#[derive(Copy, Clone)]
struct Slice;

impl Core for Slice {
    const KIND: utf8hdl_sim::cores::Kind = utf8hdl_sim::cores::Kind::Decoder;
    type Block = WideSlice;
    type Input = u8;
    type Output = Word;
    /// Its ports are a decoder's, but not its function: these tests read
    /// its ports and waveform, and never run the checker.
    type Model = Reference;
    const STATE: &'static [&'static str] = &["main_tdata.q", "skid_valid.q", "skid_tdata.q"];
    const LATENCY: u64 = 1;
    const ERROR_KINDS: &'static [utf8hdl_sim::reference::ErrorKind] = &[];

    fn name(&self) -> String {
        "wide_slice_x16".into()
    }
    fn profile(&self) -> Profile {
        Profile::Rfc3629
    }
    fn model(&self) -> Reference {
        Reference(Profile::Rfc3629)
    }
    fn block(&self) -> WideSlice {
        WideSlice::default()
    }
    utf8hdl_sim::axis_io!(WideSlice; m_tuser tkeep);
}

/// Random traffic: beats with random null lanes and tlast, held until
/// taken, random backpressure and an occasional reset.
fn stimulus(seed: u64, cycles: usize) -> impl FnMut(bool) -> Inputs<u8> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut pending: Option<Beat<u8>> = None;
    let mut left = cycles;
    move |accepted| {
        left -= 1;
        if accepted {
            pending = None;
        }
        if pending.is_none() && rng.gen_bool(0.7) {
            let lanes: Vec<Option<u8>> = (0..16)
                .map(|_| rng.gen_bool(0.8).then(|| rng.gen()))
                .collect();
            pending = Some(Beat::new(&lanes, rng.gen_bool(0.2)));
        }
        let rst = left.is_multiple_of(997);
        if rst {
            pending = None;
        }
        Inputs {
            rst,
            s_axis: pending,
            m_axis_tready: rng.gen_bool(0.6),
        }
    }
}

#[test]
fn its_ports_say_sixteen_lanes_with_tkeep() {
    assert_eq!(
        Slice.lanes().unwrap(),
        Lanes {
            count: 16,
            tkeep: true
        }
    );
}

/// What rust-hdl's engine reads from the 512-bit port is what the block
/// holds: the bytes of the beat taken, lane 0 lowest.
#[test]
fn a_beat_crosses_the_wide_ports_lane_for_lane() {
    let mut harness = Harness::new(Slice);
    let lanes: Vec<Option<u8>> = (0..16)
        .map(|i| (i != 5).then_some(0x10 + i as u8))
        .collect();
    let beat = Beat::new(&lanes, true);
    assert!(harness.cycle(Some(beat), true).accepted);
    let shown = harness
        .cycle(None, true)
        .delivered()
        .copied()
        .expect("one cycle later");
    let byte = |lane: usize| beat.lanes[lane];
    let expected: Vec<u32> = (0..4)
        .map(|w| u32::from_le_bytes([0, 1, 2, 3].map(|i| byte(4 * w + i))))
        .collect();
    let tdata: Vec<u32> = shown.lanes[..16].iter().map(|w| w.tdata).collect();
    assert_eq!(tdata[..4], expected[..]);
    assert_eq!(tdata[4..12], [0; 8]);
    assert_eq!(tdata[12..16], expected[..]);
    assert_eq!(shown.tkeep, 0xFFFF & !(1 << 5));
    assert!(shown.tlast);
    // m_axis_tuser is the low 64 bits, a nibble a lane.
    assert_eq!(shown.lanes[0].tuser, byte(0) & 0xF);
    assert_eq!(shown.lanes[1].tuser, byte(0) >> 4);
    assert_eq!(shown.lanes[15].tuser, byte(7) >> 4);
}

/// The VCD holds each wide value as it stood: read back with the `vcd`
/// crate, `m_axis_tdata` at every cycle is the beat the harness saw.
#[test]
fn the_waveform_shows_wide_values() {
    let mut recorder =
        VcdRecorder::new(Vec::new(), &Slice, 0..u64::MAX, 10, TimescaleUnit::NS).unwrap();
    let mut harness = Harness::new(Slice);
    harness.probe_window = recorder.window();
    let mut next = stimulus(3, 400);
    let mut accepted = false;
    let mut shown = Vec::new();
    for _ in 0..400 {
        let cycle = harness.step(&next(accepted), &mut |c, values| {
            recorder.record(c, values.unwrap()).unwrap();
        });
        accepted = cycle.accepted;
        shown.push(
            cycle
                .m_axis()
                .map(|beat| beat.lanes[..16].iter().map(|w| w.tdata).collect::<Vec<_>>()),
        );
    }
    let vcd = recorder.finish().unwrap();
    let mut parser = vcd::Parser::new(&vcd[..]);
    let header = parser.parse_header().unwrap();
    let tdata = header
        .find_var(&["wide_slice_x16", "m_axis_tdata"])
        .expect("m_axis_tdata is in the VCD");
    assert_eq!(tdata.size, 512);
    let mut time = 0;
    let mut at_cycle = vec![None; 400];
    for command in parser {
        match command.unwrap() {
            vcd::Command::Timestamp(t) => time = t,
            vcd::Command::ChangeVector(id, bits) if id == tdata.code => {
                // Bits come most significant first, leading zeros dropped.
                let mut value = vec![0u32; 16];
                let bits: Vec<vcd::Value> = bits.iter().collect();
                for (i, &bit) in bits.iter().rev().enumerate() {
                    value[i / 32] |= u32::from(bit == vcd::Value::V1) << (i % 32);
                }
                // A cycle's values appear 1 ns after its edge; the closing
                // checkpoint comes after the last cycle.
                if let Some(slot) = at_cycle.get_mut((time / 10) as usize) {
                    *slot = Some(value.clone());
                }
            }
            _ => {}
        }
    }
    let mut current = vec![0u32; 16];
    for (cycle, beat) in shown.iter().enumerate() {
        if let Some(v) = &at_cycle[cycle] {
            current.clone_from(v);
        }
        if let Some(lanes) = beat {
            assert_eq!(&current, lanes, "cycle {cycle}");
        }
    }
    let save = gtkw(&Slice, "slice.vcd", "slice.gtkw").unwrap();
    assert!(
        save.contains("wide_slice_x16.m_axis_tdata[511:0]"),
        "{save}"
    );
}
