"""What the cores must deliver for a message, written in Python apart from
the Rust reference, so that the benches check the Verilog against an
independent source.

* rfc3629: the units are CPython's own ``bytes.decode('utf-8', ...)``: its
  error handler is told the span of each maximal subpart it replaces, and
  the text between the spans is decoded strictly.
* iso10646: a small decoder written from ISO/IEC 10646-1 Amd. 2 Annex R
  (Table 1 and its note on overlong forms): 1 to 6 octets, up to 7FFF FFFF,
  surrogates excluded. Run with the rfc3629 limits it must agree with
  CPython, which ``self_check`` tests.
* the error kind of each replaced span (``m_axis_tuser[3:1]``, README
  "Error kinds"): ``kind`` from the span's first byte and the byte after it.

A unit is ``(code_point, kind)``: kind 0 for a character, else the code
of its error and code_point U+FFFD.
"""

import codecs

REPLACEMENT = 0xFFFD

INVALID_BYTE = 1
UNEXPECTED_CONTINUATION = 2
TRUNCATED = 3
OVERLONG = 4
SURROGATE = 5
OUT_OF_RANGE = 6

KIND_NAMES = {
    INVALID_BYTE: "invalid_byte",
    UNEXPECTED_CONTINUATION: "unexpected_continuation",
    TRUNCATED: "truncated",
    OVERLONG: "overlong",
    SURROGATE: "surrogate",
    OUT_OF_RANGE: "out_of_range",
}

PROFILES = ("rfc3629", "iso10646")


def tuser(kind):
    """A unit's m_axis_tuser: bit 0 set for an error, bits 3:1 its kind
    (README, "Error kinds"); 0 for a character."""
    return kind << 1 | 1 if kind else 0


def is_continuation(byte):
    return 0x80 <= byte <= 0xBF


def kind(message, start, profile):
    """The error kind of the replaced span that starts at ``message[start]``,
    from the README's table: the lead byte and the byte after it."""
    lead = message[start]
    after = message[start + 1] if start + 1 < len(message) else None
    if lead >= 0xFE:
        return INVALID_BYTE
    if is_continuation(lead):
        return UNEXPECTED_CONTINUATION
    if lead in (0xC0, 0xC1):
        return OVERLONG
    if profile == "rfc3629" and lead >= 0xF5:
        return OUT_OF_RANGE
    second = after is not None and is_continuation(after)
    if second:
        if (lead == 0xE0 and after <= 0x9F) or (lead == 0xF0 and after <= 0x8F):
            return OVERLONG
        if profile == "iso10646" and (
            (lead == 0xF8 and after <= 0x87) or (lead == 0xFC and after <= 0x83)
        ):
            return OVERLONG
        if lead == 0xED and after >= 0xA0:
            return SURROGATE
        if profile == "rfc3629" and lead == 0xF4 and after >= 0x90:
            return OUT_OF_RANGE
    return TRUNCATED


def cpython_units(message):
    """rfc3629: CPython's decoding, one unit per character or replaced span."""
    spans = []

    def record(error):
        spans.append((error.start, error.end))
        return ("\ufffd", error.end)

    name = "utf8hdl-model-spans"
    try:
        codecs.lookup_error(name)
    except LookupError:
        codecs.register_error(name, lambda e: _HANDLER[0](e))
    _HANDLER[0] = record
    message = bytes(message)
    message.decode("utf-8", name)
    units, at = [], 0
    for start, end in spans + [(len(message), len(message))]:
        units += [(ord(c), 0) for c in message[at:start].decode("utf-8")]
        if start < end:
            units.append((REPLACEMENT, kind(message, start, "rfc3629")))
        at = end
    return units


_HANDLER = [None]

# Annex R, Table 1: the octets each first octet opens, and the lowest second
# octet that is not an overlong form (the note on the shortest form).
_LENGTH = [(0xC2, 2), (0xE0, 3), (0xF0, 4), (0xF8, 5), (0xFC, 6), (0xFE, 0)]


def annex_r_units(message, profile="iso10646"):
    """A decoder written from Annex R; ``profile='rfc3629'`` adds RFC 3629's
    limits (F4 8F BF BF at most, no F5 and above)."""
    units, i, n = [], 0, len(message)
    while i < n:
        lead = message[i]
        if lead < 0x80:
            units.append((lead, 0))
            i += 1
            continue
        length = 0
        for first, octets in _LENGTH:
            if lead >= first:
                length = octets
        if lead < 0xC2 or length == 0 or (profile == "rfc3629" and lead >= 0xF5):
            units.append((REPLACEMENT, kind(message, i, profile)))
            i += 1
            continue
        value = lead & (0x7F >> length)
        taken = 1
        while taken < length and i + taken < n and is_continuation(message[i + taken]):
            value = value << 6 | message[i + taken] & 0x3F
            taken += 1
            if taken == 2 and _second_out_of_bounds(lead, message[i + 1], profile):
                taken = 1
                break
        if taken < length:
            # a broken or out-of-bounds sequence: its maximal subpart
            units.append((REPLACEMENT, kind(message, i, profile)))
            i += taken
            continue
        units.append((value, 0))
        i += length
    return units


def _second_out_of_bounds(lead, second, profile):
    low = {0xE0: 0xA0, 0xF0: 0x90, 0xF8: 0x88, 0xFC: 0x84}.get(lead, 0x80)
    high = 0x9F if lead == 0xED else 0xBF
    if profile == "rfc3629" and lead == 0xF4:
        high = 0x8F
    return not low <= second <= high


def error_starts(message, profile):
    """Where each replaced span of ``message`` starts, and its kind:
    CPython's spans for rfc3629, the Annex R decoder's for iso10646."""
    starts, i, n = {}, 0, len(message)
    if profile == "rfc3629":
        spans = []
        _HANDLER[0] = lambda error: spans.append(error.start) or ("\ufffd", error.end)
        try:
            codecs.lookup_error("utf8hdl-model-spans")
        except LookupError:
            codecs.register_error("utf8hdl-model-spans", lambda e: _HANDLER[0](e))
        bytes(message).decode("utf-8", "utf8hdl-model-spans")
        return {start: kind(message, start, profile) for start in spans}
    while i < n:
        unit = annex_r_units(message[i:], profile)[0]
        if unit[1]:
            starts[i] = unit[1]
            # the maximal subpart: the lead and the continuing octets it took
            taken = 1
            length = next((o for f, o in reversed(_LENGTH) if message[i] >= f), 0)
            while (
                taken < length
                and i + taken < n
                and is_continuation(message[i + taken])
                and not (taken == 1 and _second_out_of_bounds(message[i], message[i + 1], profile))
            ):
                taken += 1
        else:
            taken = _encoded_length(unit[0])
        i += taken
    return starts


def _encoded_length(value):
    """The octets of ``value`` in shortest form (Annex R Table 1)."""
    for octets, limit in enumerate([0x80, 0x800, 0x10000, 0x200000, 0x4000000], 1):
        if value < limit:
            return octets
    return 6


def validator_lanes(message, profile):
    """The validator's output lanes for ``message``: each byte, with the
    tuser of the error it starts, or 0."""
    starts = error_starts(message, profile)
    return [(byte, tuser(starts.get(i))) for i, byte in enumerate(message)]


def units(message, profile):
    """The units a core of ``profile`` must deliver for ``message``."""
    if profile == "rfc3629":
        return cpython_units(message)
    return annex_r_units(message, profile)


def self_check(messages):
    """The Annex R decoder with RFC 3629's limits agrees with CPython."""
    for message in messages:
        ours, theirs = annex_r_units(message, "rfc3629"), cpython_units(message)
        assert ours == theirs, (message.hex(), ours, theirs)
