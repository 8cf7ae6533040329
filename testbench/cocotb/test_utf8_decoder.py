"""cocotb testbench of the committed Verilog (synth/rtl/), with cocotbext-axi.

Run it with pytest (cocotb's runner builds each core in Icarus Verilog):

    python3 -m pytest testbench/cocotb

Every word is checked against utf8_model (CPython's own decoder for
rfc3629, an Annex R decoder for iso10646) and its kind against the
README's rules, with idle cycles on s_axis and backpressure on m_axis.

How the cores meet cocotbext-axi (docs/without-rust.md says the same):
* the 1-lane core has no m_axis_tkeep: its sink needs ``byte_lanes=1``, or
  each 32-bit word arrives as 4 bytes;
* tuser is per lane on the wide cores (4 bits a lane), but cocotbext-axi
  keeps one tuser a beat: read frames with ``compact=False`` and slice the
  tuser of element k by its lane, k % N;
* a message with no bytes is N elements with tkeep all low (an empty
  AxiStreamFrame is not sent).
"""

import os
import random

import cocotb
import pytest
from cocotb.triggers import RisingEdge
from cocotbext.axi import AxiStreamFrame

import utf8_model as model
from axis_bench import (
    PAUSE_PAIRS,
    AxisBench,
    ROOT,
    cycle_pause,
    random_pause,
    run_core,
    set_pauses,
)
from messages import every_kind, kuhn_lines, random_message


class TB(AxisBench):
    def __init__(self, dut):
        lanes = len(dut.s_axis_tdata) // 8
        # Without m_axis_tkeep, the sink would take the 32-bit word as 4
        # byte lanes: one word a beat.
        super().__init__(dut, sink_lanes=1 if lanes == 1 else None)
        self.lanes = lanes
        self.tkeep = lanes > 1
        self.profile = os.environ["UTF8HDL_PROFILE"]

    def frame(self, message, null_lanes=0.0):
        """``message`` as a frame; each byte preceded by a null lane (tkeep
        low, random data) with probability ``null_lanes``. No bytes: one
        beat of null lanes."""
        tdata, tkeep = [], []
        for byte in message:
            while self.tkeep and self.rng.random() < null_lanes:
                tdata.append(self.rng.randrange(256))
                tkeep.append(0)
            tdata.append(byte)
            tkeep.append(1)
        if not tdata:
            assert self.tkeep, "a core without tkeep cannot carry an empty message"
            tdata, tkeep = [0] * self.lanes, [0] * self.lanes
        if not self.tkeep:
            return AxiStreamFrame(bytes(tdata))
        return AxiStreamFrame(tdata, tkeep=tkeep)

    def units_of(self, frame):
        """The units of one received frame (read with compact=False), with
        the per-beat checks: m_axis_tkeep packed, lanes past it 0."""
        units, n = [], self.lanes
        for beat in range(len(frame.tdata) // n):
            lanes = range(beat * n, beat * n + n)
            keep = [frame.tkeep[k] if self.tkeep else 1 for k in lanes]
            assert keep == sorted(keep, reverse=True), f"m_axis_tkeep not packed: {keep}"
            for k in lanes:
                word = frame.tdata[k]
                user = (frame.tuser[k] >> 4 * (k % n)) & 0xF
                if keep[k - beat * n]:
                    units.append((word, user))
                else:
                    assert (word, user) == (0, 0), f"lane {k % n} past tkeep: {word:#x} {user:#x}"
        return units

    async def check(self, messages, null_lanes=0.0):
        for message in messages:
            await self.source.send(self.frame(message, null_lanes))
        for number, message in enumerate(messages):
            frame = await self.sink.recv(compact=False)
            got = self.units_of(frame)
            want = [
                (code_point, model.tuser(kind))
                for code_point, kind in model.units(message, self.profile)
            ]
            if got != want:
                at = next(
                    (i for i, (g, w) in enumerate(zip(got, want)) if g != w),
                    min(len(got), len(want)),
                )
                raise AssertionError(
                    f"message {number} ({message[:64].hex(' ')}{'...' if len(message) > 64 else ''}): "
                    f"unit {at} of {len(want)}: got {_show(got[at:at + 3])}, "
                    f"want {_show(want[at:at + 3])} (word, tuser)"
                )
        assert self.sink.empty(), "more frames than messages"


def _show(units):
    return ", ".join(f"({word:#x}, {user:#x})" for word, user in units) or "nothing"


@cocotb.test()
async def latency_is_the_header_s(dut):
    """A full beat of ASCII with tlast, m_axis always ready: its first word
    leaves utf8hdl-latency cycles after the beat is taken."""
    tb = TB(dut)
    await tb.reset()
    await tb.source.send(tb.frame(b"A" * tb.lanes))
    cycle, taken = 0, None
    while cycle < 100:
        await RisingEdge(dut.clk)
        if taken is None and dut.s_axis_tvalid.value and dut.s_axis_tready.value:
            taken = cycle
        if dut.m_axis_tvalid.value:
            break
        cycle += 1
    assert taken is not None and cycle - taken == tb.latency, (
        f"first word {cycle - taken if taken is not None else '?'} cycles after the beat, "
        f"the header says {tb.latency}"
    )
    frame = await tb.sink.recv(compact=False)
    assert tb.units_of(frame) == [(0x41, 0)] * tb.lanes


@cocotb.test()
@cocotb.parametrize(**PAUSE_PAIRS)
async def random_and_error_messages(dut, idle, backpressure):
    """Random bytes and every error kind, under idle and backpressure."""
    tb = TB(dut)
    set_pauses(tb.source, tb.sink, idle, backpressure)
    await tb.reset()
    messages = every_kind(tb.profile)
    messages += [random_message(tb.rng, tb.rng.randint(1, 6 * tb.lanes)) for _ in range(100)]
    await tb.check(messages)


@cocotb.test()
async def kuhn_stress_test(dut):
    """Markus Kuhn's UTF-8 stress test, a message a line, at full rate and
    then with the [1, 1, 1, 0] patterns on both sides."""
    tb = TB(dut)
    await tb.reset()
    lines = kuhn_lines()
    await tb.check(lines)
    set_pauses(tb.source, tb.sink, cycle_pause, cycle_pause)
    await tb.check(lines[60:120])


@cocotb.test(skip=os.environ.get("UTF8HDL_LANES", "1") == "1")
@cocotb.parametrize(backpressure=[None, random_pause])
async def sparse_tkeep_and_empty_messages(dut, backpressure):
    """Wide cores: null lanes anywhere in a beat, and messages of no bytes
    (a beat of null lanes with tlast), between ordinary ones."""
    tb = TB(dut)
    set_pauses(tb.source, tb.sink, random_pause, backpressure)
    await tb.reset()
    messages = []
    for _ in range(30):
        messages.append(random_message(tb.rng, tb.rng.randint(0, 3 * tb.lanes)))
        if tb.rng.random() < 0.3:
            messages.append(b"")
    messages += [b"", b"", b"\xe2", b"", b"\xf0\x9f\x98\x80"]
    await tb.check(messages, null_lanes=0.3)


# The pytest entry point: cocotb's runner builds each core's committed
# Verilog and runs the tests above on it (axis_bench.run_core).
CORES = [
    ("utf8_decoder", "rfc3629", 1),
    ("utf8_decoder_iso10646", "iso10646", 1),
    ("utf8_decoder_x4", "rfc3629", 4),
    ("utf8_decoder_iso10646_x4", "iso10646", 4),
    ("utf8_decoder_x8", "rfc3629", 8),
]


@pytest.mark.parametrize("top,profile,lanes", CORES, ids=[core[0] for core in CORES])
def test_utf8_decoder(top, profile, lanes):
    run_core("test_utf8_decoder", top, {"UTF8HDL_PROFILE": profile, "UTF8HDL_LANES": str(lanes)})


def test_the_fusesoc_vectors_are_fresh():
    """testbench/fusesoc/*.hex are what vectors.py writes from the model."""
    import vectors

    for path, text in vectors.files():
        assert path.exists() and path.read_text() == text, (
            f"{path.relative_to(ROOT)} is stale: run python3 testbench/cocotb/vectors.py"
        )


def test_the_annex_r_model_with_rfc3629_limits_is_cpython():
    """The iso10646 model is trusted because, with RFC 3629's limits, it
    gives CPython's units on every message of 1 and 2 bytes and on random
    ones."""
    rng = random.Random(3)
    messages = [bytes([a]) for a in range(256)]
    messages += [bytes([a, b]) for a in range(256) for b in range(256)]
    messages += [random_message(rng, rng.randint(3, 12)) for _ in range(20000)]
    messages += kuhn_lines()
    model.self_check(messages)
