"""Reports and moderation: a report reaches the admin's queue with the chat around it, staff act on it
(every action recorded), a mute refuses the chat until it ends, a warning is shown once."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from common.errors import Refused
from lobby.chat.services import chat_say
from lobby.models import ChatMessage, Room
from lobby.rooms.services import room_create, room_sit
from moderation.models import Action, Report
from players.models import Player

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_counted_reports():
    cache.clear()
    yield
    cache.clear()


def device(name: str) -> tuple[Client, Player]:
    client = Client(enforce_csrf_checks=True)
    client.get("/api/session")
    player_id = post(client, "/api/session", {"name": name}).json()["player"]["id"]
    return client, Player.objects.get(pk=player_id)


def post(client: Client, url: str, data: dict | None = None):
    return client.post(url, data or {}, content_type="application/json",
                       HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)


@pytest.fixture
def chat():
    """Ann and Bob seated in a room; Bob says 25 things, the insult among them, Ann answers each."""
    (ann_client, ann), (bob_client, bob) = device("Ann"), device("Bob")
    code = room_create(host=ann, rules={}, now=timezone.now()).code
    room_sit(code=code, player=bob, now=timezone.now())
    start = timezone.now() - timedelta(hours=1)
    room = Room.objects.get(code=code)
    ChatMessage.objects.bulk_create([  # as chat_say stores them, in one statement
        ChatMessage(room=room, chat="players", player=who, author_name=who.name,
                    created_at=start + timedelta(minutes=i),
                    text="you are a donkey" if (who, i) == (bob, 40) else f"{who.name.lower()} {i // 2}")
        for i, who in enumerate([bob, ann] * 25)])
    insult = ChatMessage.objects.get(text="you are a donkey")
    return ann_client, ann, bob_client, bob, insult


@pytest.fixture
def staff(admin_user) -> Client:
    client = Client()
    client.force_login(admin_user)
    return client


def report(client: Client, **body):
    return post(client, "/api/reports", body)


def test_a_report_with_a_chat_message_shows_the_chat_around_it_in_the_admin(chat, staff):
    ann_client, ann, _, bob, insult = chat
    made = report(ann_client, player=str(bob.pk), reason="abuse", text="he insults me", message=insult.pk)
    assert made.status_code == 201
    assert made.json() == {"id": made.json()["id"], "player": str(bob.pk), "reason": "abuse", "count": 1,
                           "merged": False}
    queue = staff.get("/admin/moderation/report/")
    assert queue.status_code == 200 and b"Bob" in queue.content
    page = staff.get(f"/admin/moderation/report/{made.json()['id']}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    shown = re.findall(r"<td>((?:bob|ann) \d+|you are a donkey)</td>", html)
    # Bob's five latest messages (the insult, bob 21 .. bob 24) with ten before and after each: from bob 15 on.
    assert "you are a donkey" in shown and "he insults me" in html
    assert shown[0] == "bob 15" and shown[-1] == "ann 24" and len(shown) == 20
    assert '<tr style="font-weight:bold"><td>' in html  # the reported player's lines stand out
    chat_admin = staff.get("/admin/lobby/chatmessage/", {"q": "donkey"})
    assert chat_admin.status_code == 200 and b"you are a donkey" in chat_admin.content
    assert b"ann 3<" not in chat_admin.content  # searched


def test_reports_merge_within_a_day_and_are_limited(chat, settings):
    settings.REPORTS_PER_DAY = 2
    ann_client, ann, bob_client, bob, insult = chat
    assert report(ann_client, player=str(bob.pk), reason="abuse", message=insult.pk).status_code == 201
    again = report(ann_client, player=str(bob.pk), reason="spam", text="and spams")
    assert again.status_code == 201 and again.json()["merged"] is True and again.json()["count"] == 2
    assert Report.objects.count() == 1 and Report.objects.get().message == insult
    assert report(bob_client, player=str(ann.pk), reason="other").status_code == 201
    refused = report(ann_client, player=str(bob.pk), reason="abuse")
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    codes = [report(bob_client, **body).json()["code"] for body in (
        {"player": str(bob.pk), "reason": "abuse"},
        {"player": str(ann.pk), "reason": "rude"},
        {"player": str(ann.pk), "reason": "abuse", "message": insult.pk},
        {"player": "00000000-0000-0000-0000-000000000000", "reason": "abuse"},
        {"player": str(ann.pk), "reason": "abuse", "text": "x" * 501},
    )]
    assert codes == ["self_report", "bad_reason", "bad_report", "no_player", "too_long"]


def act(staff: Client, action: str, report_id: int):
    return staff.post("/admin/moderation/report/", {"action": action, "_selected_action": [report_id]})


def test_a_mute_refuses_say_until_it_ends(chat, staff, admin_user):
    ann_client, ann, _, bob, insult = chat
    report_id = report(ann_client, player=str(bob.pk), reason="abuse", message=insult.pk).json()["id"]
    assert act(staff, "mute_1_day", report_id).status_code == 302
    action = Action.objects.get()
    assert (action.kind, action.staff, action.player) == ("mute", admin_user, bob)
    assert action.until == action.created_at + timedelta(days=1)
    assert Report.objects.get().closed_at == action.created_at  # out of the queue
    code = insult.room.code
    with pytest.raises(Refused) as refused:
        chat_say(code=code, player=bob, chat="players", text="hello?", now=action.until - timedelta(seconds=1))
    assert refused.value.code == "muted" and f"{action.until:%Y-%m-%d %H:%M} UTC" in refused.value.message
    chat_say(code=code, player=ann, chat="players", text="still here", now=action.until - timedelta(seconds=1))
    said = chat_say(code=code, player=bob, chat="players", text="sorry", now=action.until)
    assert said["text"] == "sorry"


def test_a_warning_is_shown_on_the_next_page_once(chat, staff):
    ann_client, ann, bob_client, bob, insult = chat
    report_id = report(ann_client, player=str(bob.pk), reason="abuse", message=insult.pk).json()["id"]
    act(staff, "warn", report_id)
    assert bob_client.get("/api/session").status_code == 200  # the API is never redirected
    page = bob_client.get("/ratings")
    assert page.status_code == 302 and page["Location"] == "/moderation/warning?next=%2Fratings"
    warning = bob_client.get(page["Location"])
    assert warning.status_code == 200 and b"insulting or harassing" in warning.content
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', warning.content).group(1).decode()
    acknowledged = bob_client.post("/moderation/warning", {"next": "/ratings", "csrfmiddlewaretoken": token})
    assert acknowledged.status_code == 302 and acknowledged["Location"] == "/ratings"
    assert bob_client.get("/ratings").status_code == 200
    assert Action.objects.get(kind="warn").acknowledged_at is not None
    assert ann_client.get("/ratings").status_code == 200  # only Bob was warned


def test_dismiss_and_ban_are_recorded_with_the_staff_member(chat, staff, admin_user):
    ann_client, ann, bob_client, bob, insult = chat
    first = report(ann_client, player=str(bob.pk), reason="abuse", message=insult.pk).json()["id"]
    act(staff, "dismiss", first)
    second = report(bob_client, player=str(ann.pk), reason="cheating").json()["id"]
    act(staff, "ban", second)
    assert list(Action.objects.order_by("id").values_list("kind", "staff", "report")) == [
        ("dismiss", admin_user.pk, first), ("ban", admin_user.pk, second)]
    assert Player.objects.get(pk=ann.pk).is_banned and not Player.objects.get(pk=bob.pk).is_banned
    assert not Report.objects.filter(closed_at__isnull=True).exists()
    page = staff.get(f"/admin/moderation/report/{second}/change/").content.decode()
    assert "ban by admin" in page
    assert User.objects.filter(is_staff=True).count() == 1


def guest(name: str, address: str) -> Client:
    client = Client(enforce_csrf_checks=True, REMOTE_ADDR=address)
    client.get("/api/session")
    assert post(client, "/api/session", {"name": name}).status_code == 201
    return client


def test_fresh_guests_of_one_address_are_limited_and_their_reports_are_one_queue_entry(chat, staff, settings):
    settings.REPORTS_PER_DAY_PER_ADDRESS = 5
    *_, bob, _insult = chat
    guests = [guest(f"G{n}", "10.9.0.1") for n in range(6)]
    answers = [report(client, player=str(bob.pk), reason="spam", text=f"spam {n}") for n, client in enumerate(guests)]
    assert [a.status_code for a in answers] == [201] * 5 + [429]
    assert answers[-1].json()["code"] == "rate_limited"
    # Another address's report of Bob goes to the same entry: one entry, the reports counted.
    elsewhere = report(guest("Cy", "10.9.0.2"), player=str(bob.pk), reason="abuse")
    assert elsewhere.status_code == 201 and elsewhere.json()["merged"] and elsewhere.json()["count"] == 6
    [entry] = Report.objects.filter(player=bob)
    assert entry.count == 6 and "spam 0" in entry.text and "spam 4" in entry.text
    # Once a moderator acted on it, the next report of Bob opens a new entry.
    assert act(staff, "dismiss", entry.pk).status_code == 302
    again = report(guest("Di", "10.9.0.3"), player=str(bob.pk), reason="abuse")
    assert again.json()["count"] == 1 and not again.json()["merged"]
    assert Report.objects.filter(player=bob, closed_at__isnull=True).count() == 1
