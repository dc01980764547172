"""Tables played in worker processes for ``arena.simulate(jobs=N)``.

Each worker plays whole seeded tables (``TablePlan``) and reports every finished hand on
a queue, so one progress bar can count the hands of all workers; the outcomes come back
in table order, so the merged result is the same as one process playing them in turn.
Workers are spawned (not forked), so a progress bar's threads in the parent are no hazard.
"""

from __future__ import annotations

import multiprocessing
import queue
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from ..engine import Rules
from .arena import ArenaResult, TablePlan, play_planned_table

_progress: Any = None
"""The worker's end of the parent's progress queue (set by the pool's initializer)."""


def _init_worker(progress: Any) -> None:
    global _progress
    _progress = progress


def _hand_done() -> None:
    _progress.put(1)


def _play(plan: TablePlan, entrants: list[str], rules: Rules, report: bool) -> ArenaResult:
    return play_planned_table(plan, entrants, rules, _hand_done if report else None)


def play_tables_in_processes(
    plans: list[TablePlan],
    entrants: list[str],
    rules: Rules,
    jobs: int,
    on_hand: Callable[[], None] | None,
) -> Iterator[ArenaResult]:
    """Every plan's outcome, in plan order, played by ``jobs`` processes."""
    context = multiprocessing.get_context("spawn")
    progress = context.Queue()
    with ProcessPoolExecutor(
        jobs, mp_context=context, initializer=_init_worker, initargs=(progress,)
    ) as pool:
        futures: list[Future[ArenaResult]] = [
            pool.submit(_play, plan, entrants, rules, on_hand is not None) for plan in plans
        ]
        for future in futures:
            while not future.done():
                _drain(progress, on_hand, wait=0.1)
            _drain(progress, on_hand, wait=None)
            yield future.result()
        _drain(progress, on_hand, wait=None)


def _drain(progress: Any, on_hand: Callable[[], None] | None, wait: float | None) -> None:
    """Count the hands the workers reported; wait up to ``wait`` seconds for the first."""
    if on_hand is None:
        return
    try:
        progress.get(timeout=wait) if wait else progress.get_nowait()
        on_hand()
        while True:
            progress.get_nowait()
            on_hand()
    except queue.Empty:
        return
