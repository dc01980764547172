"""A table's history in words: the listing of its hands, and each hand told as the table's
log told it to one viewer (``story.describe_event``), in the chosen language.

Only the messages given are told: which ones a viewer gets is decided upstream, by the
table core (``dalmuti_net.rerun.frames``).
"""

from __future__ import annotations

import shlex
from pathlib import Path

from ..client.model.countdowns import moved_for_note
from ..client.model.departures import LEFT_MARK, left_note, scored_any
from ..client.model.story import Namer, describe_event
from ..client.session import ClientSession
from ..client.table_view import decode_table
from ..engine import Event
from ..engine import events as ev
from ..engine.roles import roles_of
from ..history.hands import HandSpan, game_spans, hand_result, hand_spans
from ..history.record import ViewerInfo
from ..history.standings import keeps_score
from ..lang.i18n import Translator
from ..lang.text import tidy
from ..lang.words import describe_cards
from ..protocol.messages import Message, event_from_message


def describe_for(
    t: Translator, event: Event, name: Namer, me: int | None, operator: bool = False
) -> str | None:
    """The log's sentence for ``event``; a history also says what cards were dealt, and the
    operator (who sees every card) is told transfers in the third person."""
    if isinstance(event, ev.CardsDealt):
        cards = describe_cards(t, event.cards)
        if event.player == me:
            return t._("You are dealt: {cards}.").format(cards=cards)
        return t._("{name} is dealt: {cards}.").format(name=name(event.player), cards=cards)
    if operator:
        if isinstance(event, ev.TaxCards):
            return t._("{giver} gave {receiver}: {cards}.").format(
                giver=name(event.giver),
                receiver=name(event.receiver),
                cards=describe_cards(t, event.cards),
            )
        if isinstance(event, ev.TaxPaid | ev.MerchantExchanged):
            return None  # the operator's card lines say it with the cards
    return describe_event(t, event, name, me)


def tell(
    t: Translator, frames: list[Message], me: int | None = None, operator: bool = False
) -> list[str | None]:
    """For each message of the stream of ``me`` (a seat, or ``None``: a spectator, or with
    ``operator`` the host), the log's line for it (or ``None``)."""
    # A newcomer is named by a table message just after the event that announces it: a
    # history, read afterwards, names each player by the name it was known by.
    everyone = names_in(t, frames)
    session = ClientSession("history", spectator=True)
    lines: list[str | None] = []
    moved_for: tuple[int, str] | None = None
    for frame in frames:
        session.receive(frame)
        names = {**everyone, **shown_names(t, session)}

        def name_of(player: int, me: int | None = me, names: dict[int, str] = names) -> str:
            name = names.get(player, f"#{player}")
            return t._("{name} (you)").format(name=name) if player == me else name

        kind = frame["type"]
        if kind == "chat":
            lines.append(f"{frame['name']}: {frame['text']}")
            continue
        if kind == "moved_for":  # the next move of that seat was made for it
            moved_for = (frame["player"], frame["by"])
            lines.append(None)
            continue
        event = event_from_message(frame) if "seq" in frame and kind != "snapshot" else None
        line = None if event is None else describe_for(t, event, name_of, me, operator)
        if isinstance(event, ev.PlayerRemoved):  # a departure, told as the table's log tells it
            line = t._("{name} has left the table.").format(name=name_of(event.player))
        mover = getattr(event, "player", getattr(event, "giver", None))
        if line is not None and moved_for is not None and mover == moved_for[0]:
            line += " " + moved_for_note(t, moved_for[1], mine=mover == me)
            moved_for = None
        if isinstance(event, ev.Waiting):
            moved_for = None
        lines.append(None if line is None else tidy(line))
    return lines


def names_in(t: Translator, frames: list[Message]) -> dict[int, str]:
    """Every seat's name as the viewer was last told it (the host's bots translated)."""
    session = ClientSession("history", spectator=True)
    names: dict[int, str] = {}
    for frame in frames:
        session.receive(frame)
        names.update(shown_names(t, session))
    return names


def shown_names(t: Translator, session: ClientSession) -> dict[int, str]:
    """The seats' names as the table screen shows them, from the last table message."""
    players = () if session.table is None else session.table.players
    return {seat.player: seat.name for seat in players}


def hand_summary(
    t: Translator, frames: list[Message], span: HandSpan, names: dict[int, str]
) -> str:
    """``Hand 3: Ana, Bo (left), Cy, Di (a revolution: no taxes); Di loses the crown; a bot
    stood in for Cy``: the finishing order, or that it was not finished, with who left the
    table during it; a revolution, and whose crown a Greater Revolution took; who lost the
    crown, if the Greater Dalmuti when play began did not finish first (the morning-after
    question: "the hand where I lost the crown"); and whose moves a stand-in bot made, as
    the told hand marks each of them."""
    result = hand_result(frames, span)
    hand = frames[span.start : span.end]
    left = {f["player"] for f in hand if f["type"] == "player_leaving"}

    def named(player: int) -> str:
        name = names.get(player, f"#{player}")
        if player in left:
            return t._("{name} ({note})").format(name=name, note=t._(LEFT_MARK))
        return name

    # Rule 7: only a Greater Revolution takes the crown (its declarer is the Greater
    # Dalmuti when play begins); an ordinary one only cancels the taxes.
    dealt_to = next((f["order"][0] for f in hand if f["type"] == "hand_started"), None)
    revolution = next((f for f in hand if f["type"] == "revolution_declared"), None)
    crowned = dealt_to
    if revolution is not None and revolution["greater"]:
        crowned = revolution["player"]
    if result is None:
        text = t._("Hand {hand}: not finished").format(hand=span.number)
    else:
        order = t.list_separator.join(named(p) for p in result["finishing"])
        text = t._("Hand {hand}: {order}").format(hand=span.number, order=order)
    if revolution is not None and crowned != dealt_to and dealt_to is not None:
        text += " " + t._("({name}'s Greater Revolution takes {old}'s crown)").format(
            name=names.get(revolution["player"], f"#{revolution['player']}"),
            old=names.get(dealt_to, f"#{dealt_to}"),
        )
    elif revolution is not None:
        text += " " + t._("(a revolution: no taxes)")
    finishing = [] if result is None else result["finishing"]
    if finishing and crowned is not None and finishing[0] != crowned:
        text += t._("; ") + t._("{name} loses the crown").format(
            name=names.get(crowned, f"#{crowned}")
        )
    # A leaver's seat is played out by a bot too: "left" says that already.
    stood_in = [
        player
        for player in dict.fromkeys(
            f["player"] for f in hand if f["type"] == "moved_for" and f["by"] == "stand_in"
        )
        if player not in left
    ]
    if stood_in:
        who = t.list_separator.join(names.get(p, f"#{p}") for p in stood_in)
        text += t._("; ") + t.n_(
            "a bot stood in for {names}", "bots stood in for {names}", len(stood_in)
        ).format(names=who)
    return text


def standings_text(t: Translator, frames: list[Message], names: dict[int, str]) -> str | None:
    """The final standings, then those who left before the end with their points (as the
    table's screens show them: nobody who played a hand is left out); without scoring,
    the finishing order with each role instead."""
    ended = next((f for f in reversed(frames) if f["type"] == "table_ended"), None)
    if ended is None:
        return None
    if keeps_score(frames) and not scored_any(s for _, s, _ in ended["standings"]):
        # Ended before any hand was scored: nobody is ranked (not everyone "1.").
        ranked = [
            t._("{name} {score}").format(name=names.get(p, f"#{p}"), score=score)
            for p, score, _ in ended["standings"]
        ]
    elif keeps_score(frames):
        ranked = [
            t._("{place}. {name} {score}").format(
                place=place, name=names.get(p, f"#{p}"), score=score
            )
            for p, score, place in ended["standings"]
        ]
    else:  # no points: the last seating's order, with the roles it gave
        roles = roles_of(tuple(p for p, _, _ in ended["standings"]))
        ranked = [
            t._("{place}. {name} ({role})").format(
                place=index, name=names.get(p, f"#{p}"), role=t.role(roles[p])
            )
            for index, (p, _, _) in enumerate(ended["standings"], start=1)
        ]
    table = next((f["table"] for f in reversed(frames) if f["type"] == "table"), None)
    departed = () if table is None else decode_table(table).departed
    standing = {p for p, _, _ in ended["standings"]}
    gone = [g for g in departed if g.player not in standing]
    for entry in sorted(gone, key=lambda g: -g.score):
        name = names.get(entry.player, entry.name)
        note = left_note(t, entry.hands)
        if keeps_score(frames):
            text = t._("{name} {score} ({note})").format(name=name, score=entry.score, note=note)
        else:
            text = t._("{name} ({note})").format(name=name, note=note)
        ranked.append(text)
    return t._("Final standings: {ranked}").format(ranked=t.list_separator.join(ranked))


def table_listing(
    t: Translator, number: int, name: str, frames: list[Message], players: list[int]
) -> list[str]:
    """The lines ``dalmuti history FILE`` prints for one table (from public messages);
    ``players``: the seats dealt in. Each rematch is listed after the game before it,
    under a heading of its own: its hands are numbered from 1 again."""
    names = names_in(t, frames)
    lines: list[str] = []
    for game in game_spans(frames):
        played = frames[game.start : game.end]
        dealt = {p for f in played if f["type"] == "hand_started" for p in f["order"]}
        if game.number == 1:
            lines.append(t._("Table {number}: {name}").format(number=number, name=name))
        else:
            lines.append("")
            lines.append(
                t._("Table {number}: {name}, rematch {rematch}").format(
                    number=number, name=name, rematch=game.number - 1
                )
            )
        seat_names = [names.get(p, f"#{p}") for p in players if p in dealt or not dealt]
        lines.append(
            t.n_("{n} player: {names}", "{n} players: {names}", len(seat_names)).format(
                n=len(seat_names), names=t.list_separator.join(seat_names)
            )
        )
        spans = [span for span in hand_spans(played) if span.number > 0]
        if not spans:
            lines.append(t._("No hand was dealt."))
        lines += ["  " + hand_summary(t, played, span, names) for span in spans]
        standings = standings_text(t, played, names)
        if standings is not None:
            lines.append(standings)
    return [tidy(line) for line in lines]


def history_title(
    t: Translator,
    table_name: str,
    info: ViewerInfo,
    hand: int | None,
    names: dict[int, str] | None = None,
) -> str:
    """The line above a told hand: whose view it is (a seat by the name the lines call it:
    ``names``, from ``names_in``, has the host's bots in the reader's language)."""
    if info.kind == "host":
        who = t._("the host (everything)")
    elif info.kind == "spectator":
        who = t._("a spectator")
    elif names is not None and info.player in names:
        who = names[info.player]
    else:
        who = info.name or "?"
    if hand is None:
        return tidy(t._("{table}, as {who} saw it:").format(table=table_name, who=who))
    return tidy(
        t._("{table}, hand {hand}, as {who} saw it:").format(table=table_name, hand=hand, who=who)
    )


def saved_tables_listing(t: Translator, folder: Path) -> list[str]:
    """``dalmuti history`` with no file: each table saved in ``folder``, newest first,
    with when it opened, its name, its state, its hands and players, and its file."""
    from ..host.saved_tables import saved_tables

    tables = saved_tables(folder)
    if not tables:
        return [
            t._(
                "No table is saved in {folder} yet: dalmuti host saves each table there "
                "(unless --no-save)."
            ).format(folder=folder)
        ]
    lines = [t._("Tables saved in {folder}, newest first:").format(folder=folder)]
    for saved in tables:
        when = f"{saved.when:%Y-%m-%d %H:%M}"
        summary = saved.summary
        lines.append("")
        if summary is None:
            problem = saved.problem.told(t._) if saved.problem is not None else ""
            lines.append(
                tidy(t._("{when}  cannot be read: {reason}").format(when=when, reason=problem))
            )
        else:
            if summary.in_use:
                state = t._("being played now")
            elif summary.finished:
                state = t._("finished")
            elif saved.interrupted:
                state = t._("its host did not end cleanly")
            else:
                state = t._("stopped before its end")
            hands = t.n_("{n} hand dealt", "{n} hands dealt", summary.hands).format(n=summary.hands)
            players = t.list_separator.join(summary.players) or t._("nobody seated")
            lines.append(
                tidy(
                    t._("{when}  “{name}”: {state}; {hands}; {players}").format(
                        when=when, name=summary.name, state=state, hands=hands, players=players
                    )
                )
            )
        lines.append(f"    {shlex.quote(str(saved.path))}")
    lines.append("")
    lines.append(
        t._(
            "dalmuti history FILE lists a table's hands; dalmuti host --resume FILE goes on "
            "with a table that has not finished."
        )
    )
    return lines
