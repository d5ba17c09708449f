from django.apps import AppConfig


class CommonConfig(AppConfig):
    name = "common"

    def ready(self) -> None:
        # common's sentences (and the pure wire formats') are translated with Django's functions, handed in
        # here: common.translation imports nothing of Django. Installed as an app for its catalogs.
        from django.utils.translation import gettext, ngettext

        from common import translation

        translation.install(gettext, ngettext)
