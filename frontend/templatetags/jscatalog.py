"""``{% js_catalog %}``: the script tag of the page's catalog of texts (frontend/jscatalog.py), or nothing
in English."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from frontend.jscatalog import catalog_url

register = template.Library()


@register.simple_tag
def js_catalog() -> SafeString:
    """A deferred classic script: it runs before the page's modules (which are deferred too, and come after it)."""
    url = catalog_url()
    return format_html('<script defer src="{}"></script>', url) if url else SafeString("")
