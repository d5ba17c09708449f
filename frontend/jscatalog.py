"""The pages' texts in a language: the compiled ``frontend/locale/<lang>/LC_MESSAGES/djangojs.po`` as a classic
script, ``/i18n/<lang>.<version>.js``, that every page loads (``defer``, in its head) before its ES modules;
it sets ``globalThis.I18N``, which ``frontend/static/frontend/i18n.js`` reads (docs/translating.md).

The script is built once per process and language; its version is a hash of it, so the page's URL for it
changes with the catalog and a browser keeps it for a year: a page after the first costs no request for it,
and the first fetches it beside the modules, not before them. English, the source language, has none.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation.trans_real import DjangoTranslation
from django.views.decorators.http import require_safe
from django.views.i18n import JavaScriptCatalog

LOCALE = Path(__file__).resolve().parent / "locale"
YEAR = 365 * 24 * 3600
# A gettext plural rule (the .po's Plural-Forms), written into the script as JavaScript: C's and
# JavaScript's operators read the same, and nothing else may be in it.
PLURAL_RULE = re.compile(r"[n0-9\s!=<>&|?:%()+\-*/]+")


@dataclass(frozen=True)
class Script:
    """A language's catalog script, as sent: the JavaScript, gzipped, and its version."""

    body: bytes
    gzipped: bytes
    version: str


def languages() -> set[str]:
    """The languages with a catalog: the site's, but its source language."""
    return {code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE}


@functools.cache
def catalog_script(language: str) -> Script:
    """The script of ``language`` (one of ``languages()``), from its compiled catalog."""
    view = JavaScriptCatalog(domain="djangojs")
    view.translation = DjangoTranslation(language, domain="djangojs", localedirs=[str(LOCALE)])
    plural = view.get_plural()
    rule = plural if isinstance(plural, str) and plural else "(n != 1)"
    if not PLURAL_RULE.fullmatch(rule):
        raise ValueError(f"{language}'s plural rule is not a plain expression of n: {rule!r}")
    catalog = json.dumps(view.get_catalog(), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    body = (
        f'globalThis.I18N={{"lang":{json.dumps(language)},'
        f'"plural":function(n){{return Number({rule})}},"catalog":{catalog}}};\n'
    ).encode()
    return Script(body, gzip.compress(body, compresslevel=9, mtime=0), hashlib.sha256(body).hexdigest()[:12])


def catalog_url(language: str | None = None) -> str | None:
    """Where the page in ``language`` (the active one unless told) finds its catalog; None for English."""
    language = language or get_language() or settings.LANGUAGE_CODE
    if language not in languages():
        return None
    return reverse("frontend:js-catalog", kwargs={"language": language, "version": catalog_script(language).version})


@require_safe
def js_catalog(request: HttpRequest, language: str, version: str) -> HttpResponse:
    """The catalog script: kept for a year under its own version; an older version's URL (a page from
    before a new catalog) gets today's, not to be kept."""
    if language not in languages():
        raise Http404("no catalog for that language")
    script = catalog_script(language)
    zipped = "gzip" in request.headers.get("Accept-Encoding", "")
    response = HttpResponse(script.gzipped if zipped else script.body, content_type="text/javascript; charset=utf-8")
    if zipped:
        response["Content-Encoding"] = "gzip"
    response["Vary"] = "Accept-Encoding"
    response["Cache-Control"] = f"public, max-age={YEAR}, immutable" if version == script.version else "no-cache"
    return response
