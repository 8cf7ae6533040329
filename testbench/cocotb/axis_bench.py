"""What the cocotb benches share: the latency a core's Verilog declares,
the pause patterns, and cocotb's runner on one committed core."""

import itertools
import logging
import os
import random
import re
from pathlib import Path

from cocotb.clock import Clock
from cocotb.triggers import RisingEdge
from cocotbext.axi import AxiStreamBus, AxiStreamSink, AxiStreamSource

ROOT = Path(__file__).resolve().parents[2]
RTL = ROOT / "synth" / "rtl"


def header_latency(path):
    """The latency the export wrote in the file's header."""
    found = re.search(r"^// utf8hdl-latency: (\d+)$", Path(path).read_text(), re.M)
    assert found, f"{path} has no utf8hdl-latency line: regenerate it"
    return int(found.group(1))


class AxisBench:
    """A core between cocotbext-axi's source (``s_axis``) and sink
    (``m_axis``), its clock running; ``byte_lanes`` as each side needs
    (1 for a side without tkeep: an element a beat)."""

    def __init__(self, dut, source_lanes=None, sink_lanes=None):
        self.dut = dut
        self.latency = header_latency(os.environ["UTF8HDL_VERILOG"])
        self.rng = random.Random(int(os.environ.get("UTF8HDL_SEED", "1")))
        Clock(dut.clk, 10, unit="ns").start()
        lanes = lambda n: {} if n is None else {"byte_lanes": n}
        bus = AxiStreamBus.from_prefix
        self.source = AxiStreamSource(bus(dut, "s_axis"), dut.clk, dut.rst, **lanes(source_lanes))
        self.sink = AxiStreamSink(bus(dut, "m_axis"), dut.clk, dut.rst, **lanes(sink_lanes))
        for side in (self.source, self.sink):
            side.log.setLevel(logging.WARNING)  # not a line a frame

    async def reset(self):
        self.dut.rst.value = 1
        for _ in range(4):
            await RisingEdge(self.dut.clk)
        self.dut.rst.value = 0
        for _ in range(2):
            await RisingEdge(self.dut.clk)


def cycle_pause():
    return itertools.cycle([1, 1, 1, 0])


def random_pause():
    rng = random.Random(7)
    return iter(lambda: rng.random() < 0.4, None)


#: The nine pairs of pause patterns, none, [1, 1, 1, 0] and random, on
#: each side: ``@cocotb.parametrize(**PAUSE_PAIRS)``.
PAUSE_PAIRS = {
    "idle": [None, cycle_pause, random_pause],
    "backpressure": [None, cycle_pause, random_pause],
}


def set_pauses(source, sink, idle=None, backpressure=None):
    """Pauses ``source`` (idle cycles on s_axis) and ``sink``
    (backpressure on m_axis) by the patterns given, if any."""
    if idle:
        source.set_pause_generator(idle())
    if backpressure:
        sink.set_pause_generator(backpressure())


def run_core(test_module, top, extra_env):
    """Builds ``top``'s committed Verilog in Icarus (cocotb 2.1 needs
    Verilator 5.036 or newer, and Debian has 5.006) and runs the cocotb
    tests of ``test_module`` on it; ``UTF8HDL_VERILOG`` names the file."""
    from cocotb_tools.runner import get_runner

    verilog = RTL / f"{top}.v"
    build_dir = ROOT / "target" / "cocotb" / top
    runner = get_runner(os.environ.get("SIM", "icarus"))
    runner.build(
        sources=[verilog],
        hdl_toplevel=top,
        build_dir=build_dir,
        timescale=("1ns", "1ps"),
    )
    runner.test(
        test_module=test_module,
        hdl_toplevel=top,
        build_dir=build_dir,
        test_dir=Path(__file__).resolve().parent,
        results_xml=str(build_dir / "results.xml"),
        extra_env={"UTF8HDL_VERILOG": str(verilog), **extra_env},
    )
