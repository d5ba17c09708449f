"""Extract the texts to translate into every catalog (``make messages``; docs/translating.md).

For each app with a ``locale`` directory: Django's ``makemessages`` in the app's directory, for every
language of ``settings.LANGUAGES`` but English (the source), domain ``django`` (templates and Python);
for ``frontend`` also ``djangojs`` (its ES modules). New texts come in with an empty translation, changed
ones marked fuzzy, removed ones dropped. A new catalog gets its language in its header (and from ``makemessages`` the
plural rule of Django's own catalog of the language, ``PLURAL_FORMS``). Needs GNU gettext (``xgettext``, ``msgmerge``).

``--app NAME`` limits it to some apps; ``--into DIR`` extracts into a copy of the apps under ``DIR``
instead. ``extract_texts`` only extracts (into a copy), merging nothing: tests/config/test_catalogs.py
checks with it that the committed catalogs lack no text.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# gettext's plural rule of each language (how many forms, and which one a count takes): Django's own
# catalogs' (makemessages copies it into a new catalog), so that every catalog of a language has the same.
PLURAL_FORMS = {
    "ja": "nplurals=1; plural=0;",
    "de": "nplurals=2; plural=(n != 1);",
    "fr": "nplurals=2; plural=(n > 1);",
    "es": "nplurals=3; plural=n == 1 ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2;",
}
# Not the site's texts: dependencies, the tests of the pages' modules, three.js.
IGNORED = ["node_modules", "tests", "types", "static/three"]
JS_DOMAIN_APPS = {"frontend"}


def apps_with_catalogs(root: Path = ROOT) -> list[str]:
    """The apps that keep catalogs (a ``locale`` directory), in a stable order."""
    return sorted(path.parent.name for path in root.glob("*/locale") if path.is_dir())


def languages() -> list[str]:
    from django.conf import settings

    return [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


def domains(app: str) -> list[str]:
    return ["django", "djangojs"] if app in JS_DOMAIN_APPS else ["django"]


@contextlib.contextmanager
def working_directory(path: Path) -> Iterator[None]:
    before = Path.cwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(before)


def copy_app(app: str, into: Path, root: Path = ROOT) -> Path:
    """A copy of the app's sources and catalogs under ``into`` (what ``makemessages`` reads and writes)."""
    target = into / app
    shutil.copytree(root / app, target, ignore=shutil.ignore_patterns("node_modules", "__pycache__", "*.mo"))
    return target


def fill_header(app_dir: Path) -> None:
    """A catalog ``makemessages`` just created (its header names no language): its language in the
    header, which is no longer fuzzy (it held placeholders only)."""
    for po in app_dir.glob("locale/*/LC_MESSAGES/*.po"):
        language = po.parent.parent.name
        text = po.read_text(encoding="utf-8")
        if '"Language: \\n"' not in text:
            continue
        text = text.replace('"Language: \\n"', f'"Language: {language}\\n"', 1)
        text = text.replace('#, fuzzy\nmsgid ""\nmsgstr ""\n', 'msgid ""\nmsgstr ""\n', 1)
        po.write_text(text, encoding="utf-8")


def make_messages(apps: list[str], *, root: Path = ROOT, into: Path | None = None, verbosity: int = 1) -> list[Path]:
    """Run ``makemessages`` for ``apps``; returns the app directories it wrote into."""
    from django.core.management import call_command

    written = []
    for app in apps:
        app_dir = copy_app(app, into, root) if into is not None else root / app
        with working_directory(app_dir):
            for domain in domains(app):
                call_command("makemessages", locale=languages(), domain=domain, ignore_patterns=IGNORED,
                             no_obsolete=True, add_location="file", verbosity=verbosity)
        fill_header(app_dir)
        written.append(app_dir)
    return written


def extract_texts(apps: list[str], *, into: Path, root: Path = ROOT) -> dict[tuple[str, str], Path]:
    """What ``make messages`` would extract, without merging it into any catalog: ``makemessages``'s
    template (``.pot``) of each app and domain that marks texts, in a copy of the apps under ``into``
    (one ``xgettext`` run per domain instead of a ``msgmerge`` and a ``msgattrib`` per language besides)."""
    from django.core.management.commands.makemessages import Command

    class ExtractOnly(Command):
        def write_po_file(self, potfile: str, locale: str) -> None:
            pass

    templates = {}
    for app in apps:
        app_dir = copy_app(app, into, root)
        with working_directory(app_dir):
            for domain in domains(app):
                command = ExtractOnly(stdout=io.StringIO(), stderr=io.StringIO())
                command.handle(locale=languages(), exclude=[], domain=domain, all=False, extensions=None,
                               symlinks=False, ignore_patterns=IGNORED, use_default_ignore_patterns=True,
                               no_wrap=False, no_location=False, add_location="file", no_obsolete=True,
                               keep_pot=True, verbosity=0)
                template = app_dir / "locale" / f"{domain}.pot"
                if template.exists():
                    templates[app, domain] = template
    return templates


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--app", action="append", help="only this app (repeatable)")
    parser.add_argument("--into", type=Path, help="extract into a copy of the apps under this directory")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    apps = args.app or apps_with_catalogs()
    unknown = sorted(set(apps) - set(apps_with_catalogs()))
    if unknown:
        parser.error(f"no locale directory in: {', '.join(unknown)} (create <app>/locale first)")
    make_messages(apps, into=args.into)
    return 0


if __name__ == "__main__":
    sys.exit(main())
