"""Who runs a pairing wave, decided across processes through the database: a lease on one row.

Quick pairing (``lobby.PairingWave``) and each arena (``tournaments.Arena``) keep, in one row, when their
last wave started and until when the wave running may run. Every process tries to claim each wave as it
falls due; the claim is one conditional UPDATE of that row (:func:`wave_claim`): the last wave started at
least ``every`` ago and none is running (or the one running outlived its ``WAVE_LEASE``: its process
died). So one process wins each wave however many try, waves never overlap (two overlapping waves would
pair the same people differently and drop each other's pairs), and they keep their pace across
processes. The winner ends its wave (:func:`wave_end`) once written. The runner that claims, reads,
pairs, writes and ends is :func:`lobby.realtime.waves.pair_wave`; each kind of wave says which row.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db import IntegrityError, models, transaction
from django.db.models import Q

# A wave is given this long; if its process dies meanwhile, another process takes over after it.
WAVE_LEASE = timedelta(seconds=30)
# A wave is due a tenth of its period early, so a process ticking every second is not pushed a whole tick
# late by clock jitter.
DUE_EARLY = 0.9


@dataclass(frozen=True, slots=True)
class WaveLease:
    """The row whose lease a kind of wave claims.

    Attributes:
        model, pk: the row.
        started: its field of when the last wave started (NULL: none yet).
        until: its field of until when the wave running may run (NULL: none runs).
        every: the pace of the waves.
        due: what else the row must hold for a wave to be due (an arena: that it is being played).
        create: whether the first claim makes the row (quick pairing's one row) rather than finding it.
    """

    model: type[models.Model]
    pk: int
    started: str
    until: str
    every: timedelta
    due: Q = field(default_factory=Q)
    create: bool = False


def wave_claim(lease: WaveLease, *, now: datetime) -> bool:
    """Whether this process runs the wave due now (see the module docstring); one UPDATE, and, for a
    row made by its first claim that is not there yet, its INSERT."""
    due = now - lease.every * DUE_EARLY
    rows = lease.model._default_manager.filter(lease.due, pk=lease.pk)
    claimed = rows.filter(Q(**{f"{lease.started}__isnull": True}) | Q(**{f"{lease.started}__lte": due})).filter(
        Q(**{f"{lease.until}__isnull": True}) | Q(**{f"{lease.until}__lt": now})
    )
    if claimed.update(**{lease.started: now, lease.until: now + WAVE_LEASE}):
        return True
    if not lease.create:
        return False
    try:
        with transaction.atomic():
            _, created = lease.model._default_manager.get_or_create(
                pk=lease.pk, defaults={lease.started: now, lease.until: now + WAVE_LEASE}
            )
    except IntegrityError:  # another process created it just now, and so runs this wave
        return False
    return created


def wave_end(lease: WaveLease) -> None:
    """The wave this process claimed is written: the next may start when it is due."""
    lease.model._default_manager.filter(pk=lease.pk).update(**{lease.until: None})
