"""What the cocotb benches share: the latency a core's Verilog declares,
the pause patterns, and cocotb's runner on one committed core."""

import itertools
import os
import random
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RTL = ROOT / "synth" / "rtl"


def header_latency(path):
    """The latency the export wrote in the file's header."""
    found = re.search(r"^// utf8hdl-latency: (\d+)$", Path(path).read_text(), re.M)
    assert found, f"{path} has no utf8hdl-latency line: regenerate it"
    return int(found.group(1))


def cycle_pause():
    return itertools.cycle([1, 1, 1, 0])


def random_pause():
    rng = random.Random(7)
    return iter(lambda: rng.random() < 0.4, None)


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
