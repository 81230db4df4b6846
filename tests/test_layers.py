"""Imports go one way only: eventsource <- projections <- statemachine <- tools (DESIGN, Layout), and inside
``statemachine/`` the kernel's own layers read one way too (``KERNEL``, docs/architecture.md); no module of ours
imports itself back through others (no import cycles, anywhere).

Every ``.py`` file of the four packages is parsed with ``ast`` (so a file added tomorrow is checked too), and
every ``import`` in it, at any depth (functions, ``TYPE_CHECKING`` blocks), is held to its layer's rule.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OURS = frozenset({"eventsource", "projections", "statemachine", "tools", "bench", "tests"})

# What each layer may import of ours (itself included).
ALLOWED: dict[str, frozenset[str]] = {
    "eventsource": frozenset({"eventsource"}),
    "projections": frozenset({"eventsource", "projections"}),
    "statemachine": frozenset({"eventsource", "projections", "statemachine"}),
    "tools": frozenset({"eventsource", "projections", "statemachine", "tools"}),
}
GAMES = ("statemachine", "games")

# The kernel's layers, lowest first: a module of ``statemachine/`` may import only modules of lower layers (and
# a game folder its own modules). The engine names the flow, policy and profile above it by protocols
# (``engine.Flow``, ``engine.Policy``, ``engine.Rules``); the game-facing bases build on the engine.
KERNEL: tuple[frozenset[str], ...] = (
    frozenset({"decisions", "cards", "releases", "amounts", "options"}),  # what is decided, what a card is, which
    # version, the amounts card data computes, a game's typed options
    frozenset({"triggers", "vocabulary", "naming", "decks"}),  # when abilities trigger, the names cards are built
    # from, the names shown beside ids, what a legal deck is
    frozenset({"loader", "rederive", "forks"}),  # card files into a checked pool; a log's opening derived from
    # its inputs; a what-if fork's first records
    frozenset({"engine"}),  # the loop: decide -> procedure -> emit -> fold -> triggers -> policy -> commit
    frozenset({"flow", "policy", "context", "board", "bots", "cloning", "replacements"}),  # what a game builds
    # on (replacement and prevention effects among them); seeded players; search clones of an engine
    frozenset({"profile"}),  # one game, as the kernel sees it
    frozenset({"games"}),  # the registry and every game folder
    frozenset({"scenario", "demo"}),  # what runs games: scenario files, the sample games
)

# ``tools/`` is grouped by the job a user comes for, lowest first, with the same rule: a package or top-level
# module imports only those of lower layers (docs/architecture.md, "What tools/ holds").
TOOLS: tuple[frozenset[str], ...] = (
    frozenset({"errors"}),  # exit codes and the errors the command line reports
    frozenset({"logs", "web"}),  # reading and writing logs, safe text; the live surfaces' store thread
    frozenset({"logging", "progress"}),  # structured logs and progress bars, both escaping what logs hold
    frozenset({"travel"}),  # a log at any point, its trace, why and why not
    frozenset({"audit", "page", "cards", "ai"}),  # the judge's audit, the HTML page, the card catalogue, game AI
    frozenset({"debug", "serve"}),  # the live surfaces: the debugger and the game server
    frozenset({"commands"}),  # one module per command group
    frozenset({"cli"}),  # the kifu command
)
LAYERED: dict[str, tuple[frozenset[str], ...]] = {"statemachine": KERNEL, "tools": TOOLS}
TOP_LEVEL_TOOLS = 6  # "a handful": what every job shares (cli, errors, logging, progress, web) and no more


def imported_modules(source: str, module: str, is_package: bool) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in ``source``, relative imports resolved."""
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                package = module.split(".") if is_package else module.split(".")[:-1]
                base = package[: len(package) - (node.level - 1)]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            # ``from pkg import sub`` may name a submodule: keep both so a game folder's check sees it.
            out.append((node.lineno, name))
            out.extend((node.lineno, f"{name}.{alias.name}") for alias in node.names if alias.name != "*")
    return out


def game_folders() -> set[str]:
    return {p.parent.name for p in (ROOT / "statemachine" / "games").glob("*/__init__.py")}


def violations(path: Path, source: str | None = None) -> list[str]:
    rel = path.relative_to(ROOT)
    layer = rel.parts[0]
    module = ".".join(rel.with_suffix("").parts)
    is_package = path.name == "__init__.py"
    if is_package:
        module = module.removesuffix(".__init__")
    text = path.read_text(encoding="utf-8") if source is None else source
    found: list[str] = []
    for line, name in imported_modules(text, module, is_package):
        parts = name.split(".")
        top = parts[0]
        if top in OURS and top not in ALLOWED[layer]:
            found.append(
                f"{rel}:{line}: {layer} imports {name} (a {layer} module may import only "
                f"{', '.join(sorted(ALLOWED[layer]))})"
            )
        # Nothing in a game folder reaches into another game's folder.
        in_game = rel.parts[:2] == GAMES and len(rel.parts) > 3
        names_game = tuple(parts[:2]) == GAMES and len(parts) > 2 and parts[2] in game_folders()
        if in_game and names_game and parts[2] != rel.parts[2]:
            found.append(f"{rel}:{line}: game {rel.parts[2]} imports {name} from game {parts[2]}")
        found.extend(kernel_violation(rel, line, module, parts))
    return found


def kernel_layer(unit: str, layers: tuple[frozenset[str], ...] = KERNEL) -> int | None:
    return next((i for i, layer in enumerate(layers) if unit in layer), None)


def kernel_violation(rel: Path, line: int, module: str, parts: list[str]) -> list[str]:
    """The import breaks the kernel's (or tools') order: it names a module of the same or a higher layer."""
    mine = module.split(".")
    if mine[0] not in LAYERED or parts[0] != mine[0] or len(mine) < 2 or len(parts) < 2:
        return []
    if mine[1] == parts[1]:  # a module's own package (a game folder, say): cycles are checked apart
        return []
    layers = LAYERED[mine[0]]
    here, there = kernel_layer(mine[1], layers), kernel_layer(parts[1], layers)
    if here is None or there is None or there < here:
        return []
    kind = "kernel layer" if mine[0] == "statemachine" else "tools layer"
    return [f"{rel}:{line}: {mine[0]}.{mine[1]} imports {'.'.join(parts)} ({kind} {there + 1} is not "
            f"below layer {here + 1}: {', '.join(sorted(layers[here]))})"]


def module_name(path: Path) -> tuple[str, bool]:
    rel = path.relative_to(ROOT)
    module = ".".join(rel.with_suffix("").parts)
    is_package = path.name == "__init__.py"
    return (module.removesuffix(".__init__") if is_package else module), is_package


def module_graph(files: list[Path], sources: dict[str, str] | None = None) -> dict[str, set[str]]:
    """Which of our modules each module imports (``from pkg import sub`` names the submodule, not ``pkg``)."""
    names = {module_name(p)[0]: p for p in files}
    graph: dict[str, set[str]] = {}
    for name, path in names.items():
        is_package = path.name == "__init__.py"
        text = (sources or {}).get(name) or path.read_text(encoding="utf-8")
        deps: set[str] = set()
        for _, imported in imported_modules(text, name, is_package):
            if imported in names:
                deps.add(imported)
        # ``from pkg import sub`` gives both ``pkg`` and ``pkg.sub``: importing a submodule is not an import of
        # the package's own code, so the package edge stands only when nothing under it was named.
        graph[name] = {d for d in deps if d != name and not any(o.startswith(d + ".") for o in deps)}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted, in sorted order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group: list[str] = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def layer_files() -> list[Path]:
    files = sorted(p for layer in ALLOWED for p in (ROOT / layer).rglob("*.py"))
    assert files, "no source files found: is ROOT right?"
    return files


def test_imports_go_one_way_only() -> None:
    problems = [v for path in layer_files() for v in violations(path)]
    assert not problems, "imports against the layering:\n" + "\n".join(problems)


def test_no_module_imports_itself_back() -> None:
    found = cycles(module_graph(layer_files()))
    assert not found, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_every_kernel_module_has_a_layer() -> None:
    units = {p.relative_to(ROOT / "statemachine").parts[0].removesuffix(".py")
             for p in (ROOT / "statemachine").glob("*") if p.suffix == ".py" or (p / "__init__.py").exists()}
    units.discard("__init__")
    placed = {u for layer in KERNEL for u in layer}
    assert units <= placed, f"kernel modules with no layer in KERNEL: {sorted(units - placed)}"


def units_of(top: str) -> set[str]:
    """The modules and packages directly under ``top`` (``__init__`` aside)."""
    root = ROOT / top
    units = {p.name.removesuffix(".py") for p in root.glob("*") if p.suffix == ".py" or (p / "__init__.py").exists()}
    units.discard("__init__")
    return units


def test_every_tools_package_has_a_layer_and_says_what_it_is_for() -> None:
    placed = {u for layer in TOOLS for u in layer}
    assert units_of("tools") <= placed, f"tools units with no layer in TOOLS: {sorted(units_of('tools') - placed)}"
    for package in sorted(p.parent for p in (ROOT / "tools").glob("*/__init__.py")):
        doc = ast.get_docstring(ast.parse((package / "__init__.py").read_text(encoding="utf-8")))
        summary = (doc or "").split("\n\n")[0]
        assert summary.endswith("."), f"tools/{package.name}/__init__.py needs a summary line saying what it is for"


def test_tools_keeps_only_a_handful_of_top_level_modules() -> None:
    modules = sorted(p.stem for p in (ROOT / "tools").glob("*.py") if p.stem != "__init__")
    assert len(modules) <= TOP_LEVEL_TOOLS, f"tools/ has {len(modules)} top-level modules: {modules}; " \
        "put a module in the package of its job"


def test_the_cycle_finder_finds_cycles() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set(), "c": {"b"}}) == []


def test_a_submodule_import_is_not_an_import_of_its_package(tmp_path: Path) -> None:
    files = [ROOT / "statemachine/games/magic/__init__.py", ROOT / "statemachine/games/magic/board.py"]
    graph = module_graph(files, {"statemachine.games.magic.board": "from statemachine.games.magic import board\n",
                                 "statemachine.games.magic": "from .board import zone\n"})
    assert graph == {"statemachine.games.magic": {"statemachine.games.magic.board"},
                     "statemachine.games.magic.board": set()}


def test_every_layer_is_checked() -> None:
    checked = {p.relative_to(ROOT).parts[0] for p in layer_files()}
    assert checked == set(ALLOWED)


@pytest.mark.parametrize(
    ("file", "source", "expected"),
    [
        ("eventsource/store.py", "from projections.state import GameState\n", "eventsource imports projections.state"),
        ("eventsource/store.py", "def f():\n    import tools.cli\n", "eventsource imports tools.cli"),
        ("projections/state.py", "import statemachine.engine as engine\n", "projections imports statemachine.engine"),
        (
            "projections/state.py",
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from tools import cli\n",
            "projections imports tools",
        ),
        ("projections/views.py", "from ..statemachine import engine\n", "projections imports statemachine"),
        ("statemachine/engine.py", "from tools.travel.trace import render\n",
         "statemachine imports tools.travel.trace"),
        ("statemachine/engine.py", "from bench import ours\n", "statemachine imports bench"),
        ("tools/cli.py", "from tests.fixtures import scripted\n", "tools imports tests.fixtures"),
        (
            "statemachine/games/magic/flow.py",
            "from statemachine.games.duel_masters import pending\n",
            "game magic imports statemachine.games.duel_masters",
        ),
        (
            "statemachine/games/magic/flow.py",
            "from statemachine.games import duel_masters\n",
            "game magic imports statemachine.games.duel_masters",
        ),
        (
            "statemachine/games/magic/flow.py",
            "from ..duel_masters.pending import Pool\n",
            "game magic imports statemachine.games.duel_masters.pending",
        ),
        ("statemachine/engine.py", "from statemachine.profile import RulesProfile\n",
         "statemachine.engine imports statemachine.profile.RulesProfile (kernel layer 6"),
        (
            "statemachine/policy.py",
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from statemachine.context import EffectContext\n",
            "statemachine.policy imports statemachine.context.EffectContext (kernel layer 5 is not below layer 5",
        ),
        ("statemachine/vocabulary.py", "from .context import EffectContext\n",
         "statemachine.vocabulary imports statemachine.context"),
        ("statemachine/games/magic/stack.py", "from statemachine.scenario import run\n",
         "statemachine.games imports statemachine.scenario"),
        ("tools/logs/sources.py", "from tools.travel.trace import render\n",
         "tools.logs imports tools.travel.trace (tools layer 4 is not below layer 2"),
        ("tools/travel/trace.py", "from tools.commands.whatif import fork\n", "tools.travel imports tools.commands"),
    ],
)
def test_the_checker_names_the_file_and_the_import(file: str, source: str, expected: str) -> None:
    found = violations(ROOT / file, source)
    assert any(expected in v and v.startswith(f"{file}:") for v in found), found


@pytest.mark.parametrize(
    ("file", "source"),
    [
        ("eventsource/store.py", "import msgspec\nfrom eventsource.records import seal\nfrom . import errors\n"),
        ("projections/state.py", "from eventsource import events as ev\nfrom .characteristics import view\n"),
        ("statemachine/engine.py", "from projections.state import evolve\nfrom eventsource.store import EventStore\n"),
        ("tools/cli.py", "from statemachine.engine import Engine\nfrom projections import views\nimport click\n"),
        ("statemachine/games/magic/flow.py", "from statemachine.games.magic.stack import Stack\nfrom . import stack\n"),
        ("statemachine/profile.py", "from statemachine.engine import Engine\nfrom statemachine.policy import P\n"),
        ("statemachine/games/magic/flow.py", "from statemachine.profile import RulesProfile\n"),
    ],
)
def test_the_checker_accepts_what_the_layering_allows(file: str, source: str) -> None:
    assert violations(ROOT / file, source) == []
