"""Importing this sets Django up in a process that has not (a script), because today the server's wire
format (``lobby.protocol``) reaches Django's models through ``lobby.chat``.

It is a bridge: once the wire format is a Django-free module (issue 20), ``harness.room`` imports that
and this module can go. In a process where Django is set up already (the tests) it does nothing.
"""

from __future__ import annotations

import os

import django
from django.apps import apps

if not apps.ready:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
