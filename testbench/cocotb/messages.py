"""The messages both benches send: random bytes, every error kind, Kuhn's
stress test, and (wide cores) messages of no bytes."""

import random
from pathlib import Path

import utf8_model as model

ROOT = Path(__file__).resolve().parents[2]
KUHN = ROOT / "testbench" / "data" / "UTF-8-test.txt"


def random_message(rng, length):
    """Random bytes, biased toward leads and continuations."""
    ranges = [(0x00, 0x7F), (0x80, 0xBF), (0x80, 0xBF), (0xC0, 0xDF),
              (0xE0, 0xEF), (0xF0, 0xF7), (0xF8, 0xFF)]
    out = bytearray()
    for _ in range(length):
        low, high = rng.choice(ranges)
        out.append(rng.randint(low, high))
    return bytes(out)


def every_kind(profile):
    """A message for each error kind the profile has, and their neighbours."""
    messages = [
        b"\xfe", b"\xff", b"A\xbfB",            # invalid_byte, unexpected_continuation
        b"\xe2\x82A", b"\xe2\x82", b"\xf0\x9f\x98",  # truncated (also by the end)
        b"\xc0\xaf", b"\xc1\x81", b"\xe0\x80\xaf", b"\xf0\x80\x80\xaf",  # overlong
        b"\xed\xa0\x80", b"\xed\xbf\xbf",      # surrogate
        b"\xf4\x90\x80\x80", b"\xf5\x80\x80\x80", b"\xfd\xbf\xbf\xbf\xbf\xbf",
        b"\xef\xbf\xbd",                        # a real U+FFFD is no error
        b"\xf4\x8f\xbf\xbf", b"\xed\x9f\xbf", b"\xc2\x80",
        b"\xf8\x87\xbf\xbf\xbf", b"\xfc\x83\xbf\xbf\xbf\xbf",  # overlong in iso10646
        b"\xf8\x88\x80\x80\x80", b"\xfd\xbf\xbf\xbf\xbf\xbf",
    ]
    codes = {kind for message in messages for _, kind in model.units(message, profile) if kind}
    wanted = set(model.KIND_NAMES) - ({model.OUT_OF_RANGE} if profile == "iso10646" else set())
    assert codes == wanted, f"the kind messages miss {wanted - codes}"
    return messages


def kuhn_lines():
    """Kuhn's stress test, a message a line (each with its newline)."""
    return [line + b"\n" for line in KUHN.read_bytes().split(b"\n")]


def vector_messages(profile, seed=1):
    """The FuseSoC bench's messages: every kind, Kuhn's lines, random
    messages and empty ones (a 1-lane core skips those)."""
    rng = random.Random(seed)
    messages = every_kind(profile) + kuhn_lines()
    for _ in range(300):
        messages.append(random_message(rng, rng.randint(1, 40)))
        if rng.random() < 0.1:
            messages.append(b"")
    return messages
