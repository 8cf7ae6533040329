//! One beat of a stream, its lanes packed into and out of the ports'
//! 32-bit words, and what a harness drives and samples in a cycle.

use std::fmt;

use super::*;

/// The lanes whose bits are set in `tkeep`, lane 0 first (a step per
/// kept lane: this runs on every beat).
fn kept_lanes(mut tkeep: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let lane = tkeep.trailing_zeros() as usize;
        tkeep &= tkeep.wrapping_sub(1);
        (lane < 32).then_some(lane)
    })
}

/// One beat of a stream: an item in each lane whose `tkeep` bit is set,
/// lane 0 first in stream order. A null lane (`tkeep` low) carries no item,
/// whatever its bits; every lane counts in equality, since a stalled beat
/// holds all of its bits. On `m_axis` the kept lanes are 0 to *k*−1
/// ([`Beat::is_packed`]), and a null beat (`tkeep` 0) only ends a message.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Beat<L: Lane> {
    /// Lane *i*; lanes beyond the core's are unused.
    pub lanes: [L; MAX_LANES],
    /// Bit *i* high: lane *i* carries an item. All lanes of a core
    /// without `tkeep`.
    pub tkeep: u32,
    pub tlast: bool,
}

/// The ports' values in 32-bit words, least significant first.
pub type PortWords = [u32; MAX_LANES];

impl<L: Lane> Beat<L> {
    /// A beat of `lanes` (`None` for a null lane).
    pub fn new(lanes: &[Option<L>], tlast: bool) -> Beat<L> {
        let mut beat = Beat {
            lanes: [L::default(); MAX_LANES],
            tkeep: 0,
            tlast,
        };
        for (lane, item) in lanes.iter().enumerate() {
            if let Some(item) = item {
                beat.lanes[lane] = *item;
                beat.tkeep |= 1 << lane;
            }
        }
        beat
    }

    /// The beat of a 1-lane core: one item.
    pub fn one(item: L, tlast: bool) -> Beat<L> {
        Beat::new(&[Some(item)], tlast)
    }

    /// The items it carries, in stream order.
    pub fn items(&self) -> impl Iterator<Item = L> + '_ {
        kept_lanes(self.tkeep).map(|lane| self.lanes[lane])
    }

    /// Its `tkeep` has no hole: lanes 0 to *k*−1 and no others.
    pub fn is_packed(&self) -> bool {
        self.tkeep & self.tkeep.wrapping_add(1) == 0
    }

    /// `tdata` of its first `count` lanes, `L::TDATA` bits a lane.
    #[inline]
    pub fn tdata_words(&self, count: usize) -> PortWords {
        let mut words = [0; MAX_LANES];
        self.pack_tdata(count, &mut words);
        words
    }

    /// `tuser` of its first `count` lanes, `L::TUSER` bits a lane.
    #[inline]
    pub fn tuser_words(&self, count: usize) -> PortWords {
        let mut words = [0; MAX_LANES];
        self.pack_tuser(count, &mut words);
        words
    }

    /// [`Beat::tdata_words`] into `words`, which hold at least the port's
    /// words and are all overwritten: a compiled model's inputs, filled in
    /// place on every cycle.
    #[inline]
    pub fn pack_tdata(&self, count: usize, words: &mut [u32]) {
        pack(self.lanes[..count].iter().map(Lane::tdata), L::TDATA, words);
    }

    /// [`Beat::tuser_words`] into `words`, as [`Beat::pack_tdata`].
    #[inline]
    pub fn pack_tuser(&self, count: usize, words: &mut [u32]) {
        pack(self.lanes[..count].iter().map(Lane::tuser), L::TUSER, words);
    }

    /// Makes this beat the one on ports of `count` lanes whose values are
    /// `tdata` and `tuser` (in words, see [`PortWords`]), in place; `tkeep`
    /// is `None` for a core without it. Lanes beyond `count` keep their
    /// values.
    #[inline]
    pub fn load(
        &mut self,
        count: usize,
        tdata: &[u32],
        tuser: &[u32],
        tkeep: Option<u32>,
        tlast: bool,
    ) {
        self.tkeep = tkeep.unwrap_or_else(|| {
            Lanes {
                count,
                tkeep: false,
            }
            .all()
        });
        self.tlast = tlast;
        for (lane, item) in self.lanes[..count].iter_mut().enumerate() {
            *item = L::from_bits(unpack(tdata, L::TDATA, lane), unpack(tuser, L::TUSER, lane));
        }
    }

    /// The beat on ports of `count` lanes (see [`Beat::load`]).
    pub fn from_words(
        count: usize,
        tdata: &[u32],
        tuser: &[u32],
        tkeep: Option<u32>,
        tlast: bool,
    ) -> Beat<L> {
        let mut beat = Beat::new(&[], tlast);
        beat.load(count, tdata, tuser, tkeep, tlast);
        beat
    }
}

/// `values` side by side, `width` bits each (at most 32), in the 32-bit
/// `words` (the rest of them zero); a lane's bits may straddle two words.
/// Two shifts rather than bitvec's `store_le`, which is general over any
/// bit order and storage: this runs on every lane of every cycle of the
/// Verilator engine.
fn pack(values: impl Iterator<Item = u32>, width: usize, words: &mut [u32]) {
    words.fill(0);
    if width > 0 {
        let mask = u32::MAX >> (32 - width);
        for (lane, value) in values.enumerate() {
            let (word, shift) = (width * lane / 32, width * lane % 32);
            words[word] |= (value & mask) << shift;
            if shift + width > 32 {
                words[word + 1] |= (value & mask) >> (32 - shift);
            }
        }
    }
}

/// Lane `lane` of `width`-bit lanes in `words` (0 when `width` is 0).
fn unpack(words: &[u32], width: usize, lane: usize) -> u32 {
    if width == 0 {
        return 0;
    }
    let (word, shift) = (width * lane / 32, width * lane % 32);
    let mut value = words[word] >> shift;
    if shift + width > 32 {
        value |= words[word + 1] << (32 - shift);
    }
    value & (u32::MAX >> (32 - width))
}

impl<L: Lane> fmt::Display for Beat<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let items: Vec<String> = self.items().map(|w| w.to_string()).collect();
        match items.is_empty() {
            true => write!(f, "a null beat (tkeep 0)")?,
            false => write!(f, "{}", items.join(" | "))?,
        }
        if !self.is_packed() {
            write!(f, " tkeep={:b}", self.tkeep)?;
        }
        write!(f, " tlast={}", self.tlast as u8)
    }
}

/// What a harness drives in one cycle, for a core whose input lanes are `I`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Inputs<I: Lane> {
    pub rst: bool,
    /// The beat offered (`s_axis_tvalid` high), if any.
    pub s_axis: Option<Beat<I>>,
    pub m_axis_tready: bool,
}

impl<I: Lane> Default for Inputs<I> {
    fn default() -> Self {
        Inputs {
            rst: false,
            s_axis: None,
            m_axis_tready: false,
        }
    }
}

/// The handshake outputs, as they stand at the start of a cycle (flops).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Outputs<O: Lane> {
    pub s_axis_tready: bool,
    /// The beat shown (`m_axis_tvalid` high), if any.
    pub m_axis: Option<Beat<O>>,
}

impl<O: Lane> Default for Outputs<O> {
    fn default() -> Self {
        Outputs {
            s_axis_tready: false,
            m_axis: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cores::utf8_decoder::Word;

    /// Lane *i* of a beat is bits 8*i*+7..8*i* of `s_axis_tdata`; word lane
    /// *i* is bits 32*i*+31..32*i* of `m_axis_tdata`, and its `tuser`
    /// bits 4*i*+3..4*i*.
    #[test]
    fn lanes_sit_where_the_ports_say() {
        let beat = Beat::<u8>::new(
            &[Some(0x11), None, Some(0x33), Some(0x44), Some(0x55)],
            true,
        );
        assert_eq!(beat.tkeep, 0b11101);
        assert_eq!(beat.items().collect::<Vec<_>>(), [0x11, 0x33, 0x44, 0x55]);
        assert_eq!(beat.tdata_words(5)[..2], [0x4433_0011, 0x55]);
        let out = Beat::<Word>::from_words(3, &[0xA, 0xB, 0xC], &[0x3F1], Some(0b011), false);
        let words: Vec<_> = out.items().collect();
        assert_eq!(
            words,
            [
                Word {
                    tdata: 0xA,
                    tuser: 1
                },
                Word {
                    tdata: 0xB,
                    tuser: 0xF
                }
            ]
        );
        assert_eq!(
            out.lanes[2],
            Word {
                tdata: 0xC,
                tuser: 3
            },
            "a null lane still holds its bits"
        );
        let one = Beat::<Word>::from_words(1, &[0x41], &[0], None, true);
        assert_eq!(
            (one.tkeep, one.items().count()),
            (1, 1),
            "no tkeep: every lane"
        );
    }

    /// A lane whose widths do not divide 32: 12 bits of `tdata` and 3 of
    /// `tuser`.
    #[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
    struct Odd(u32, u32);

    impl fmt::Display for Odd {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "{:03X}/{}", self.0, self.1)
        }
    }

    impl Lane for Odd {
        const NAME: &'static str = "odd";
        const TDATA: usize = 12;
        const TUSER: usize = 3;
        fn tdata(&self) -> u32 {
            self.0
        }
        fn tuser(&self) -> u32 {
            self.1
        }
        fn from_bits(tdata: u32, tuser: u32) -> Odd {
            Odd(tdata, tuser)
        }
    }

    /// Lanes that straddle 32-bit words go out and come back bit for bit,
    /// where a hand count of the bits puts them.
    #[test]
    fn lanes_of_any_width_pack_and_unpack() {
        let lanes: Vec<Option<Odd>> = (0..11).map(|i| Some(Odd(0xA00 + i, i % 8))).collect();
        let beat = Beat::new(&lanes, false);
        let (tdata, tuser) = (beat.tdata_words(11), beat.tuser_words(11));
        // Lane 2 is bits 35..24 of tdata: 0xA02, its low byte in word 0.
        assert_eq!(tdata[0] >> 24, 0x02);
        assert_eq!(tdata[1] & 0xF, 0xA);
        // Lane 10's tuser is bits 32..30: 2.
        assert_eq!((tuser[0] >> 30, tuser[1] & 1), (2, 0));
        let back = Beat::<Odd>::from_words(11, &tdata, &tuser, Some(beat.tkeep), false);
        assert_eq!(back, beat);
    }
}
