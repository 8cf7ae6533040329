//! rust-hdl values to and from 32-bit words, for ports of any width.

use rust_hdl::core::prelude::*;

use super::*;

/// A rust-hdl value of `W` bits from 32-bit `words`, least significant
/// first. rust-hdl converts only up to 64 bits from an integer (and keeps
/// values above 32 bits as one `bool` a bit), so wide ports go word by word.
pub fn bits_from_words<const W: usize>(words: &[u32]) -> Bits<W> {
    (words.iter().take(W.div_ceil(32)).enumerate()).fold(Bits::default(), |value, (i, &word)| {
        value | bit_cast::<W, 32>(Bits::<32>::from(u64::from(word))) << (32 * i) as u64
    })
}

/// Fills `words` (32-bit, least significant first) with `value`, up to its
/// width.
pub fn words_from_bits<const W: usize>(value: Bits<W>, words: &mut [u32]) {
    for (i, word) in words.iter_mut().take(W.div_ceil(32)).enumerate() {
        *word = bit_cast::<32, W>(value >> (32 * i) as u64).to_u32();
    }
}

/// A port's value in words.
pub fn port_words<const W: usize>(value: Bits<W>) -> PortWords {
    let mut words = [0; MAX_LANES];
    words_from_bits(value, &mut words);
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Wide values go through rust-hdl word by word: every bit lands where
    /// rust-hdl's own `get_bit` says, at widths on both sides of its 32-bit
    /// short form and of 64 bits.
    #[test]
    fn port_values_convert_bit_for_bit_at_any_width() {
        fn roundtrip<const W: usize>() {
            let mut state = 0x9E37_79B9u32 ^ W as u32;
            let mut words = [0u32; 32];
            for (i, word) in words.iter_mut().enumerate().take(W.div_ceil(32)) {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                let bits_here = (W - 32 * i).min(32);
                *word = state & (u32::MAX >> (32 - bits_here));
            }
            let value: Bits<W> = bits_from_words(&words);
            for bit in 0..W {
                assert_eq!(
                    value.get_bit(bit),
                    words[bit / 32] >> (bit % 32) & 1 == 1,
                    "W={W} bit {bit}"
                );
            }
            let mut back = [0u32; 32];
            words_from_bits(value, &mut back);
            assert_eq!(back, words, "W={W}");
        }
        roundtrip::<4>();
        roundtrip::<8>();
        roundtrip::<32>();
        roundtrip::<33>();
        roundtrip::<64>();
        roundtrip::<128>();
        roundtrip::<256>();
        roundtrip::<1024>();
    }
}
