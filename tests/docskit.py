"""What the docs claim about the code, read by a small grammar (tests/test_docs.py checks each claim).

The docs are README.md and docs/*.md. A claim is one of these, and nothing else:

- a **path**: an inline code span without spaces holding a ``/`` that ends with ``/`` or whose last part has
  a known extension (``lobby/play/moves.py``, ``harness/bench/``); or a bare file name with an extension of
  code or text (``room.js``; not ``Runtime.service``). A path resolves from the repository's root, from one
  of its top-level folders (``room/blind.js`` is the frontend's, ``streams/`` the bots') or from the
  frontend's static and template roots; ``<x>``, ``{x}`` and ``*`` match any name; a test id's ``::name``
  must be a function of the file; a bare file name must be some file's name. Not a path: a span holding
  ``://``, ``=``, ``,`` or starting with ``/``, ``.``, ``@`` or ``~`` (URLs and site paths, other
  repositories, settings, lists, packages of npm); a markdown link's target is a path relative to its
  document;
- a **module or symbol**: a span that is a dotted name (a call's ``(...)`` or a type's ``[...]`` after it
  ignored) whose first part is a project package (``lobby.realtime.offload``,
  ``lobby.play.moves.game_drop``) or a class the project defines (``Consumer.dispatch``); in a fenced
  block, any dotted name or ``/`` path starting with a project package; ``python -m X`` names module X;
- a **path and its names**: a span holding a ``.py`` or ``.js`` path followed on the line by a span of a
  name (``games/services.py`` ``game_play``) or a parenthesised list of them (``lobby/timers.py``
  (``next_due``, ``reschedule``)): each is defined in that file;
- a **management command**: ``manage.py NAME`` in a span;
- an **endpoint**: a span or a fenced line starting with an HTTP method and a path (``GET /api/rooms/{code}``,
  ``POST/DELETE /api/players/{id}/follow``), or a ``ws(s)://HOST/...`` span or a ``/ws/.../`` span of two
  parts or more (a socket's path).
"""

from __future__ import annotations

import functools
import importlib.util
import inspect
import re
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "frontend/static/frontend"
TEMPLATES = ROOT / "frontend/templates/frontend"
EXTENSIONS = {"py", "js", "css", "html", "md", "json", "jsonl", "toml", "txt", "po", "svg", "sh", "lock", "yml",
              "yaml", "ini", "service", "conf", "example", "png", "ico"}
BARE_EXTENSIONS = {"py", "js", "css", "html", "md", "json", "jsonl", "toml", "txt", "po", "svg", "sh", "lock"}
SKIPPED_DIRS = {".git", ".venv", "node_modules", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache"}
METHODS = r"(?:GET|POST|PUT|PATCH|DELETE|HEAD)"
ENDPOINT = re.compile(rf"^>?\s*({METHODS}(?:/{METHODS})*) (/[^\s`]*)")
DOTTED = re.compile(r"^([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(?:\(.*\)|\[.*\])?$")
IDENT = r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*"
SPAN = re.compile(r"`([^`]+)`")
PAIRED = re.compile(rf"`([^`\s]+\.(?:py|js))`\s*(?:`({IDENT})`|\(((?:`{IDENT}`(?:,\s*)?)+))")


@dataclass(frozen=True, slots=True)
class Claim:
    """One thing a document says exists: ``kind`` is path, module (a dotted name), symbol (a name in a file),
    command, endpoint or socket."""

    kind: str
    text: str
    where: str  # "docs/architecture.md:12"
    file: str = ""  # a symbol's file


def docs() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@functools.cache
def packages() -> frozenset[str]:
    """The project's top-level Python packages."""
    return frozenset(p.parent.name for p in ROOT.glob("*/__init__.py"))


@functools.cache
def python_classes() -> dict[str, tuple[str, ...]]:
    """Every top-level class of the project's packages (not their tests or migrations): name -> modules."""
    found: dict[str, list[str]] = {}
    for path, text in python_texts():
        for name in re.findall(r"^class (\w+)", text, re.M):
            found.setdefault(name, []).append(module_of(path))
    return {name: tuple(modules) for name, modules in found.items()}


@functools.cache
def js_classes() -> dict[str, tuple[Path, ...]]:
    """Every class or JSDoc type the pages' modules define: name -> files."""
    found: dict[str, list[Path]] = {}
    for path in STATIC.rglob("*.js"):
        for name in re.findall(r"(?:^|\s)(?:class|@typedef\s*(?:\{[^}]*\})?)\s+(\w+)", path.read_text()):
            found.setdefault(name, []).append(path)
    return {name: tuple(files) for name, files in found.items()}


@functools.cache
def python_texts() -> tuple[tuple[Path, str], ...]:
    """Every module of the project's packages, read once."""
    return tuple((path, path.read_text()) for path in python_files())


def python_files() -> Iterator[Path]:
    for package in sorted(packages()):
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts and not SKIPPED_DIRS.intersection(path.parts):
                yield path


def module_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.cache
def file_names() -> frozenset[str]:
    names: set[str] = set()
    for path in walk(ROOT):
        names.add(path.name)
    return frozenset(names)


def walk(top: Path) -> Iterator[Path]:
    for path in top.iterdir():
        if path.name in SKIPPED_DIRS:
            continue
        yield path
        if path.is_dir() and not path.is_symlink():
            yield from walk(path)


def bases() -> list[Path]:
    """Where a path may start: the root, each top-level folder, the frontend's static and template roots."""
    top = [p for p in sorted(ROOT.iterdir()) if p.is_dir() and p.name not in SKIPPED_DIRS]
    return [ROOT, *top, STATIC, TEMPLATES]


# --- the grammar -----------------------------------------------------------------------------------------
def lines(path: Path) -> Iterator[tuple[int, str, str | None]]:
    """Each line of a document with its number and, inside a fenced block, the block's language ("" none)."""
    fence: str | None = None
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if line.lstrip().startswith("```"):
            fence = line.strip()[3:] if fence is None else None
            continue
        yield number, line, fence


def claims_of_line(line: str, where: str, fence: str | None) -> list[Claim]:
    """The claims one line makes (see the module docstring)."""
    if fence is not None:
        return fenced_claims(line, where)
    found: list[Claim] = []
    for span in SPAN.findall(line):
        found += span_claims(span.strip(), where)
    for match in PAIRED.finditer(line):
        path, one, many = match.groups()
        names = [one] if one else re.findall(r"`([^`]+)`", many)
        found += [Claim("symbol", name, where, file=path) for name in names]
    for target in re.findall(r"\]\(([^)\s]+)\)", line):
        if not re.match(r"^(?:[a-z]+:|#)", target):
            found.append(Claim("path", target.split("#")[0], where, file=where.split(":")[0]))
    return found


def fenced_claims(line: str, where: str) -> list[Claim]:
    found: list[Claim] = []
    endpoint = ENDPOINT.match(line.strip())
    if endpoint:
        found.append(Claim("endpoint", f"{endpoint.group(1)} {endpoint.group(2)}", where))
    names = "|".join(sorted(packages()))
    for match in re.finditer(rf"(?<![\w./-])(?:{names})(?:(?:\.[A-Za-z_]\w*)+|/[\w./-]*)", line):
        text = match.group(0).rstrip(".")
        if "/" in text:
            found.append(Claim("path", text, where))
        elif "." in text:
            found.append(Claim("module", text, where))
    return found


def span_claims(span: str, where: str) -> list[Claim]:
    endpoint = ENDPOINT.match(span)
    if endpoint:
        return [Claim("endpoint", f"{endpoint.group(1)} {endpoint.group(2)}", where)]
    socket = re.match(r"^wss?(?:\(s\))?://HOST(/ws/\S*)$", span) or re.match(r"^(/ws/[^/\s]+/(?:[^/\s]+/)*)$", span)
    if socket:
        return [Claim("socket", socket.group(1), where)]
    command = re.match(r"^(?:\.venv/bin/python |python )?manage\.py (\w+)", span)
    if command:
        return [Claim("command", command.group(1), where)]
    run = re.search(r"python -m ([\w.]+)", span)
    if run:
        return [Claim("module", run.group(1), where)] if run.group(1).split(".")[0] in packages() else []
    if is_path(span):
        return [Claim("path", span, where)]
    dotted = DOTTED.match(span)
    if dotted:
        first = dotted.group(1).split(".")[0]
        if first in packages() or first in python_classes() or first in js_classes():
            return [Claim("module", dotted.group(1), where)]
    return []


def is_path(span: str) -> bool:
    if not span or re.search(r"\s|://|[=,]", span) or span[0] in "/.@~":
        return False
    last = span.split("::")[0].rstrip("/").rsplit("/", 1)[-1]
    extension = last.rsplit(".", 1)[-1] if "." in last else ""
    if span.endswith("/"):
        return bool(span.rstrip("/"))
    known = EXTENSIONS if "/" in span else BARE_EXTENSIONS  # `Runtime.service` is a name, not a unit file
    return extension in known and re.fullmatch(r"[\w.*<>{}/\-]+", last) is not None


# --- what a claim finds ------------------------------------------------------------------------------------
def path_exists(text: str, start: Path | None = None) -> str | None:
    """None when the path is there; else why not."""
    path, _, test = text.partition("::")
    pattern = re.sub(r"<[^>]*>|\{[^}]*\}", "*", path.rstrip("/"))
    if "/" not in path and start is None:
        return None if pattern in file_names() or "*" in pattern else "no file of that name"
    for base in [start] if start is not None else bases():
        skipped = SKIPPED_DIRS.difference(pattern.split("/"))  # unless the path names one
        hits = [hit for hit in base.glob(pattern) if not skipped.intersection(hit.relative_to(base).parts)]
        if path.endswith("/"):
            hits = [hit for hit in hits if hit.is_dir()]
        if hits:
            return test_missing(hits[0], test) if test else None
    return "no such file or folder"


def test_missing(path: Path, test: str) -> str | None:
    name = test.split("[")[0]
    return None if re.search(rf"^\s*(?:async )?def {re.escape(name)}\(", path.read_text(), re.M) else f"no {name}"


def defined_in(name: str, path: Path) -> bool:
    """Whether a JavaScript file defines ``name`` (a function, class, variable, method or object key)."""
    text, word = path.read_text(), re.escape(name)
    return bool(re.search(rf"(?:function\*?|class|const|let|var)\s+{word}\b|^\s*(?:static\s+|async\s+|get\s+)*"
                          rf"{word}\s*\(|^\s*{word}\s*[:=]|export\s*\{{[^}}]*\b{word}\b", text, re.M))


def dotted_missing(text: str) -> str | None:
    """None when the dotted name is a module, or an attribute of one, or of a class the project defines."""
    parts = text.split(".")
    if parts[0] not in packages():
        modules = python_classes().get(parts[0], ())
        if any(attribute_missing(getattr(import_module(m), parts[0]), parts[1:]) is None for m in modules):
            return None
        files = js_classes().get(parts[0], ())
        if len(parts) == 2 and any(defined_in(parts[1], path) for path in files):
            return None
        return f"no class {parts[0]} with {'.'.join(parts[1:])}"
    for cut in range(len(parts), 0, -1):
        name = ".".join(parts[:cut])
        try:
            found = importlib.util.find_spec(name) is not None
        except ModuleNotFoundError:
            found = False
        if found:
            return attribute_missing(import_module(name), parts[cut:])
    return "no such module"


def attribute_missing(owner: object, names: list[str]) -> str | None:
    for name in names:
        if isinstance(owner, type):
            if not any(name in vars(k) or name in vars(k).get("__annotations__", {}) for k in owner.__mro__[:-1]) \
                    and not re.search(rf"\bself\.{re.escape(name)}\b", inspect.getsource(owner)):
                return f"{owner.__name__} has no {name}"
            owner = getattr(owner, name, None)
        elif hasattr(owner, name):
            owner = getattr(owner, name)
        elif hasattr(owner, "__path__") and importlib.util.find_spec(f"{owner.__name__}.{name}"):
            owner = import_module(f"{owner.__name__}.{name}")
        else:
            return f"{getattr(owner, '__name__', owner)!s} has no {name}"
    return None


def symbol_missing(name: str, file: str) -> str | None:
    """None when the file (a path claim's, found as paths are) defines ``name``."""
    hits = [base / file for base in bases() if (base / file).is_file()]
    if not hits:
        return f"no file {file}"
    if file.endswith(".js"):
        return None if any(defined_in(name.split(".")[0], hit) for hit in hits) else f"{file} defines no {name}"
    return attribute_missing(import_module(module_of(hits[0])), name.split("."))


def command_missing(name: str) -> str | None:
    from django.core.management import get_commands

    return None if name in get_commands() else "no such management command"


@functools.cache
def claims() -> tuple[Claim, ...]:
    """Every claim of every document, in order."""
    found: list[Claim] = []
    for doc in docs():
        for number, line, fence in lines(doc):
            found += claims_of_line(line, f"{doc.relative_to(ROOT)}:{number}", fence)
    return tuple(found)


# A placeholder's sample values: a room code, else a whole number, a UUID or a name (the first that resolves).
SAMPLES = {"code": ("K7QZ2M",), "room": ("K7QZ2M",)}
ANY_SAMPLES = ("42", "0b5d2e0c-3f4a-4b8e-9c1d-2e3f4a5b6c7d", "ann")


def endpoint_missing(text: str) -> str | None:
    """None when every method of ``GET/POST /api/...`` reaches a view that has it (when the view says)."""
    from django.urls import Resolver404, resolve

    methods, path = text.split(" ", 1)
    for candidate in samples_of(path.split("?")[0].split("#")[0]):
        try:
            match = resolve(candidate)
        except Resolver404:
            continue
        view = getattr(match.func, "view_class", None) or getattr(match.func, "cls", None)
        refused = [m for m in methods.split("/") if view is not None and not allows(view, m.lower())]
        return f"{match.view_name} does not take {', '.join(refused)}" if refused else None
    return "resolves to no view"


def allows(view: type, method: str) -> bool:
    names = getattr(view, "http_method_names", ())
    return method in names and (hasattr(view, method) or (method == "head" and hasattr(view, "get")))


def socket_missing(path: str) -> str | None:
    """None when a websocket path reaches a consumer (not the catch-all that refuses every other path)."""
    from django.urls import Resolver404, URLResolver
    from django.urls.resolvers import RegexPattern

    from config.routing import websocket_urlpatterns

    routes = [route for route in websocket_urlpatterns if str(route.pattern)]
    resolver = URLResolver(RegexPattern(r"^/"), routes)
    for candidate in samples_of(path):
        try:
            resolver.resolve(candidate)
        except Resolver404:
            continue
        return None
    return "reaches no consumer"


def samples_of(path: str) -> list[str]:
    """The path with each ``{name}`` replaced by sample values of each shape."""
    paths = [path]
    for name in re.findall(r"\{(\w*)[^}]*\}", path):
        paths = [re.sub(r"\{[^}]*\}", value, p, count=1) for p in paths for value in SAMPLES.get(name, ANY_SAMPLES)]
    return paths
