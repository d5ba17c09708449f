"""The pages' catalog of texts (frontend/jscatalog.py): a page in a language names its catalog script in its
head, deferred, before its modules; the script carries the compiled djangojs catalog and the language's
plural rule, is kept a year under its version and sent gzipped; English pages name none."""

from __future__ import annotations

import gzip
import json
import re

import pytest
from django.test import Client

from frontend.jscatalog import catalog_script

SCRIPT_TAG = re.compile(r'<script defer src="(/i18n/(\w+)\.(\w+)\.js)"></script>')


def catalog_of(body: bytes) -> dict[str, object]:
    """The catalog object a script sets, read as JSON (the plural rule is a function: taken out)."""
    text = body.decode()
    assert text.startswith("globalThis.I18N=") and text.endswith("};\n")
    rule = re.search(r'"plural":function\(n\)\{return Number\(([^{}]*)\)\},', text)
    assert rule, text[:200]
    return {**json.loads(text[len("globalThis.I18N="):-2].replace(rule.group(0), "")), "rule": rule.group(1)}


@pytest.mark.django_db
def test_a_japanese_page_names_its_catalog_before_its_modules_and_an_english_one_none():
    client = Client()
    page = client.get("/ratings", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    found = SCRIPT_TAG.search(page)
    assert found and found.group(2) == "ja" and found.group(3) == catalog_script("ja").version
    assert page.index(found.group(0)) < page.index("</head>") < page.index('type="module"')
    assert SCRIPT_TAG.search(client.get("/ratings", HTTP_ACCEPT_LANGUAGE="en").content.decode()) is None


@pytest.mark.parametrize(("language", "rule", "word"), [
    ("ja", "0", "立体四目並べ"),
    ("de", "(n != 1)", "3D-Vier-gewinnt"),
    ("fr", "(n > 1)", "Quatre en ligne 3D"),
    ("es", "n == 1 ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2", "Cuatro en raya 3D"),
])
def test_the_script_holds_the_language_its_plural_rule_and_its_texts(language, rule, word):
    script = catalog_script(language)
    catalog = catalog_of(script.body)
    assert catalog["lang"] == language and catalog["rule"] == rule
    texts = catalog["catalog"]
    assert isinstance(texts, dict) and texts["3D Four in a Row"] == word
    assert "side\u0004Red" in texts  # a text with a context, keyed as i18n.js looks it up
    forms = texts["%(n)s game"]
    assert isinstance(forms, list) and len(forms) == {"ja": 1, "de": 2, "fr": 2, "es": 3}[language]


def test_the_script_is_kept_a_year_under_its_version_gzipped_and_an_old_version_gets_todays():
    client = Client()
    script = catalog_script("fr")
    answer = client.get(f"/i18n/fr.{script.version}.js", HTTP_ACCEPT_ENCODING="gzip, br")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/javascript")
    assert answer["Cache-Control"] == "public, max-age=31536000, immutable"
    assert answer["Content-Encoding"] == "gzip" and "Accept-Encoding" in answer["Vary"]
    assert gzip.decompress(answer.content) == script.body
    assert len(answer.content) < len(script.body) / 2
    stale = client.get("/i18n/fr.0123456789ab.js")
    assert stale.content == script.body and stale["Cache-Control"] == "no-cache"
    assert client.get(f"/i18n/en.{script.version}.js").status_code == 404
    assert client.get(f"/i18n/xx.{script.version}.js").status_code == 404
    assert client.post(f"/i18n/fr.{script.version}.js").status_code in {403, 405}
