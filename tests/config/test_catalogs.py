"""The translations' catalogs: every app's in every language, complete, with the same placeholders as
English, and fresh (no text of the code missing from them). docs/translating.md says how to fix a failure.
"""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po
from django.conf import settings

from scripts.make_messages import PLURAL_FORMS, ROOT, apps_with_catalogs, extract_texts
from tests.conftest import IN_CI

LANGUAGES = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
APPS = apps_with_catalogs()
# A printf placeholder, named or not (``%%`` is a percent sign, no placeholder).
PLACEHOLDER = re.compile(r"%(?:\((\w+)\))?[-#0 +]*(?:\d+|\*)?(?:\.\d+)?([diouxXeEfFgGcrsa%])")
FORMAT_FLAGS = {"python-format", "javascript-format"}


def read(po: Path) -> Catalog:
    with po.open("rb") as source:
        return read_po(source, locale=po.parent.parent.name, abort_invalid=True)


def read_template(pot: Path) -> Catalog:
    """A ``.pot`` as ``makemessages`` leaves it (its header's plural rule a placeholder Babel cannot read)."""
    text = pot.read_bytes().replace(b"nplurals=INTEGER; plural=EXPRESSION;", b"nplurals=2; plural=(n != 1);")
    return read_po(io.BytesIO(text), abort_invalid=True)


def catalog_paths() -> list[Path]:
    return sorted(ROOT.glob("*/locale/*/LC_MESSAGES/*.po"))


def key(message: Message) -> tuple[str | None, str]:
    msgid = message.id[0] if isinstance(message.id, tuple) else message.id
    return message.context, str(msgid)


def placeholders(text: str) -> list[str]:
    """The placeholders of ``text`` in a comparable form: names (sorted) for named ones, conversions in
    order for positional ones."""
    found = [(name, kind) for name, kind in PLACEHOLDER.findall(text) if kind != "%"]
    named = sorted(f"{name}:{kind}" for name, kind in found if name)
    return named + [kind for name, kind in found if not name]


def problems_of(message: Message) -> list[str]:
    """What is wrong with one entry of a catalog: untranslated, fuzzy, or placeholders unlike English's."""
    if not message.id:
        return []
    ids = list(message.id) if isinstance(message.id, tuple) else [message.id]
    strings = list(message.string) if isinstance(message.string, tuple) else [message.string]
    if message.fuzzy:
        return ["fuzzy"]
    if not all(strings):
        return ["untranslated"]
    if not FORMAT_FLAGS & set(message.flags) and not any("%(" in text for text in ids):
        return []
    if len(ids) == 1:
        return [] if placeholders(strings[0]) == placeholders(ids[0]) else [f"placeholders {strings[0]!r}"]
    # A plural: each form may leave out what only one of English's forms has ("one game" has no count),
    # never add a placeholder, and keeps what both of English's forms have.
    either = set(placeholders(ids[0])) | set(placeholders(ids[1]))
    both = set(placeholders(ids[0])) & set(placeholders(ids[1]))
    return [f"placeholders {text!r}" for text in strings
            if not set(placeholders(text)) <= either or not both <= set(placeholders(text))]


def test_every_app_with_catalogs_has_them_in_every_language():
    assert "frontend" in APPS
    expected = [Path(app, "locale", language, "LC_MESSAGES", f"{domain}.po") for app in APPS
                for domain in sorted({po.stem for po in (ROOT / app).glob("locale/*/LC_MESSAGES/*.po")})
                for language in LANGUAGES]
    missing = [str(po) for po in expected if not (ROOT / po).exists()]
    assert missing == []
    strays = [str(po.relative_to(ROOT)) for po in catalog_paths() if po.parent.parent.name not in LANGUAGES]
    assert strays == [], "a catalog of a language the site does not have (settings.LANGUAGES)"


@pytest.mark.parametrize("po", catalog_paths(), ids=lambda po: str(po.relative_to(ROOT)))
def test_every_text_is_translated_once_with_english_placeholders(po):
    catalog = read(po)
    language = po.parent.parent.name
    assert not catalog.fuzzy, "the header is fuzzy (a new catalog's placeholders): fill it in"
    headers = dict(catalog.mime_headers)
    assert (headers["Language"], headers["Plural-Forms"]) == (language, PLURAL_FORMS[language])
    problems = {key(message)[1]: found for message in catalog if (found := problems_of(message))}
    assert problems == {}
    assert len(catalog) > 0


def test_a_text_in_two_catalogs_of_a_language_is_translated_alike():
    """Django merges every catalog of a language and domain into one, where the first app that has a
    text wins (settings.LOCALE_PATHS): a second translation of it would never show. Two meanings of one
    English text get a ``msgctxt`` each."""
    seen: dict[tuple[str, str, tuple[str | None, str]], tuple[object, str]] = {}
    differ = []
    for po in catalog_paths():
        for message in read(po):
            if not message.id:
                continue
            where = (po.parent.parent.name, po.stem, key(message))
            first = seen.setdefault(where, (message.string, str(po.relative_to(ROOT))))
            if first[0] != message.string:
                differ.append(f"{key(message)[1]!r}: {first[1]} and {po.relative_to(ROOT)}")
    assert differ == []


def test_the_placeholder_check_tells_a_changed_name_from_a_reordered_one():
    def check(msgid: str | tuple[str, str], msgstr: str | tuple[str, ...]) -> list[str]:
        return problems_of(Message(msgid, msgstr, flags=["python-format"]))

    assert check("%(a)s beat %(b)s", "%(b)s a perdu contre %(a)s") == []
    assert check("%(a)s beat %(b)s", "%(a)s schlug %(c)s") != []
    assert check("%(n)s moves", "%(n)d Züge") != []
    assert check(("One game", "%(count)s games"), ("Une partie", "%(count)s parties")) == []
    assert check(("One game", "%(count)s games"), ("%(count)s partie", "%(count)s parties")) == []
    assert check(("%(name)s won one game", "%(name)s won %(count)s games"), ("Une", "%(count)s")) != []
    assert check("Ann", "") == ["untranslated"]
    assert problems_of(Message("Ann", "Anne", flags=["fuzzy"])) == ["fuzzy"]


@pytest.mark.skipif(shutil.which("xgettext") is None and not IN_CI,
                    reason="GNU gettext is not installed (apt-get install gettext)")
def test_the_committed_catalogs_lack_no_text_of_the_code(tmp_path):
    """``make messages`` run now would add nothing: every text marked in the code has its entry (the texts as
    it extracts them, checked against each catalog without running its merge for every language)."""
    stale: dict[str, list[str]] = {}
    templates = extract_texts(APPS, into=tmp_path)
    assert ("frontend", "djangojs") in templates and ("lobby", "django") in templates
    for (app, domain), template in templates.items():
        marked = {key(message) for message in read_template(template) if message.id}
        for language in LANGUAGES:
            relative = Path(app, "locale", language, "LC_MESSAGES", f"{domain}.po")
            committed = ROOT / relative
            have = {key(message) for message in read(committed)} if committed.exists() else set()
            new = sorted(text for context, text in marked - have)
            if new:
                stale[str(relative)] = new
    assert stale == {}, "run `make messages` and translate the new texts"


# Words the glossary (docs/translating.md) turned down for a term of the game that had two in one language:
# the pages' JavaScript said "salon" for a room where the templates and the server said "salle", the room's
# "Show threats" said 脅威 where the JavaScript says リーチ, the pages' clock said カジュアル for casual where
# the player's page and the server say 非レート戦.
REJECTED_TERMS = {"fr": ["salon"], "ja": ["脅威", "カジュアル"]}


@pytest.mark.parametrize("language", sorted(REJECTED_TERMS))
def test_a_term_of_the_game_is_one_word_in_every_catalog_of_a_language(language):
    found = [f"{po.relative_to(ROOT)}: {text!r}" for po in catalog_paths() if po.parent.parent.name == language
             for message in read(po) if message.id
             for text in (message.string if isinstance(message.string, tuple) else (message.string,))
             if any(word in text.lower() for word in REJECTED_TERMS[language])]
    assert found == []
