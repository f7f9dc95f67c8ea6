"""The package's modules import one another top to bottom: no circle, and the command line needs
no window module to run a command.

The graph is read from the source (ast), so an import inside a function counts as much as one at
the top: a circle through a function-level import still means neither module can be understood,
moved or tested without the other.
"""
from __future__ import annotations

import subprocess
import sys

import pytest

from support.imports import import_graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_graph_sees_function_level_and_relative_imports():
    graph = import_graph()
    # loader.load imports the cache inside the function; files.py imports it relatively
    assert "referee_app.core.knowledge.cache" in graph["referee_app.core.knowledge.loader"]
    assert "referee_app.core.knowledge.cache" in graph["referee_app.core.knowledge.files"]
    assert "referee_app.ui.app" in graph["referee_app.cli"]


def test_the_cycle_finder_finds_a_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle_among_the_package_s_modules():
    assert cycles(import_graph()) == []


def _loaded_ui(argv: list[str]) -> list[str]:
    code = ("import io, contextlib, sys\nfrom referee_app.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    status = main({argv!r})\n"
            "print(status, ','.join(sorted(m for m in sys.modules if m.startswith('referee_app.ui'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    status, _, loaded = out.stdout.strip().partition(" ")
    assert status == "0", out.stdout
    return [m for m in loaded.split(",") if m]


@pytest.mark.parametrize("argv", [["rule", "--ruleset", "icf", "--json", "-"], ["rulesets", "--json"],
                                  ["fouls", "--json"], ["show", "icf-fr:3.12.c", "--json"]])
def test_a_command_loads_no_window_module(argv, tmp_path):
    if "-" in argv:
        situation = tmp_path / "stroke.yaml"
        situation.write_text("before: {own_on_board: 6, opponent_on_board: 7}\nstroke: {pocketed: {own: 2}}\n")
        argv = [str(situation) if a == "-" else a for a in argv]
    assert _loaded_ui(argv) == []


def _cli_imports_of_ui() -> list[str]:
    """The command line's imports of a window module, but the window itself (no command)."""
    graph = import_graph()
    return sorted(f"{module} -> {target}" for module, targets in graph.items()
                  if module.startswith("referee_app.cli") for target in targets
                  if target.startswith("referee_app.ui") and (module, target) != ("referee_app.cli", "referee_app.ui.app"))


def test_the_command_line_imports_the_window_only_to_open_it():
    # PDF writing and the quiz's board drawing live in referee_app/printing, beside the window
    assert _cli_imports_of_ui() == []
