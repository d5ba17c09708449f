"""The pair of servers that the modules marked ``tests.pairkit.SHARED`` share (tests/pairkit.py), and the
post-game analysis none of these modules' servers computes unless the module asks for it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.pairkit import PairKeeper, SharedPair, is_shared

_KEEPER = pytest.StashKey[PairKeeper]()
# Every server these modules start (their environment is this process's: harness.server.server_env) analyses
# no finished game (ANALYSIS_CPU_BUDGET_S 0: the analysis stays queued, its lane never started): some
# 2 s of CPU a game, and no test here reads an analysis. A module that wants one sets the budget itself.
NO_ANALYSIS = {"ANALYSIS_CPU_BUDGET_S": "0"}


@pytest.fixture(scope="module", autouse=True)
def _servers_analyse_nothing() -> Iterator[None]:
    """``NO_ANALYSIS`` in this process's environment while the module runs (before its servers start: an
    autouse fixture of the module's scope comes first), as it was afterwards (other directories' tests run
    on the same worker)."""
    with pytest.MonkeyPatch.context() as patch:
        for name, value in NO_ANALYSIS.items():
            patch.setenv(name, value)
        yield


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

