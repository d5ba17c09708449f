"""Bad input from outside answers a 4xx with the usual body and one log line, never a 500 or a traceback:
NUL characters and lone surrogates (``common.text``), whole numbers in the query (``common.params``),
offsets of instants PostgreSQL refuses, unhashable JSON where a name is expected."""

from __future__ import annotations

import logging
import uuid
from datetime import UTC, datetime, timedelta, timezone

import pytest
from django.test import Client
from django.utils import timezone as django_timezone
from django.utils.dateparse import parse_datetime

from common.errors import Refused
from common.params import parse_int
from common.text import text_fault, value_fault
from live.frames import BadFrame, decode_frame
from players.services import player_create
from tests.bots.botkit import Api, account, bot, session_post, signed_in
from tests.puzzles.puzzlekit import pool_puzzle

pytestmark = pytest.mark.django_db

NUL, SURROGATE = "a\x00b", "a\ud800b"
ARENA = {"name": "Tonight", "starts_at": None, "minutes": 30, "turn_seconds": 30, "ranked": True, "berserk": False}


@pytest.fixture
def quiet(caplog):
    """Asserts afterwards that nothing was logged with a traceback or at ERROR (a 500 logs both)."""
    caplog.set_level(logging.INFO)
    yield caplog
    loud = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not loud, [r.getMessage() for r in loud]


@pytest.fixture
def ann() -> Client:
    return signed_in(account("ann"))


def refused(response, status: int = 400, code: str = "bad_text") -> dict:  # type: ignore[no-untyped-def]
    assert (response.status_code, response.json().get("code")) == (status, code), response.content
    body = response.json()
    assert set(body) == {"code", "message"} and body["message"]
    assert "\x00" not in body["message"] and "\ud800" not in body["message"]
    return body


# --- NUL and lone surrogates in JSON bodies ---------------------------------------------------------
@pytest.mark.parametrize("text", [NUL, SURROGATE], ids=["nul", "surrogate"])
def test_a_tokens_description(quiet, ann, text):
    body = refused(session_post(ann, "/api/accounts/tokens", {"description": text}))
    assert body["message"].startswith("description: ")


@pytest.mark.parametrize("text", [NUL, SURROGATE], ids=["nul", "surrogate"])
def test_an_arenas_name(quiet, ann, text):
    refused(session_post(ann, "/api/tournaments", {**ARENA, "name": text}))


def test_an_unknown_arena_key_is_refused_without_echoing_it(quiet, ann):
    body = refused(session_post(ann, "/api/tournaments", {**ARENA, SURROGATE: 1}))
    assert body["message"] == "a key: text may not hold a lone surrogate."


def test_puzzle_moves(quiet, ann):
    puzzle = pool_puzzle(3)
    body = refused(session_post(ann, f"/api/puzzles/{puzzle.pk}/move", {"moves": ["a1", SURROGATE]}))
    assert body["message"] == "moves[1]: text may not hold a lone surrogate."


@pytest.mark.parametrize("text", [NUL, SURROGATE], ids=["nul", "surrogate"])
def test_a_login_username(quiet, text):
    client = Client()
    refused(client.post("/api/accounts/login", {"username": text, "password": "x"}, content_type="application/json"))


def test_a_surrogate_pair_is_one_character_and_welcome(quiet, ann):
    answer = session_post(ann, "/api/accounts/tokens", {"description": "bot \ud83e\udd16"})  # escaped by json
    assert answer.status_code == 201 and answer.json()["description"] == "bot \U0001f916"


# --- NUL in the path and the query ----------------------------------------------------------------
@pytest.mark.parametrize(("method", "path"), [
    ("post", "/api/challenge/%00"), ("get", "/api/challenge/%00/show"), ("post", "/api/challenge/%00/accept"),
    ("get", "/api/puzzles/%00"), ("post", "/api/puzzles/%00/move"), ("get", "/api/games/%00"),
    ("get", "/api/players/%00"), ("get", "/api/rooms/%00"), ("delete", "/api/accounts/tokens/%00"),
    ("get", "/players/%00"), ("get", "/games/%00"), ("get", "/puzzles/%00"),
])
def test_a_nul_in_the_path(quiet, ann, method, path):
    headers = {"HTTP_X_CSRFTOKEN": ann.cookies["csrftoken"].value}
    body = refused(getattr(ann, method)(path, content_type="application/json", **headers))
    assert body["message"] == "the address: text may not hold a NUL character."


@pytest.mark.parametrize("path", ["/api/puzzles?game=%00", "/api/players?q=%00", "/api/puzzles/next?theme=%00",
                                  "/api/ratings?%00=1", "/admin/players/player/?q=%00"])
def test_a_nul_in_the_query(quiet, path):
    refused(Client().get(path))


# --- whole numbers in the query -------------------------------------------------------------------
@pytest.mark.parametrize("page", ["%C2%B2", "9" * 5000, "0", "-1", "1e3", "%D9%A3", " 1"])
def test_an_arenas_page(quiet, ann, page):
    arena_id = session_post(ann, "/api/tournaments", ARENA).json()["id"]
    body = refused(ann.get(f"/api/tournaments/{arena_id}?page={page}"), code="bad_request")
    assert body["message"] == "page: a whole number from 1 to 10000."
    assert ann.get(f"/api/tournaments/{arena_id}?page=10000").status_code == 200  # past the last: the last


@pytest.mark.parametrize("path", ["/api/tournaments", "/api/games/live", "/api/ratings"])
def test_an_offset_past_the_databases_integers(quiet, path):
    refused(Client().get(f"{path}?offset=99999999999999999999999"), code="bad_request")
    assert Client().get(f"{path}?offset=1000000000").status_code == 200


@pytest.mark.parametrize("arena_id", ["99999999999999999999999", "9" * 5000])
def test_an_arena_id_past_the_databases_integers(quiet, arena_id):
    assert Client().get(f"/api/tournaments/{arena_id}").status_code == 404
    assert Client().get(f"/api/tournaments/{arena_id}/games").status_code == 404


@pytest.mark.parametrize("ply", ["%C2%B2", "65", "-1", "9" * 5000])
def test_a_bot_moves_ply(quiet, ply):
    _, secret = bot("robo")
    body = refused(Api(secret).post(f"/api/bot/game/{uuid.uuid4()}/move/a1?ply={ply}"), code="bad_ply")
    assert body["message"] == "ply is the number of moves you saw, 0 to 64."


# --- other shapes and instants --------------------------------------------------------------------
@pytest.mark.parametrize("room", [["player"], {}], ids=["list", "object"])
def test_a_bot_chats_room_that_is_no_name(quiet, room):
    _, one = bot("robo")
    _, two = bot("bobo")
    red, yellow = Api(one), Api(two)
    made = red.post("/api/challenge/bobo", {"turn_seconds": 60, "colour": "red"}).json()
    game_id = yellow.post(f"/api/challenge/{made['id']}/accept").json()["game"]
    refused(red.post(f"/api/bot/game/{game_id}/chat", {"room": room, "text": "hi"}), code="bad_chat")


@pytest.mark.parametrize("minutes", [23 * 60 + 59, -16 * 60, 16 * 60])
def test_an_arena_start_with_an_offset_postgresql_refuses_is_the_same_instant_in_utc(quiet, ann, minutes):
    moment = (datetime.now(UTC) + timedelta(hours=2)).replace(microsecond=0)
    local = moment.astimezone(timezone(timedelta(minutes=minutes)))  # e.g. 2026-12-02T23:28:00+23:59
    answer = session_post(ann, "/api/tournaments", {**ARENA, "starts_at": local.isoformat()})
    assert answer.status_code == 201, answer.content
    assert parse_datetime(answer.json()["starts_at"]) == moment


@pytest.mark.parametrize("starts_at", ["9999-12-31T23:59:00-23:59", "0001-01-01T00:00:00+23:59"])
def test_an_arena_start_whose_utc_instant_is_out_of_range(quiet, ann, starts_at):
    refused(session_post(ann, "/api/tournaments", {**ARENA, "starts_at": starts_at}), code="bad_request")


# --- the one check and the one parser, and the websocket frames they guard -------------------------
@pytest.mark.parametrize(("text", "fault"), [("ok", None), ("\x00", "a NUL character"), ("\udfff", "a lone surrogate"),
                                             ("\U0001f916", None)])
def test_text_fault(text, fault):
    assert text_fault(text) == fault


def test_value_fault_names_the_place_never_the_text():
    assert value_fault({"a": [{"b": "ok"}, {"c": NUL}]}) == ("a[1].c", "a NUL character")
    assert value_fault({"a": {SURROGATE: 1}}) == ("a key of a", "a lone surrogate")
    assert value_fault([1, None, True, {"x": ["fine"]}]) is None


@pytest.mark.parametrize("text", ["0", "64", "007"])
def test_parse_int_takes_ascii_digits_within_bounds(text):
    assert parse_int(text, name="ply", low=0, high=64) == int(text)


@pytest.mark.parametrize("text", ["", "65", "-1", "²", "٣", " 1", "1_0", "+1", "1.0", "9" * 20, "9" * 5000])
def test_parse_int_refuses_the_rest(text):
    with pytest.raises(Refused) as refusal:
        parse_int(text, name="ply", low=0, high=64)
    assert (refusal.value.code, refusal.value.message) == ("bad_request", "ply: a whole number from 0 to 64.")


@pytest.mark.parametrize("frame", ['{"type": "chat", "text": "\\u0000"}', '{"type": "chat", "text": "\\ud800"}',
                                   '{"type": "drop", "peg": "a1", "\\u0000": 1}'])
def test_a_websocket_frame_with_bad_text_is_refused_as_it_is_decoded(frame):
    with pytest.raises(BadFrame) as refusal:
        decode_frame(frame)
    assert refusal.value.code == "bad_text" and "\x00" not in refusal.value.message


# --- the study's queries and records ---------------------------------------------------------------
@pytest.fixture
def player_id() -> str:
    return str(player_create(name="Ann", now=django_timezone.now()).pk)


@pytest.mark.parametrize("most", ["%C2%B2", "9" * 5000, "0", "100001"])
def test_a_record_streams_max(quiet, player_id, most):
    body = refused(Client().get(f"/api/players/{player_id}/games.txt?max={most}"), code="bad_request")
    assert body["message"] == "max: a whole number from 1 to 100000."


def test_a_record_with_a_move_number_of_5000_digits(quiet):
    answer = Client().post("/api/records/parse", {"text": "9" * 5000 + ". a1"}, content_type="application/json")
    refused(answer, code="bad_record")
