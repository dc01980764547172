"""Seeded units of work (a table, a duplicate deal) played in worker processes.

Each worker plays whole units and reports every finished hand on a queue, so one progress
bar can count the hands of all workers; the outcomes come back in the units' order, so the
merged result is the same as one process playing them in turn. Workers are spawned (not
forked), so a progress bar's threads in the parent are no hazard.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, TypeVar

Unit = TypeVar("Unit")
Outcome = TypeVar("Outcome")
Work = Callable[[Unit, Callable[[], None] | None], Outcome]

_progress: Any = None
"""The worker's end of the parent's progress queue (set by the pool's initializer)."""


def _init_worker(progress: Any, parent: int) -> None:
    global _progress
    _progress = progress
    # The parent's pid comes from the parent: one killed while this worker was still
    # starting has already left it to another parent.
    threading.Thread(target=_exit_with_parent, args=(parent,), daemon=True).start()


def _exit_with_parent(parent: int) -> None:
    """A parent killed without clean-up (SIGTERM, SIGKILL) leaves its workers playing on
    for nobody: each worker ends itself once it sees that its parent is gone."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def _play(work: Work[Unit, Outcome], index: int, unit: Unit, report: bool) -> tuple[Outcome, int]:
    """The unit's outcome and how many hands it reported (tagged with its index)."""
    reported = 0

    def hand_done() -> None:
        nonlocal reported
        reported += 1
        _progress.put(index)

    return work(unit, hand_done if report else None), reported


def play_in_processes(
    work: Work[Unit, Outcome],
    units: list[Unit],
    jobs: int,
    on_hand: Callable[[], None] | None,
) -> Iterator[Outcome]:
    """``work(unit, on_hand)`` for every unit, in order, played by ``jobs`` processes
    (``work`` a module-level function, the units picklable)."""
    context = multiprocessing.get_context("spawn")
    progress = context.Queue()
    received = [0] * len(units)
    with ProcessPoolExecutor(
        jobs, mp_context=context, initializer=_init_worker, initargs=(progress, os.getpid())
    ) as pool:
        futures: list[Future[tuple[Outcome, int]]] = [
            pool.submit(_play, work, index, unit, on_hand is not None)
            for index, unit in enumerate(units)
        ]
        for index, future in enumerate(futures):
            while on_hand is not None and not future.done():
                _count(progress, received, on_hand, wait=0.1)
            outcome, reported = future.result()
            # The queue may lag the result: wait for this unit's last reports.
            while on_hand is not None and received[index] < reported:
                _count(progress, received, on_hand, wait=1.0)
            yield outcome


def _count(progress: Any, received: list[int], on_hand: Callable[[], None], wait: float) -> None:
    """Count the hands the workers reported, waiting up to ``wait`` seconds for the first."""
    try:
        received[progress.get(timeout=wait)] += 1
        on_hand()
        while True:
            received[progress.get_nowait()] += 1
            on_hand()
    except queue.Empty:
        return
