"""Writes the FuseSoC bench's vector files (testbench/fusesoc/PROFILE.in.hex
and PROFILE.out.hex) from utf8_model, the same for every lane count:

    python3 testbench/cocotb/vectors.py

PROFILE.in.hex, a line a byte: bits 7:0 the byte, bit 8 the message's last
byte; 200 alone is a message of no bytes.
PROFILE.out.hex, a line a unit: bits 31:0 m_axis_tdata, 35:32 m_axis_tuser;
1000000000 ends a message (its tlast), 3000000000 ends a message of no bytes.
"""

import sys
from pathlib import Path

import utf8_model as model
from messages import ROOT, vector_messages

DIR = ROOT / "testbench" / "fusesoc"
LAST, EMPTY = 0x100, 0x200
END, EMPTY_END = 1 << 36, 3 << 36


def vectors(profile):
    """The two files' text for ``profile``."""
    stimulus, expected = [], []
    for message in vector_messages(profile):
        if not message:
            stimulus.append(EMPTY)
            expected.append(EMPTY_END)
            continue
        stimulus += list(message[:-1]) + [message[-1] | LAST]
        for code_point, kind in model.units(message, profile):
            expected.append((kind << 1 | 1 if kind else 0) << 32 | code_point)
        expected.append(END)
    return (
        "".join(f"{value:03x}\n" for value in stimulus),
        "".join(f"{value:010x}\n" for value in expected),
    )


def files():
    """Each vector file's path and text."""
    for profile in model.PROFILES:
        stimulus, expected = vectors(profile)
        yield DIR / f"{profile}.in.hex", stimulus
        yield DIR / f"{profile}.out.hex", expected


if __name__ == "__main__":
    DIR.mkdir(exist_ok=True)
    for path, text in files():
        path.write_text(text)
        print(f"wrote {path.relative_to(ROOT)}", file=sys.stderr)
