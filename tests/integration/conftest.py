"""The pair of servers that the modules marked ``tests.pairkit.SHARED`` share (tests/pairkit.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.pairkit import PairKeeper, SharedPair, is_shared

_KEEPER = pytest.StashKey[PairKeeper]()


@pytest.fixture(scope="session")
def _pair_keeper(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[PairKeeper]:
    keeper = request.config.stash[_KEEPER] = PairKeeper(tmp_path_factory.mktemp("postgres-pair"))
    yield keeper
    keeper.stop()
    del request.config.stash[_KEEPER]


@pytest.fixture
def shared_pair(request: pytest.FixtureRequest, _pair_keeper: PairKeeper) -> SharedPair:
    """The two servers on PostgreSQL + Redis of the modules marked ``SHARED``, as this test's module sees them."""
    return _pair_keeper.seen_from(request.module.__name__)


def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """After the last of the shared pair's tests in a row, the pair stops (as a module's servers did)."""
    keeper = item.config.stash.get(_KEEPER, None)
    if keeper is not None and is_shared(item) and not is_shared(nextitem):
        keeper.stop()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The arena last of the shared pair's tests: the pair stops right after it, cutting short the analyses of
    its dozens of games (run first, they went on under the group's next tests: 11 s more CPU in the pairing test)."""
    shared = [i for i, item in enumerate(items) if is_shared(item)]
    arena = [items[i] for i in shared if "test_arena_live" in items[i].nodeid]
    if shared and arena:
        last = shared[-1]
        rest = [item for item in items[: last + 1] if item not in arena]
        items[: last + 1] = [*rest, *arena]
