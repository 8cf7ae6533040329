"""cocotb testbench of the family's other cores' committed Verilog (the
UTF-8 encoders, the UTF-16 encoder and decoder, the character
properties), with cocotbext-axi. Run with the decoder's bench:

    python3 -m pytest testbench/cocotb

Every unit out (tdata and tuser) is checked against stream_models, Python
models apart from the Rust references, with idle cycles on s_axis and
backpressure on m_axis; the full rate and the latency each core's Verilog
declares are checked too.

These cores have one lane and no tkeep: source and sink take
``byte_lanes=1``, so each frame element is a whole word or code unit.
"""

import os
import random

import cocotb
import pytest
from cocotb.triggers import RisingEdge
from cocotbext.axi import AxiStreamFrame

import stream_models
from axis_bench import PAUSE_PAIRS, AxisBench, run_core, set_pauses


class TB(AxisBench):
    def __init__(self, dut):
        super().__init__(dut, source_lanes=1, sink_lanes=1)
        self.family = stream_models.BY_MODULE[os.environ["UTF8HDL_MODULE"]]

    async def check(self, messages):
        for message in messages:
            await self.source.send(AxiStreamFrame(message))
        for number, message in enumerate(messages):
            frame = await self.sink.recv(compact=False)
            got = list(zip(frame.tdata, frame.tuser))
            want = self.family.model(message)
            assert got == want, (
                f"message {number} ({' '.join(f'{u:x}' for u in message)}): "
                f"got {_show(got)}, want {_show(want)} (tdata, tuser)"
            )
        assert self.sink.empty(), "more frames than messages"


def _show(units):
    return ", ".join(f"({tdata:#x}, {tuser:#x})" for tdata, tuser in units) or "nothing"


async def transfers(dut, side, cycles):
    """Appends to ``cycles`` each cycle's number in which ``side``
    (s_axis or m_axis) moves a beat."""
    valid, ready = getattr(dut, f"{side}_tvalid"), getattr(dut, f"{side}_tready")
    cycle = 0
    while True:
        await RisingEdge(dut.clk)
        if valid.value and ready.value:
            cycles.append(cycle)
        cycle += 1


@cocotb.test()
async def latency_is_the_header_s(dut):
    """One unit, m_axis always ready: the first unit out leaves
    utf8hdl-latency cycles after the unit is taken."""
    tb = TB(dut)
    await tb.reset()
    taken, out = [], []
    cocotb.start_soon(transfers(dut, "s_axis", taken))
    cocotb.start_soon(transfers(dut, "m_axis", out))
    await tb.check([[0x41]])
    assert out[0] - taken[0] == tb.latency, (
        f"first unit {out[0] - taken[0]} cycles after the input, the header says {tb.latency}"
    )


@cocotb.test()
@cocotb.parametrize(**PAUSE_PAIRS)
async def every_edge_and_random_messages(dut, idle, backpressure):
    """Each edge value and random messages, under idle and backpressure."""
    tb = TB(dut)
    set_pauses(tb.source, tb.sink, idle, backpressure)
    await tb.reset()
    await tb.check(tb.family.messages(tb.rng)[:120])


@cocotb.test()
async def full_rate(dut):
    """With no idle and no backpressure, the side the core keeps busy moves
    a beat on every clock of a long message: every output clock for the
    encoders (no gap while a word waits), every input clock for the
    others."""
    tb = TB(dut)
    await tb.reset()
    message = [unit for m in tb.family.messages(tb.rng)[:60] for unit in m]
    side, count = {
        "input": ("s_axis", len(message)),
        "output": ("m_axis", len(tb.family.model(message))),
    }[tb.family.rate]
    cycles = []
    cocotb.start_soon(transfers(dut, side, cycles))
    await tb.check([message])
    assert len(cycles) == count and cycles[-1] - cycles[0] == count - 1, (
        f"{count} beats on {side} took {cycles[-1] - cycles[0] + 1} cycles"
    )


@pytest.mark.parametrize("top", [f.module for f in stream_models.FAMILIES])
def test_stream_core(top):
    run_core("test_stream_cores", top, {"UTF8HDL_MODULE": top})


def test_the_iso10646_encoder_model_is_cpython_within_rfc3629_and_inverts_annex_r():
    """The 5- and 6-octet encoder model is trusted because it gives
    CPython's octets for every scalar value, and utf8_model's Annex R
    decoder gives back every word it encodes on a dense sample."""
    import utf8_model

    for word in range(0x110000):
        if stream_models.is_scalar(word):
            octets = [octet for octet, _ in stream_models.utf8_iso10646(word)]
            assert bytes(octets) == chr(word).encode("utf-8"), hex(word)
    rng = random.Random(5)
    sample = stream_models.EDGE_WORDS + [rng.randrange(1 << 31) for _ in range(20000)]
    for word in sample:
        units = stream_models.utf8_iso10646(word)
        if units[0][1]:
            continue
        decoded = utf8_model.units(bytes(o for o, _ in units), "iso10646")
        assert decoded == [(word, 0)], hex(word)


def test_the_utf16_decoder_model_is_cpython_replace():
    """The span-recording decoder gives the characters of CPython's
    decode('utf-16-be', 'replace'), on every pairing case and random
    code units."""
    rng = random.Random(9)
    for message in stream_models.code_unit_messages(rng):
        data = b"".join(unit.to_bytes(2, "big") for unit in message)
        want = [ord(c) for c in data.decode("utf-16-be", "replace")]
        assert [word for word, _ in stream_models.utf16_decode(message)] == want
