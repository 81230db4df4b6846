"""A worker's match threads load their games at once (a server restarted under load: every match's seats come
back together) without crashing the process. msgspec builds its information about a Struct type the first time
it converts to it, and two threads doing so at once can read a type node not yet built (SIGSEGV in msgspec's
``convert``): the SQLite kill-and-restart test died so, its server gone, in two runs of three, and eight threads
loading the four games at once in a fresh interpreter died so in four runs of four. ``Shards`` now imports every
game and builds every Struct type's information on one thread before its threads start.

Each runs in a fresh interpreter (a crash must not take the test runner with it, and the types must be new to
msgspec), its threads switching as often as they can so that a race, if any, is met."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from tests.tools.serving import ROOT

KINDS = 100
FIRST_CONVERSIONS_AT_ONCE = textwrap.dedent("""
    import sys, threading
    import msgspec
    from tools.serve.shards import build_struct_types

    # Types new to msgspec, nested as a card's definition is: each converted to for the first time by eight
    # threads at once (without build_struct_types first, this crashed every run: five of five).
    kinds = []
    for i in range(int(sys.argv[2])):
        inner = msgspec.defstruct(f"Inner{i}", [("a", int), ("b", list[str] | None, None), ("c", dict[str, int], {})])
        mid = msgspec.defstruct(f"Mid{i}", [("x", list[inner]), ("y", inner | None, None)])
        kinds.append(msgspec.defstruct(f"Outer{i}", [("m", list[mid]), ("o", mid | None, None)]))
    value = {"m": [{"x": [{"a": 1, "b": ["q"], "c": {"k": 2}}], "y": {"a": 3}}], "o": {"x": []}}
    if sys.argv[1] == "built":
        build_struct_types()
    barrier = threading.Barrier(8)

    def convert():
        barrier.wait()
        for kind in kinds:
            msgspec.convert(value, kind, strict=True)

    threads = [threading.Thread(target=convert) for _ in range(8)]
    sys.setswitchinterval(1e-6)
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print("converted", len(kinds))
""")


def run(script: str, *args: str) -> str:
    ran = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, cwd=ROOT,
                         timeout=300)
    assert ran.returncode == 0, f"exit {ran.returncode} (-11: SIGSEGV)\n{ran.stderr[-2000:]}"
    return ran.stdout


def test_types_built_first_are_converted_to_by_many_threads_at_once() -> None:
    assert run(FIRST_CONVERSIONS_AT_ONCE, "built", str(KINDS)).split() == ["converted", str(KINDS)]

