"""The moderators' part of the admin: the queue of reports (open ones, newest first, each with the chat
around the reported player's messages, the game, the player's earlier reports and actions) and its actions
(dismiss, warn, mute 1/7/30 days, ban), every one recorded with the staff member and the time; the chat
messages, searchable; the actions taken, read only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from lobby.models import ChatMessage
from moderation.models import Action, Report
from moderation.selectors import chat_context
from moderation.services import MUTE_DAYS, report_ban, report_dismiss, report_mute, report_warn

BOLD = mark_safe(' style="font-weight:bold"')  # a constant: nothing of the row's text is in it


class ReadOnly:
    """Rows made by the site, never by hand in the admin."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class StatusFilter(admin.SimpleListFilter):
    """Open reports unless asked otherwise: the queue."""

    title = "status"
    parameter_name = "status"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("open", "open"), ("closed", "closed"), ("all", "all")]

    def choices(self, changelist: Any) -> Any:
        for lookup, title in self.lookup_choices:
            yield {"selected": (self.value() or "open") == lookup, "display": title,
                   "query_string": changelist.get_query_string({self.parameter_name: lookup})}

    def queryset(self, request: HttpRequest, queryset: QuerySet[Report]) -> QuerySet[Report]:
        value = self.value() or "open"
        if value == "open":
            return queryset.filter(closed_at__isnull=True)
        if value == "closed":
            return queryset.filter(closed_at__isnull=False)
        return queryset


def _act(description: str, do: Callable[..., Any], **kwargs: Any) -> Any:
    def action(model_admin: ReportAdmin, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        now = timezone.now()
        done = [do(report, staff=request.user, now=now, **kwargs) for report in queryset.select_related("player")]
        model_admin.message_user(request, f"{description}: {len(done)} report(s).", messages.SUCCESS)

    action.__name__ = description.lower().replace(" ", "_")
    return admin.action(description=description)(action)


@admin.register(Report)
class ReportAdmin(ReadOnly, admin.ModelAdmin[Report]):
    list_display = ("created_at", "player", "reason", "count", "reporter", "closed_at")
    list_filter = (StatusFilter, "reason")
    list_select_related = ("player", "reporter")
    search_fields = ("player__name", "reporter__name", "text")
    ordering = ("-created_at",)
    fields = ("player", "reporter", "reason", "count", "text", "created_at", "updated_at", "closed_at", "game_link",
              "chat", "earlier_reports", "earlier_actions")
    readonly_fields = fields
    actions = (
        _act("Dismiss", report_dismiss),
        _act("Warn", report_warn),
        *(_act(f"Mute {days} days" if days > 1 else "Mute 1 day", report_mute, days=days) for days in MUTE_DAYS),
        _act("Ban", report_ban),
    )

    @admin.display(description="game")
    def game_link(self, report: Report) -> SafeString | str:
        if report.game_id is None:
            return "-"
        return format_html('<a href="/games/{}">{}</a>', report.game_id, report.game_id)

    @admin.display(description="chat in the room (the reported player's messages in bold)")
    def chat(self, report: Report) -> SafeString | str:
        rows = chat_context(report)
        if not rows:
            return "-"
        return format_html("<table>{}</table>", format_html_join(
            "", '<tr{}><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>',
            ((BOLD if m.player_id == report.player_id else "",
              f"{m.created_at:%Y-%m-%d %H:%M:%S}", m.chat, m.author_name, m.text or m.phrase) for m in rows)))

    @admin.display(description="earlier reports of the player")
    def earlier_reports(self, report: Report) -> SafeString | str:
        earlier = Report.objects.filter(player_id=report.player_id).exclude(pk=report.pk).order_by("-created_at")[:20]
        if not earlier:
            return "none"
        return format_html_join(", ", '<a href="{}">{} {}</a>', (
            (reverse("admin:moderation_report_change", args=[r.pk]), f"{r.created_at:%Y-%m-%d}", r.reason)
            for r in earlier))

    @admin.display(description="actions on the player")
    def earlier_actions(self, report: Report) -> str:
        done = Action.objects.filter(player_id=report.player_id).select_related("staff").order_by("-created_at")[:20]
        return "; ".join(f"{a.created_at:%Y-%m-%d %H:%M} {a.kind}" + (f" until {a.until:%Y-%m-%d}" if a.until else "")
                         + f" by {a.staff.username if a.staff else '?'}" for a in done) or "none"


@admin.register(Action)
class ActionAdmin(ReadOnly, admin.ModelAdmin[Action]):
    list_display = ("created_at", "kind", "player", "until", "staff", "acknowledged_at")
    list_filter = ("kind",)
    list_select_related = ("player", "staff")
    search_fields = ("player__name", "staff__username")
    ordering = ("-created_at",)


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnly, admin.ModelAdmin[ChatMessage]):
    list_display = ("created_at", "room", "chat", "author_name", "text", "phrase")
    list_filter = ("chat",)
    list_select_related = ("room",)
    search_fields = ("text", "author_name", "room__code", "player__name")
    ordering = ("-created_at",)
