"""Accounts: register keeps the device's player, login brings it to another device, logout forgets it; the
limits on logins (the API's and the admin's) and on registrations per address."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from common.errors import Refused
from lobby.rooms.services import room_create, room_sit
from players.accounts import (
    LOGIN_FAILURES_PER_ADDRESS,
    LOGIN_FAILURES_PER_NAME,
    LOGIN_WINDOW,
    RateLimited,
    account_login,
    account_register,
    login_failure_count,
    registration_quota_take,
)
from players.admin import ThrottledAdminLoginForm
from players.language import language_of
from players.models import Player
from players.preferences import preferences_of
from players.services import player_create
from ratings.models import PlayerRating
from tests.ratings.ratingkit import RED_WINS, Table, at, play_game

pytestmark = pytest.mark.django_db

PASSWORD = "four-in-a-row-3d!"


@pytest.fixture(autouse=True)
def _no_counted_failures():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def device():
    """A browser-like client that enforces CSRF; it has fetched its csrftoken cookie."""
    client = Client(enforce_csrf_checks=True)
    client.get("/api/session")
    return client


def post(client, url, data=None):
    return client.post(url, data or {}, content_type="application/json",
                       HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)


def guest(client, name="Ann") -> str:
    return post(client, "/api/session", {"name": name}).json()["player"]["id"]


# --- over HTTP -----------------------------------------------------------------------------------
def test_register_keeps_the_devices_player_and_login_brings_it_to_another_device(device):
    player_id = guest(device)
    registered = post(device, "/api/accounts/register", {"username": "ann", "password": PASSWORD})
    assert registered.status_code == 201
    assert registered.json() == {"player": {"id": player_id, "name": "Ann"}, "username": "ann"}
    assert device.get("/api/session").json()["player"]["id"] == player_id
    assert device.get("/api/accounts/me").json()["username"] == "ann"
    user = User.objects.get(username="ann")
    assert PASSWORD not in user.password and user.check_password(PASSWORD)  # stored hashed

    phone = Client(enforce_csrf_checks=True)
    phone.get("/api/session")
    guest(phone, "Phone guest")
    logged_in = post(phone, "/api/accounts/login", {"username": "ANN", "password": PASSWORD})
    assert logged_in.status_code == 200 and logged_in.json()["player"]["id"] == player_id
    assert phone.get("/api/session").json()["player"]["id"] == player_id

    logged_out = post(phone, "/api/accounts/logout")
    assert logged_out.status_code == 200 and logged_out.json() == {"player": None, "username": None}
    assert phone.get("/api/session").json()["player"] is None
    me = phone.get("/api/accounts/me").json()
    assert (me["player"], me["username"], me["email"]) == (None, None, None)
    again = post(phone, "/api/accounts/login", {"username": "ann", "password": PASSWORD})
    assert again.json()["player"]["id"] == player_id
    assert Player.objects.get(pk=player_id).user == user


def test_register_keeps_rating_and_history(device):
    player_id = guest(device)
    ann = Player.objects.get(pk=player_id)
    bob = player_create(name="Bob", now=at())
    code = room_create(host=ann, rules={}, now=at()).code
    room_sit(code=code, player=bob, now=at())
    play_game(Table(code=code, ann=ann, bob=bob), RED_WINS, now=at())
    before = PlayerRating.objects.get(player=ann)
    assert post(device, "/api/accounts/register", {"username": "ann", "password": PASSWORD}).status_code == 201
    page = device.get(f"/api/players/{player_id}").json()
    assert page["account"] is True and page["games"] == 1 and page["rating"] == round(before.rating, 2)
    assert len(page["history"]) == 1


def test_register_without_a_player_makes_one_named_after_the_account(device):
    response = post(device, "/api/accounts/register", {"username": "zoe", "password": PASSWORD})
    assert response.status_code == 201 and response.json()["player"]["name"] == "zoe"
    assert device.get("/api/session").json()["player"]["id"] == response.json()["player"]["id"]


def test_taken_names_and_wrong_passwords_are_clear(device):
    guest(device)
    assert post(device, "/api/accounts/register", {"username": "ann", "password": PASSWORD}).status_code == 201
    other = Client(enforce_csrf_checks=True)
    other.get("/api/session")
    taken = post(other, "/api/accounts/register", {"username": "Ann", "password": PASSWORD})
    assert taken.status_code == 409 and taken.json()["code"] == "name_taken"
    wrong = post(other, "/api/accounts/login", {"username": "ann", "password": "not it at all"})
    assert wrong.status_code == 401 and wrong.json()["code"] == "bad_credentials"
    unknown = post(other, "/api/accounts/login", {"username": "nobody", "password": PASSWORD})
    assert unknown.status_code == 401 and unknown.json() == wrong.json()
    twice = post(device, "/api/accounts/register", {"username": "ann2", "password": PASSWORD})
    assert twice.status_code == 409 and twice.json()["code"] == "already_registered"


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({"username": "an", "password": PASSWORD}, "bad_username"),
        ({"username": "ann lee", "password": PASSWORD}, "bad_username"),
        ({"username": 7, "password": PASSWORD}, "bad_username"),
        ({"password": PASSWORD}, "bad_username"),
        ({"username": "ann", "password": "short"}, "weak_password"),
        ({"username": "ann", "password": "password123"}, "weak_password"),
        ({"username": "ann", "password": "12345678901"}, "weak_password"),
        ({"username": "annabelle", "password": "annabelle1"}, "weak_password"),
        ({"username": "ann"}, "weak_password"),
    ],
)
def test_register_refuses_bad_usernames_and_weak_passwords(device, data, code):
    response = post(device, "/api/accounts/register", data)
    assert response.status_code == 400 and response.json()["code"] == code
    assert response.json()["message"]
    assert not User.objects.exists()


def test_a_guest_cannot_log_out_and_lose_its_player(device):
    player_id = guest(device)
    refused = post(device, "/api/accounts/logout")
    assert refused.status_code == 409 and refused.json()["code"] == "guest_player"
    assert device.get("/api/session").json()["player"]["id"] == player_id
    fresh = Client(enforce_csrf_checks=True)
    fresh.get("/api/session")
    assert post(fresh, "/api/accounts/logout").status_code == 200  # nothing to lose


def test_account_writes_need_the_csrf_token(device):
    guest(device)
    for url in ("/api/accounts/register", "/api/accounts/login", "/api/accounts/logout"):
        response = device.post(url, {"username": "ann", "password": PASSWORD}, content_type="application/json")
        assert response.status_code == 403
    assert not User.objects.exists()


def test_failed_logins_are_rate_limited_over_http(device):
    guest(device)
    post(device, "/api/accounts/register", {"username": "ann", "password": PASSWORD})
    other = Client(enforce_csrf_checks=True)
    other.get("/api/session")
    for _ in range(LOGIN_FAILURES_PER_NAME):
        assert post(other, "/api/accounts/login", {"username": "ann", "password": "nope"}).status_code == 401
    limited = post(other, "/api/accounts/login", {"username": "ann", "password": PASSWORD})
    assert limited.status_code == 429 and limited.json()["code"] == "rate_limited"
    assert 0 < int(limited["Retry-After"]) <= LOGIN_WINDOW.total_seconds()


# --- the services with a fixed clock -------------------------------------------------------------
def account(name="ann"):
    return account_register(player=player_create(name=name.title(), now=at()), username=name, password=PASSWORD,
                            now=at())


def test_login_attempts_are_limited_per_username_and_address_within_the_window():
    player = account()
    for i in range(LOGIN_FAILURES_PER_NAME):
        with pytest.raises(Refused) as failed:
            account_login(username="ann", password="wrong", address="10.0.0.1", now=at(i))
        assert failed.value.code == "bad_credentials"
    with pytest.raises(RateLimited) as limited:
        account_login(username="ann", password=PASSWORD, address="10.0.0.1", now=at(10))
    assert limited.value.code == "rate_limited" and limited.value.retry_after == LOGIN_WINDOW.total_seconds() - 10
    # Another address is not held back by these failures; the window ending frees this one.
    assert account_login(username="ann", password=PASSWORD, address="10.0.0.2", now=at(10)) == player
    later = at() + LOGIN_WINDOW
    assert account_login(username="ann", password=PASSWORD, address="10.0.0.1", now=later) == player


def test_a_successful_login_clears_the_count():
    account()
    for i in range(LOGIN_FAILURES_PER_NAME - 1):
        with pytest.raises(Refused):
            account_login(username="ann", password="wrong", address="10.0.0.1", now=at(i))
    account_login(username="ann", password=PASSWORD, address="10.0.0.1", now=at(10))
    for i in range(LOGIN_FAILURES_PER_NAME - 1):
        with pytest.raises(Refused) as failed:
            account_login(username="ann", password="wrong", address="10.0.0.1", now=at(20 + i))
        assert failed.value.code == "bad_credentials"


def test_one_address_trying_many_usernames_is_limited_too():
    account()
    for i in range(LOGIN_FAILURES_PER_ADDRESS):
        with pytest.raises(Refused):
            account_login(username=f"user{i}", password="wrong", address="10.0.0.9", now=at(i))
    with pytest.raises(RateLimited):
        account_login(username="ann", password=PASSWORD, address="10.0.0.9", now=at(100))
    assert account_login(username="ann", password=PASSWORD, address="10.0.0.8", now=at(100)) is not None


def test_an_inactive_account_cannot_log_in():
    player = account()
    User.objects.filter(pk=player.user_id).update(is_active=False)
    with pytest.raises(Refused) as failed:
        account_login(username="ann", password=PASSWORD, address="10.0.0.1", now=at())
    assert failed.value.code == "bad_credentials"


def test_register_refuses_a_player_that_already_has_an_account():
    player = account()
    with pytest.raises(Refused) as refused:
        account_register(player=player, username="other", password=PASSWORD, now=at(1))
    assert refused.value.code == "already_registered"


# --- the admin's login and registrations, limited as the API's login is ------------------------------
@pytest.fixture
def clock(monkeypatch):
    """The admin login's clock, fixed; ``clock.now += ...`` moves it."""

    class Clock:
        now = timezone.now()

    monkeypatch.setattr(ThrottledAdminLoginForm, "clock", lambda: Clock.now)
    return Clock


def admin_login(username: str, password: str, *, address: str = "10.0.0.1"):  # type: ignore[no-untyped-def]
    return Client(REMOTE_ADDR=address).post("/admin/login/?next=/admin/", {"username": username, "password": password})


def signed_in(response) -> bool:  # type: ignore[no-untyped-def]
    return response.status_code == 302 and response["Location"] == "/admin/"


def test_admin_login_is_refused_after_five_failures_even_with_the_right_password(clock):
    User.objects.create_superuser("boss", password=PASSWORD)
    for _ in range(LOGIN_FAILURES_PER_NAME):
        assert not signed_in(admin_login("boss", "wrong"))
    refused = admin_login("boss", PASSWORD)
    assert not signed_in(refused) and "Too many failed attempts." in refused.content.decode()
    assert signed_in(admin_login("boss", PASSWORD, address="10.0.0.2"))  # another address: its own count
    clock.now += LOGIN_WINDOW - timedelta(seconds=1)
    assert not signed_in(admin_login("boss", PASSWORD))
    clock.now += timedelta(seconds=1)
    assert signed_in(admin_login("boss", PASSWORD))


def test_admin_login_is_refused_after_thirty_failures_from_one_address_whatever_the_name(clock):
    User.objects.create_superuser("boss", password=PASSWORD)
    for i in range(LOGIN_FAILURES_PER_ADDRESS - 1):  # counted as the admin's form counts them (page renders are slow)
        login_failure_count(f"guess{i}", "10.0.0.1", now=clock.now)
    assert not signed_in(admin_login("guess", "wrong"))
    assert "Too many failed attempts." in admin_login("boss", PASSWORD).content.decode()


def test_the_api_and_the_admin_share_the_count(clock):
    User.objects.create_superuser("boss", password=PASSWORD)
    api = Client(REMOTE_ADDR="10.0.0.1")
    for _ in range(LOGIN_FAILURES_PER_NAME):
        answer = api.post("/api/accounts/login", {"username": "boss", "password": "wrong"},
                          content_type="application/json")
        assert answer.status_code == 401
    assert not signed_in(admin_login("boss", PASSWORD))


def test_a_login_without_a_password_does_not_clear_the_count(clock):
    User.objects.create_superuser("boss", password=PASSWORD)
    for _ in range(LOGIN_FAILURES_PER_NAME - 1):
        admin_login("boss", "wrong")
    admin_login("boss", "")  # proves nothing: must not reset the name's failures
    admin_login("boss", "wrong")
    assert not signed_in(admin_login("boss", PASSWORD))


def register(username: str, address: str):  # type: ignore[no-untyped-def]
    return Client(REMOTE_ADDR=address).post("/api/accounts/register", {"username": username, "password": PASSWORD},
                                            content_type="application/json")


def test_registrations_are_limited_per_address(settings):
    settings.REGISTRATIONS_PER_MINUTE_PER_ADDRESS = 2
    answers = [register(f"kid{i}", "10.0.0.9") for i in range(3)]
    assert [a.status_code for a in answers] == [201, 201, 429]
    assert answers[2].json()["code"] == "rate_limited" and int(answers[2]["Retry-After"]) >= 1
    assert register("kid9", "10.0.0.10").status_code == 201


def test_the_registration_limits_a_burst_and_a_day_but_let_a_school_through(settings):
    settings.REGISTRATIONS_PER_MINUTE_PER_ADDRESS, settings.REGISTRATIONS_PER_DAY_PER_ADDRESS = 5, 300
    start = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)
    for second in range(5):
        registration_quota_take(address="school", now=start + timedelta(seconds=second))
    with pytest.raises(RateLimited):  # a sixth within the minute: a script's burst
        registration_quota_take(address="school", now=start + timedelta(seconds=5))
    taken, now = 5, start
    while taken < 300:  # a class at a time, a minute apart, all morning: 300 in the day
        now += timedelta(minutes=2)
        for _ in range(5):
            registration_quota_take(address="school", now=now)
        taken += 5
    with pytest.raises(RateLimited):
        registration_quota_take(address="school", now=now + timedelta(minutes=10))
    registration_quota_take(address="school", now=start + timedelta(days=2))  # the next day but one: free again


# --- the language an account registers in ---------------------------------------------------------------
def register_asking(*, accept: str = "", cookie: str | None = None, chose: str | None = None) -> object:
    """The language preference of an account registered by a device that asks for ``accept`` and the cookie's
    language, its guest player having chosen ``chose`` first (None: nothing)."""
    device = Client(HTTP_ACCEPT_LANGUAGE=accept)
    if cookie is not None:
        device.cookies[settings.LANGUAGE_COOKIE_NAME] = cookie
    if chose is not None:
        assert device.post("/api/session", {"name": "Guest"}, content_type="application/json").status_code in (200, 201)
        assert device.patch("/api/preferences", {"language": chose}, content_type="application/json").status_code == 200
    answer = device.post("/api/accounts/register", {"username": "Mei", "password": PASSWORD},
                         content_type="application/json")
    assert answer.status_code == 201
    return preferences_of(Player.objects.get(user__username="Mei"))["language"]


@pytest.mark.parametrize(("accept", "cookie", "kept"), [
    ("ja,en;q=0.5", None, "ja"),  # the browser's language
    ("de-AT", None, "de"),  # a regional variant is its language
    ("ja", "fr", "fr"),  # the footer's switcher over the browser
    ("en-GB", None, "en"),  # English chosen is kept too: another device's German browser will not change it
    ("", None, None),  # nothing asked: English by default, no choice kept
    ("pt-BR, *;q=0.1", None, None),  # only languages the site lacks
])
def test_an_account_keeps_the_language_it_registered_in(accept, cookie, kept):
    assert register_asking(accept=accept, cookie=cookie) == kept


def test_a_language_the_player_chose_before_registering_stays():
    assert register_asking(accept="ja", chose="es") == "es"


def test_emails_and_notifications_take_the_kept_language():
    register_asking(accept="de")
    assert language_of(Player.objects.get(user__username="Mei")) == "de"
