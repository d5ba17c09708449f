"""The docs kept true: every path, module, symbol, command and endpoint README.md and docs/*.md name exists
(the grammar of a claim: tests/docskit.py), the README's configuration table is what config/settings.py
reads, and the tables of hooks and registries in docs/architecture.md are what the apps register."""

from __future__ import annotations

import ast
import functools
import re
import tomllib
from importlib import import_module

import pytest

from common.hooks import Hook, OnError, Runs
from tests import docskit
from tests.docskit import ROOT, Claim

# Fewer claims than this means the grammar stopped reading the docs (they hold about a thousand).
FEWEST_CLAIMS = 800
# The claims that are true of their time and need not exist today: (document, claim) -> why.
EXCEPTIONS = {
    ("docs/benchmarks.md", "integration/test_arena_live.py::test_thirty_players_two_processes_every_game_counted_once"):
        "a measurement of the suite on 2026-12-02: the test was renamed when it went to 22 players (132ebf1)",
}


def missing(claim: Claim) -> str | None:
    """Why the claim is false, or None."""
    if claim.kind == "path":
        return docskit.path_exists(claim.text, (ROOT / claim.file).parent if claim.file else None)
    if claim.kind == "module":
        return docskit.dotted_missing(claim.text)
    if claim.kind == "symbol":
        return docskit.symbol_missing(claim.text, claim.file)
    if claim.kind == "command":
        return docskit.command_missing(claim.text)
    if claim.kind == "endpoint":
        return docskit.endpoint_missing(claim.text)
    return docskit.socket_missing(claim.text)


def test_every_path_module_symbol_and_endpoint_the_docs_name_exists():
    claims = docskit.claims()
    false = [f"{c.where}: {c.kind} `{c.text}`{f' (in {c.file})' if c.file else ''}: {why}" for c in claims
             if (c.where.split(":")[0], c.text) not in EXCEPTIONS and (why := missing(c)) is not None]
    assert not false, f"{len(false)} of {len(claims)} claims are false:\n" + "\n".join(false)
    assert len(claims) >= FEWEST_CLAIMS, f"only {len(claims)} claims read"


@pytest.mark.parametrize(("line", "expected"), [
    ("`lobby/play/moves.py` `game_drop` → `play_move`", [("path", "lobby/play/moves.py"), ("symbol", "game_drop")]),
    ("`lobby/timers.py` (`next_due`, `reschedule`)", [("path", "lobby/timers.py"), ("symbol", "next_due"),
                                                      ("symbol", "reschedule")]),
    ("`harness/bench/`, `room/blind.js`, `app.css`", [("path", "harness/bench/"), ("path", "room/blind.js"),
                                                      ("path", "app.css")]),
    ("`lobby.realtime.offload`, `Consumer.dispatch`, `common.errors.Refused(code, message)`, `Runtime.service`",
     [("module", "lobby.realtime.offload"), ("module", "Consumer.dispatch"), ("module", "common.errors.Refused"),
      ("module", "Runtime.service")]),
    ("`POST/DELETE /api/players/{id}/follow`, `ws(s)://HOST/ws/rooms/{code}/`, `/ws/lobby/`",
     [("endpoint", "POST/DELETE /api/players/{id}/follow"), ("socket", "/ws/rooms/{code}/"), ("socket", "/ws/lobby/")]),
    ("`manage.py close_idle_rooms`, `python -m games.engine.match --a 5`, [more](tournaments.md#the-rules)",
     [("command", "close_idle_rooms"), ("module", "games.engine.match"), ("path", "tournaments.md")]),
    # Not the project's, or not a name: URLs and site paths, another repository's file, command lines,
    # settings, a library's names, MIME types, a module named without its package.
    ("`../shared/RULES.md` `https://x.org/a.md` `/r/K7QZ2M` `/ws/` `make run HOST=0.0.0.0` `DB_THREADS` "
     "`asyncio.Queue` `application/x-www-form-urlencoded` `rooms.services.lock_room` `@types/three`", []),
])
def test_the_grammar_reads_these_claims_and_only_these(line, expected):
    claims = docskit.claims_of_line(line, "doc.md:1", None)
    assert [(c.kind, c.text) for c in claims] == expected


def test_each_exception_is_still_claimed_and_still_false():
    claims = {(c.where.split(":")[0], c.text): c for c in docskit.claims()}
    for key in EXCEPTIONS:
        assert key in claims and missing(claims[key]) is not None, f"{key}: no longer needed"


def test_a_false_claim_is_found():
    assert docskit.path_exists("lobby/play/nowhere.py") == "no such file or folder"
    assert docskit.path_exists("tests/test_docs.py::test_nothing") == "no test_nothing"
    assert docskit.dotted_missing("lobby.play.moves.nothing") == "lobby.play.moves has no nothing"
    assert docskit.dotted_missing("Consumer.nothing") == "no class Consumer with nothing"
    assert docskit.symbol_missing("nothing", "lobby/timers.py") == "lobby.timers has no nothing"
    assert docskit.command_missing("nothing") == "no such management command"
    assert docskit.endpoint_missing("GET /api/nowhere") == "resolves to no view"
    assert docskit.endpoint_missing("DELETE /api/rooms") == "rooms does not take DELETE"
    assert docskit.socket_missing("/ws/nowhere/") == "reaches no consumer"


# --- the configuration table ------------------------------------------------------------------------------
def section(doc: str, title: str) -> list[str]:
    """The lines of a document's section, from its heading to the next heading of its level or above."""
    lines = (ROOT / doc).read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.lstrip("#").strip() == title)
    level = len(lines[start]) - len(lines[start].lstrip("#"))
    end = next((i for i in range(start + 1, len(lines))
                if lines[i].startswith("#") and len(lines[i]) - len(lines[i].lstrip("#")) <= level), len(lines))
    return lines[start + 1:end]


def table_rows(lines: list[str]) -> list[list[str]]:
    """The rows of the first table in ``lines`` (header and rule left out), split into cells."""
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith("|")), len(lines))
    return [[cell.strip() for cell in row.strip("|").split(" | ")] for row in lines[start + 2:end]]


@functools.cache
def environment_read() -> frozenset[str]:
    """Every environment variable config/settings.py reads: os.environ.get/[], os.getenv, or a reader of
    config/env.py or of the module itself that reads os.environ with its first parameter, each called with the
    name as a constant."""
    tree = ast.parse((ROOT / "config/settings.py").read_text())
    readers = ast.parse((ROOT / "config/env.py").read_text())

    def reads_environ(node: ast.AST) -> bool:
        return any(name in ast.unparse(node) for name in ("os.environ", "os.getenv", "_read("))

    helpers = {f.name for module in (tree, readers) for f in module.body
               if isinstance(f, ast.FunctionDef) and reads_environ(f) and not f.name.startswith("_")}
    helpers |= {f.name for f in tree.body if isinstance(f, ast.FunctionDef) and reads_environ(f)}
    names: set[str] = set()
    for node in ast.walk(tree):
        key: ast.expr | None = None
        if isinstance(node, ast.Call) and node.args:
            callee = ast.unparse(node.func)
            if callee in {"os.environ.get", "os.getenv"} or callee in helpers:
                key = node.args[0]
        elif isinstance(node, ast.Subscript) and ast.unparse(node.value) == "os.environ":
            key = node.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            names.add(key.value)
    return frozenset(names)


def test_the_readmes_configuration_table_is_what_the_settings_read():
    rows = table_rows(section("README.md", "Configuration (environment variables only)"))
    variables = [name for row in rows for name in re.findall(r"`([A-Z][A-Z0-9_]+)`", row[0])]
    named = {name for row in rows for name in re.findall(r"`([A-Z][A-Z0-9_]+)`", " | ".join(row))}
    assert len(variables) >= 40
    unread, untold = set(variables) - environment_read(), environment_read() - named
    assert not unread, f"in the README's table, not read by config/settings.py: {sorted(unread)}"
    assert not untold, f"read by config/settings.py, not in the README's table: {sorted(untold)}"


# --- the hooks and the registries ---------------------------------------------------------------------------
def defined_by_call(*classes: str) -> set[str]:
    """Every module-level name the project assigns a new instance of one of ``classes`` to (dotted)."""
    made = re.compile(rf"^([A-Za-z_]\w*)(?::[^=\n]*)? = (?:{'|'.join(classes)})\(", re.M)
    return {f"{docskit.module_of(path)}.{name}" for path, text in docskit.python_texts() for name in made.findall(text)}


def packages_named(cell: str) -> set[str]:
    """The project packages a cell names (``lobby.apps`` -> lobby)."""
    return {name.split(".")[0] for name in re.findall(r"`([a-z_]+(?:\.\w+)+)`", cell)} & docskit.packages()


def hooks_rows() -> dict[str, list[str]]:
    rows = table_rows(section("docs/architecture.md", "How a lower layer hears of something above it"))
    return {row[0].strip("`"): row for row in rows}


def test_the_hooks_table_is_every_hook_and_who_registers_with_it():
    rows = hooks_rows()
    hooks = defined_by_call("Hook")
    assert set(rows) == hooks, f"only in the table: {set(rows) - hooks}; not in it: {hooks - set(rows)}"
    for name, (_, event, runs, error, registered_by) in rows.items():
        module, _, attribute = name.rpartition(".")
        hook = getattr(import_module(module), attribute)
        assert isinstance(hook, Hook)
        handlers = {getattr(h, "func", h).__module__.split(".")[0] for h in hook.handlers}
        assert packages_named(registered_by) == handlers, f"{name}: registered by {sorted(handlers)}"
        assert runs.startswith("after commit") == (hook.runs is Runs.AFTER_COMMIT), name
        assert error.startswith("propagates") == (hook.on_error is OnError.PROPAGATE), name
        assert error.startswith("contained") == (hook.on_error is OnError.CONTAIN), name
        assert hasattr(import_module(module), re.findall(r"`(\w+)`", event)[0]), name


def test_the_registries_table_is_every_registry_and_who_registers_with_it():
    lines = section("docs/architecture.md", "How a lower layer hears of something above it")
    start = next(i for i, line in enumerate(lines) if line.startswith("| registry |"))
    rows = {row[0].strip("`"): row for row in table_rows(lines[start:])}
    registries = defined_by_call(*registering_classes())
    assert set(rows) == registries, f"only in the table: {set(rows) - registries}; not in it: {registries - set(rows)}"
    for name, row in rows.items():
        found = registrants(name.rpartition(".")[2])
        assert packages_named(row[-1]) == found, f"{name}: registered by {sorted(found)}"


def registering_classes() -> set[str]:
    """The project's classes with a ``register`` method, but the hooks (their own table)."""
    classes = re.compile(r"^class (\w+)\b.*?(?=^\S|\Z)", re.M | re.S)
    return {match.group(1) for _, text in docskit.python_texts() for match in classes.finditer(text)
            if match.group(1) != "Hook" and re.search(r"^    def register\(", match.group(0), re.M)}


def registrants(attribute: str) -> set[str]:
    """The packages whose code calls ``NAME.register(...)`` (or ``module.NAME.register(...)``)."""
    call = re.compile(rf"^\s*@?(?:\w+\.)?{attribute}\.register\(", re.M)
    return {path.relative_to(ROOT).parts[0] for path, text in docskit.python_texts() if call.search(text)}


# --- the frontend -----------------------------------------------------------------------------------------------
def test_the_frontends_table_is_what_each_template_loads():
    lines = section("docs/architecture.md", "The frontend")
    start = next(i for i, line in enumerate(lines) if line.startswith("| template |"))
    told = {re.findall(r"`([^`]+\.html)`", row[0])[0]: set(re.findall(r"`([^`]+\.(?:js|css))`", row[1]))
            for row in table_rows(lines[start:])}
    loaded = {str(path.relative_to(docskit.TEMPLATES)): refs for path in sorted(docskit.TEMPLATES.rglob("*.html"))
              if (refs := set(re.findall(r"\{% static 'frontend/([^']+\.(?:js|css))' %\}", path.read_text())))}
    assert told == loaded


# --- common and Django ----------------------------------------------------------------------------------------
def test_the_modules_of_common_said_to_use_django_are_those_its_contract_leaves_out():
    text = " ".join(line.strip() for line in (ROOT / "docs/architecture.md").read_text().splitlines())
    [names] = re.findall(r"use Django, ((?:`common\.\w+`(?:, | and )?)+)", text)
    told = set(re.findall(r"`(common\.\w+)`", names))
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    [kept_out] = [c["source_modules"] for c in contracts if c["name"].startswith("common holds")]
    modules = {docskit.module_of(path) for path in (ROOT / "common").glob("*.py") if path.name != "__init__.py"}
    assert told == modules - set(kept_out)
    assert all(re.search(r"^\s*(?:from|import) django\b", (ROOT / f"{m.replace('.', '/')}.py").read_text(), re.M)
               for m in told), "a module said to use Django does not"


# --- the layers -------------------------------------------------------------------------------------------------
def layers_of_the_contract() -> list[set[str]]:
    """The apps' layers as import-linter's first layers contract has them, top down."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    [layers] = [c["layers"] for c in contracts if c["type"] == "layers" and "containers" not in c]
    return [{name.strip() for name in layer.split("|")} for layer in layers]


def test_the_architectures_drawing_of_the_layers_is_the_contracts():
    text = (ROOT / "docs/architecture.md").read_text()
    drawing = text.split("```")[1]  # the first fenced block
    bands = re.split(r"\n\s*─+\n", drawing)
    drawn = [{name for name in re.findall(r"(?<![\w/.])(\w+)/", band) if name in docskit.packages()} for band in bands]
    assert drawn == layers_of_the_contract()


def test_the_readmes_chain_of_layers_is_the_contracts():
    lines = section("README.md", "How it works")
    start = next(i for i, line in enumerate(lines) if line.startswith("- The apps are layers"))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("- "))
    chain = " ".join(lines[start:end]).split("→")
    told = [{name for name in re.findall(r"`(\w+)/`", part) if name in docskit.packages()} for part in chain]
    assert told == layers_of_the_contract()[::-1]
