"""The game record file: every kind of ending round-trips through the download and the parser, and bad
records are refused with the move number and the reason (docs/records.md)."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Position
from games.models import GameStatus
from lobby.play.moves import game_resign
from lobby.rooms.services import room_close
from study.recordfile import MAX_RECORD_BYTES, RecordError, record_parse, record_text
from tests.games.analysiskit import at, two_player_game
from tests.records import DRAWN_RECORD, RED_VERTICAL_WIN

pytestmark = pytest.mark.django_db


def parse(client: Client, text: str) -> dict[str, object]:
    response = client.post("/api/records/parse", {"text": text}, content_type="application/json")
    assert response.status_code == 200, response.content
    return response.json()


def refusal(client: Client, text: str) -> str:
    response = client.post("/api/records/parse", {"text": text}, content_type="application/json")
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "bad_record"
    return str(body["message"])


def test_every_ending_round_trips_through_the_download_and_the_parser():
    client = Client()
    code, ann, _, line = two_player_game(RED_VERTICAL_WIN)
    _, _, _, drawn = two_player_game(DRAWN_RECORD)
    code, ann, _, resigned = two_player_game("a1 b2 c3")
    game_resign(code=code, player=ann, now=at(10))
    code, _, _, abandoned = two_player_game("d4 d4")
    room_close(code=code, now=at(10))
    expected = {line.pk: ("won", "1-0", "line"), drawn.pk: ("drawn", "1/2-1/2", "full board"),
                resigned.pk: ("resigned", "0-1", "resign"), abandoned.pk: ("abandoned", "*", "abandoned")}
    for game in (line, drawn, resigned, abandoned):
        game.refresh_from_db()
        response = client.get(f"/api/games/{game.pk}/record")
        assert response.status_code == 200
        assert response["Content-Type"] == "text/plain; charset=utf-8"
        assert f'filename="game-{game.pk}.txt"' in response["Content-Disposition"]
        text = response.content.decode()
        parsed = parse(client, text)
        status, result, termination = expected[game.pk]
        assert parsed["moves"] == game.record.split()
        assert (parsed["status"], parsed["result"]) == (status, result)
        headers = parsed["headers"]
        assert isinstance(headers, dict)
        assert (headers["Red"], headers["Yellow"], headers["Termination"]) == ("Ann", "Bob", termination)
        assert headers["Game"] == f"http://testserver/games/{game.pk}"
        assert headers["Ranked"] == ("yes" if game.ranked else "no")
        assert game.status == GameStatus(status)
    won = parse(client, client.get(f"/api/games/{line.pk}/record").content.decode())
    assert won["winner"] == "red" and won["line"] == [{"peg": "a1", "level": n} for n in (1, 2, 3, 4)]


def test_the_file_is_numbered_moves_after_the_tags():
    text = record_text({"Red": 'A "quoted" name', "Result": "1-0"}, RED_VERTICAL_WIN.split(), "1-0")
    assert text == '[Red "A \\"quoted\\" name"]\n[Result "1-0"]\n\n1. a1 b1 2. a1 b1 3. a1 b1 4. a1 1-0\n'
    assert record_parse(text).headers["Red"] == 'A "quoted" name'


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 15), max_size=64))
def test_any_game_round_trips(choices: list[int]):
    position = Position.initial()
    for choice in choices:
        legal = position.legal_pegs()
        if not legal:
            break
        position = position.play(legal[choice % len(legal)])
    moves = position.record().split()
    parsed = record_parse(record_text({}, moves, "*"))
    assert list(parsed.moves) == moves
    assert parsed.status == ("playing" if position.outcome is None else "won" if position.outcome.winner else "drawn")


def test_moves_only_are_a_record_too():
    parsed = record_parse("a1 b1 c3")
    assert (parsed.moves, parsed.status, parsed.result) == (("a1", "b1", "c3"), "playing", "*")
    assert dict(parsed.headers) == {}
    assert record_parse("a1,b1,C3").moves == ("a1", "b1", "c3")


def test_bad_records_are_refused_with_the_move_number():
    client = Client()
    assert refusal(client, "a1 a1 a1 a1 a1") == "Move 3 (Red a1): Peg a1 is full: it already holds 4 beads."
    assert refusal(client, f"{RED_VERTICAL_WIN} c1") == "Move 4 (Yellow c1): The game is over: red won."
    assert refusal(client, '[Opening "x"]\n\n1. a1').startswith("Line 1: unknown tag 'Opening'")
    assert refusal(client, "1. a1 b1 3. c1") == "Move 2: the move number 3. is out of sequence."
    assert refusal(client, "a1 e5") == "Move 1: 'e5' is not a peg (a1 to d4), a move number or a result."
    assert refusal(client, f"{RED_VERTICAL_WIN} 0-1").startswith("The result 0-1 contradicts the moves")
    assert refusal(client, '[Result "1-0"]\n\na1 0-1') == "The result token 0-1 differs from the Result tag 1-0."
    assert refusal(client, "a1 " * (MAX_RECORD_BYTES // 3) + "a1") == f"A record is at most {MAX_RECORD_BYTES} bytes."
    with pytest.raises(RecordError) as error:
        record_parse("a1 b1 a1 b1 a1 b1 a1 b1 a1")
    assert (error.value.move, error.value.ply) == (4, 7)  # b1 after the line


def test_the_limit_is_64_kib_exactly():
    client = Client()
    text = "a1" + " " * (MAX_RECORD_BYTES - 2)
    assert parse(client, text)["moves"] == ["a1"]
    assert refusal(client, text + " ") == f"A record is at most {MAX_RECORD_BYTES} bytes."


def test_unknown_games_answer_404():
    client = Client()
    assert client.get("/api/games/nope/record").json()["code"] == "no_game"
    assert client.get("/api/games/00000000-0000-0000-0000-000000000000/record").status_code == 404


def test_the_record_is_served_to_a_client_accepting_text_only():
    client = Client()
    code, ann, _, game = two_player_game("a1 b2 c3")
    game_resign(code=code, player=ann, now=at(10))
    response = client.get(f"/api/games/{game.pk}/record", HTTP_ACCEPT="text/plain")
    assert response.status_code == 200 and response["Content-Type"] == "text/plain; charset=utf-8"
    assert parse(client, response.content.decode())["moves"] == ["a1", "b2", "c3"]
    missing = client.get("/api/games/00000000-0000-0000-0000-000000000000/record", HTTP_ACCEPT="text/plain")
    assert missing.status_code == 404 and json.loads(missing.content)["code"] == "no_game"
