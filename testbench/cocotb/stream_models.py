"""The other cores of the family, modelled in Python apart from the Rust
references, so that the benches check their Verilog against an independent
source: the UTF-8 encoders (both profiles), the UTF-16 encoder and decoder,
and the character properties. Each model maps a message (a list of input
units) to the output units it must give, as ``(tdata, tuser)`` pairs.

* UTF-8 and UTF-16 out of a scalar value are CPython's own
  ``str.encode``; iso10646's 5- and 6-octet forms are ISO/IEC 10646-1
  Amd. 2 Annex R, Table 1, checked against CPython where the two overlap.
* UTF-16 in is CPython's ``bytes.decode('utf-16-be', ...)``: its error
  handler is told the span of each unpaired surrogate it replaces.
* The properties are CPython's ``unicodedata`` general categories (Cc,
  Co) and the Unicode Standard's definition D14 of noncharacters.
"""

import codecs
import random
import unicodedata
from dataclasses import dataclass
from typing import Callable

import utf8_model

REPLACEMENT = 0xFFFD


def is_scalar(word):
    """A Unicode scalar value: a code point that is not a surrogate."""
    return word <= 0x10FFFF and not 0xD800 <= word <= 0xDFFF


def flagged_replacement(encoding):
    """U+FFFD in ``encoding``, each code unit flagged (tuser 1)."""
    data = "\ufffd".encode(encoding)
    step = 2 if encoding == "utf-16-be" else 1
    return [(int.from_bytes(data[i:i + step], "big"), 1) for i in range(0, len(data), step)]


def utf8_rfc3629(word):
    """The octets of ``word`` (RFC 3629), or a flagged EF BF BD."""
    if not is_scalar(word):
        return flagged_replacement("utf-8")
    return [(octet, 0) for octet in chr(word).encode("utf-8")]


def utf8_iso10646(word):
    """The octets of ``word`` by Annex R, Table 1: 1 to 6 octets for
    0..7FFF FFFF, surrogates excluded (Annex R's note on them); else a
    flagged EF BF BD."""
    if word > 0x7FFFFFFF or 0xD800 <= word <= 0xDFFF:
        return flagged_replacement("utf-8")
    if word < 0x80:
        return [(word, 0)]
    # Table 1: n octets carry 5n + 1 bits (n >= 2); the lead has n ones,
    # a zero, and the top bits; each of the n - 1 others 10 and 6 bits.
    octets = next(n for n in range(2, 7) if word < 1 << (5 * n + 1))
    lead = (0xFF << (8 - octets)) & 0xFF | word >> (6 * (octets - 1))
    rest = [0x80 | (word >> (6 * k)) & 0x3F for k in reversed(range(octets - 1))]
    return [(octet, 0) for octet in [lead] + rest]


def utf16(word):
    """The UTF-16 code units of ``word`` (RFC 2781), or a flagged FFFD."""
    if not is_scalar(word):
        return flagged_replacement("utf-16-be")
    data = chr(word).encode("utf-16-be")
    return [(int.from_bytes(data[i:i + 2], "big"), 0) for i in range(0, len(data), 2)]


def encoding_model(encode):
    """A message model that encodes each word on its own."""
    return lambda words: [unit for word in words for unit in encode(word)]


SURROGATE_TUSER = utf8_model.tuser(utf8_model.SURROGATE)
_spans = []


def _record_span(error):
    _spans.append((error.start, error.end))
    return ("", error.end)


codecs.register_error("utf8hdl-utf16-spans", _record_span)


def utf16_decode(units):
    """Words out of UTF-16 code units: CPython's decoder, with one U+FFFD
    (tuser ``surrogate``) for each span its error handler replaces."""
    data = b"".join(unit.to_bytes(2, "big") for unit in units)
    _spans.clear()
    data.decode("utf-16-be", "utf8hdl-utf16-spans")
    out, at = [], 0
    for start, end in _spans + [(len(data), len(data))]:
        out += [(ord(c), 0) for c in data[at:start].decode("utf-16-be")]
        if start < end:
            out.append((REPLACEMENT, SURROGATE_TUSER))
        at = end
    return out


def properties(word):
    """The flags of ``word``: bit 0 control (Cc), 1 private use (Co), 2
    noncharacter (D14: FDD0..FDEF and the last two of each plane), 3
    outside the BMP. A value above 10FFFF is no code point: only bit 3."""
    code_point = word <= 0x10FFFF
    category = unicodedata.category(chr(word)) if code_point else None
    noncharacter = code_point and (0xFDD0 <= word <= 0xFDEF or word & 0xFFFE == 0xFFFE)
    flags = [category == "Cc", category == "Co", noncharacter, word > 0xFFFF]
    return [(word, sum(bit << k for k, bit in enumerate(flags)))]


# Words at every edge the encoders and the properties core decide on.
EDGE_WORDS = [
    0x00, 0x1F, 0x20, 0x7E, 0x7F, 0x80, 0x9F, 0xA0, 0x7FF, 0x800,
    0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xF8FF, 0xF900,
    0xFDCF, 0xFDD0, 0xFDEF, 0xFDF0, 0xFFFD, 0xFFFE, 0xFFFF, 0x10000,
    0x1FFFE, 0xEFFFF, 0xF0000, 0xFFFFD, 0xFFFFE, 0x100000, 0x10FFFD,
    0x10FFFE, 0x10FFFF, 0x110000, 0x1FFFFF, 0x200000, 0x3FFFFFF,
    0x4000000, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF,
]


def random_words(rng, length):
    """Random words, biased to each encoded length and to the edges."""
    ranges = [(0, 0x7F), (0x80, 0x7FF), (0x800, 0xFFFF), (0xD800, 0xDFFF),
              (0x10000, 0x10FFFF), (0x110000, 0x7FFFFFFF), (0x80000000, 0xFFFFFFFF)]
    words = []
    for _ in range(length):
        if rng.random() < 0.2:
            words.append(rng.choice(EDGE_WORDS))
        else:
            low, high = rng.choice(ranges)
            words.append(rng.randint(low, high))
    return words


def random_code_units(rng, length):
    """Random UTF-16 code units, half of them surrogates."""
    ranges = [(0, 0x7F), (0x80, 0xD7FF), (0xE000, 0xFFFF), (0xD800, 0xDBFF),
              (0xDC00, 0xDFFF), (0xD800, 0xDBFF), (0xDC00, 0xDFFF)]
    return [rng.randint(*rng.choice(ranges)) for _ in range(length)]


def word_messages(rng):
    """Each edge word alone, then random messages of 1 to 12 words."""
    return [[word] for word in EDGE_WORDS] + [random_words(rng, rng.randint(1, 12)) for _ in range(300)]


def code_unit_messages(rng):
    """Each pairing case of surrogates, then random messages."""
    cases = [[0xD800], [0xDC00], [0xD800, 0x41], [0xD800, 0xD800, 0xDC00],
             [0xD83D, 0xDE00], [0xDBFF, 0xDFFF], [0xDC00, 0xD800], [0xFFFD],
             [0x41, 0xD800], [0xD800, 0xFFFF]]
    return cases + [random_code_units(rng, rng.randint(1, 12)) for _ in range(300)]


@dataclass(frozen=True)
class Family:
    """A core of the family as the benches see it: its 1-lane module (the
    name of its vector files), its widths, what it is fed and its model."""

    module: str
    in_bits: int
    out_bits: int
    user_bits: int
    messages: Callable[[random.Random], list]
    model: Callable[[list], list]
    #: Which side moves on every clock at full rate: "input" or "output".
    rate: str


FAMILIES = [
    Family("utf8_encoder", 32, 8, 1, word_messages, encoding_model(utf8_rfc3629), "output"),
    Family("utf8_encoder_iso10646", 32, 8, 1, word_messages, encoding_model(utf8_iso10646), "output"),
    Family("utf16_encoder", 32, 16, 1, word_messages, encoding_model(utf16), "output"),
    Family("utf16_decoder", 16, 32, 4, code_unit_messages, utf16_decode, "input"),
    Family("char_properties", 32, 32, 4, word_messages, encoding_model(properties), "input"),
]
BY_MODULE = {family.module: family for family in FAMILIES}
