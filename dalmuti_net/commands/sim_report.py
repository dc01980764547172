"""`dalmuti sim`'s report in the reader's language: the tables of how each strategy did,
in columns measured in screen cells (a Chinese heading takes two per character)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..bots.duplicate import per_deal
from ..bots.stats import mean_interval, t_975
from ..lang.i18n import N_, Translator
from ..lang.text import width

if TYPE_CHECKING:
    from ..bots.arena import ArenaResult, Tally
    from ..bots.duplicate import DuplicateResult
    from ..engine import Rules

FIGURES = (
    N_("hands"),
    N_("avg place"),
    N_("pts/hand"),
    N_("GD"),
    N_("GP"),
    N_("revs"),
    N_("exch"),
)
"""The figures of each seat and strategy (GD, GP: Greater Dalmuti and Greater Peon finishes)."""


def describe_rules(rules: Rules, t: Translator) -> str:
    """The rule options that are on (their rules-file names), or ``basic``."""
    on = []
    for name, value in rules.to_dict().items():
        if value is True:
            on.append(name)
        elif name in ("misdeal_chance", "hand_limit") and value:
            on.append(f"{name}={value}")
    return t.list_separator.join(on) or "basic"


def _hands(t: Translator, hands: int) -> str:
    return t.n_("{n} hand", "{n} hands", hands).format(n=hands)


def heading(players: int, hands: int, seed: int, rotate: bool, rules: Rules, t: Translator) -> str:
    values = {
        "players": players,
        "hands": _hands(t, hands),
        "seed": seed,
        "rules": describe_rules(rules, t),
    }
    if rotate:
        return t._(
            "{players} players, {hands}, seed {seed}, rotating seats; rules: {rules}"
        ).format(**values)
    return t._("{players} players, {hands}, seed {seed}; rules: {rules}").format(**values)


def duplicate_heading(seed: int, rules: Rules, t: Translator) -> str:
    return t._("duplicate deals, seed {seed}; rules: {rules}").format(
        seed=seed, rules=describe_rules(rules, t)
    )


def summary(result: ArenaResult, t: Translator) -> str:
    """The hands, tables, revolutions, misdeals and exchanges, in one sentence."""
    n = result
    return t._(
        "{hands} over {tables}: {revolutions} ({greater}), {misdeals}, {exchanges} ({declined})"
    ).format(
        hands=_hands(t, n.hands),
        tables=t.n_("{n} table", "{n} tables", n.tables).format(n=n.tables),
        revolutions=t.n_("{n} revolution", "{n} revolutions", n.revolutions).format(
            n=n.revolutions
        ),
        greater=t.n_("{n} greater", "{n} greater", n.greater_revolutions).format(
            n=n.greater_revolutions
        ),
        misdeals=t.n_("{n} misdeal", "{n} misdeals", n.misdeals).format(n=n.misdeals),
        exchanges=t.n_("{n} merchant exchange", "{n} merchant exchanges", n.exchanges).format(
            n=n.exchanges
        ),
        declined=t.n_("{n} declined", "{n} declined", n.exchanges_declined).format(
            n=n.exchanges_declined
        ),
    )


def format_report(result: ArenaResult, t: Translator) -> str:
    """How each seat did, then (when some play the same strategy) each strategy."""
    _ = t._
    lines: list[str] = []
    figures = [_(figure) for figure in FIGURES]
    seats = [
        [str(i + 1), tally.strategy, *_figures(tally, result.scoring)]
        for i, tally in enumerate(result.entrants)
    ]
    lines.extend(columns([_("seat"), _("strategy"), *figures], seats, labels=2))
    if len(result.by_strategy) < len(result.entrants):
        strategies = [
            [name, *_figures(tally, result.scoring)]
            for name, tally in sorted(result.by_strategy.items())
        ]
        lines.append("")
        lines.extend(columns([_("strategy"), *figures], strategies, labels=1))
    return "\n".join(lines)


def _figures(tally: Tally, scoring: bool) -> list[str]:
    hands = max(tally.hands, 1)
    return [
        str(tally.hands),
        f"{tally.place_total / hands:.2f}",
        f"{tally.points / hands:.2f}" if scoring else "-",
        str(tally.greater_dalmuti),
        str(tally.greater_peon),
        str(tally.revolutions),
        str(tally.exchanges),
    ]


def columns(header: list[str], rows: list[list[str]], labels: int = 1) -> list[str]:
    """Text columns two cells apart: the first ``labels`` left-aligned, the figures
    right-aligned."""
    widths = [max(width(row[i]) for row in (header, *rows)) for i in range(len(header))]
    lines = []
    for row in (header, *rows):
        cells = []
        for i, (cell, cells_wide) in enumerate(zip(row, widths, strict=True)):
            pad = " " * (cells_wide - width(cell))
            cells.append(cell + pad if i < labels else pad + cell)
        lines.append("  ".join(cells).rstrip())
    return lines


# ---------------------------------------------------------------------- confidence


def format_confidence(result: ArenaResult, tables_per_sample: int, t: Translator) -> str:
    """95% confidence intervals of each strategy's points per hand and GD share.

    Hands at one table are not independent (a finish sets the next hand's seat and taxes),
    and with rotation the tables of one round share their deals, so the samples are whole
    tables, or whole rounds of ``tables_per_sample`` tables. Each figure is a ratio over
    the samples (points / hands); its interval is the ratio estimator's, with Student's t.
    """
    _ = t._
    tables = result.per_table
    samples = [
        _merged(tables[start : start + tables_per_sample])
        for start in range(0, len(tables), tables_per_sample)
    ]
    rows = []
    for name in sorted(result.by_strategy):
        hands = [sample[name].hands for sample in samples if name in sample]
        points = [sample[name].points for sample in samples if name in sample]
        firsts = [sample[name].greater_dalmuti for sample in samples if name in sample]
        rows.append(
            [
                name,
                _interval(points, hands, "{:.3f}") if result.scoring else "-",
                _interval(firsts, hands, "{:.1%}"),
            ]
        )
    if tables_per_sample > 1:
        title = t.n_(
            "95% confidence intervals, {n} round of tables as samples:",
            "95% confidence intervals, {n} rounds of tables as samples:",
            len(samples),
        )
    else:
        title = t.n_(
            "95% confidence intervals, {n} table as samples:",
            "95% confidence intervals, {n} tables as samples:",
            len(samples),
        )
    header = [_("strategy"), _("pts/hand (95% CI)"), _("GD share (95% CI)")]
    return "\n".join([title.format(n=len(samples)), *columns(header, rows)])


def _merged(tables: list[dict[str, Tally]]) -> dict[str, Tally]:
    from ..bots.arena import Tally

    merged: dict[str, Tally] = {}
    for table in tables:
        for name, tally in table.items():
            merged.setdefault(name, Tally(name)).add(tally)
    return merged


def _interval(numerators: list[int], denominators: list[int], style: str) -> str:
    """``ratio ± half-width`` of sum(numerators) / sum(denominators) over the samples."""
    total = sum(denominators)
    if total == 0:
        return "-"
    ratio = sum(numerators) / total
    samples = len(denominators)
    if samples < 2:
        return f"{style.format(ratio)} ± ?"
    squares = sum((n - ratio * d) ** 2 for n, d in zip(numerators, denominators, strict=True))
    standard_error = math.sqrt(samples / (samples - 1) * squares) / total
    half = t_975(samples - 1) * standard_error
    return f"{style.format(ratio)} ± {style.format(half)}"


# ---------------------------------------------------------------------- duplicate


def format_duplicate(result: DuplicateResult, t: Translator) -> str:
    _ = t._
    names = list(dict.fromkeys(result.entrants))
    hands = sum(len(deal.played) for deal in result.deals)
    title = _(
        "{players} players: {deals} deals, each played in {players} rotations ({hands} "
        "hands); 95% confidence intervals over deals"
    ).format(players=result.players, deals=len(result.deals), hands=hands)
    header = [_("strategy"), _("pts/hand"), _("avg place"), _("GD share")]
    rows = []
    for name in names:
        points = mean_interval(per_deal(result, name, "points"))
        place = mean_interval(per_deal(result, name, "place"))
        gd = mean_interval(per_deal(result, name, "gd"))
        rows.append(
            [
                name,
                f"{points[0]:.3f} ± {points[1]:.3f}",
                f"{place[0]:.2f} ± {place[1]:.2f}",
                f"{gd[0]:.1%} ± {gd[1]:.1%}",
            ]
        )
    for other in names[1:]:
        first = per_deal(result, names[0], "points")
        second = per_deal(result, other, "points")
        margin = mean_interval([a - b for a, b in zip(first, second, strict=True)])
        rows.append([f"{names[0]} - {other}", f"{margin[0]:+.3f} ± {margin[1]:.3f}", "", ""])
    return "\n".join([title, *columns(header, rows)])
