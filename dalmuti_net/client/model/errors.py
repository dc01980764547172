"""The host's refusals and connection problems as sentences in the player's language."""

from __future__ import annotations

from ...lang.i18n import N_, Translator
from ...protocol import PROTOCOL_VERSION
from ..address import parse_address
from ..claims import address_text
from ..session import HostError

ERROR_SENTENCES: dict[str, str] = {
    "bad_frame": N_("The host could not read what this client sent."),
    "too_large": N_("A message to the host was too large."),
    "unknown_type": N_("The host did not understand a message from this client."),
    "not_hello": N_("The host expected a greeting first."),
    "table_full": N_("The table is full: no seat is left."),
    "bad_token": N_("The host no longer knows this seat."),
    "bad_proof": N_("The host could not confirm that this seat is yours."),
    "host_unproven": N_(
        "This host claims to run your table but could not prove it holds your seat: it may "
        "be another computer using the table's name. Your seat was not offered to it and is "
        "still remembered."
    ),
    "bad_code": N_("This table needs a join code, and the one given is missing or wrong."),
    "too_many_connections": N_("The host has too many connections right now."),
    "timeout": N_("The host heard nothing from this client for too long."),
    "slow_consumer": N_("This client fell too far behind the host."),
    "kicked": N_("The host player removed you from the table."),
    "replaced": N_("Your seat was taken over by another connection with your token."),
    "shutting_down": N_("The host is closing the table."),
    "internal_error": N_(
        "The host failed while serving this connection and closed it; the table goes on. "
        "The host's log says why."
    ),
    "bad_message": N_("The host refused a malformed request."),
    "rate_limited": N_("Too many requests too fast: slow down."),
    "already_hello": N_("This connection has already greeted the host."),
    "not_host": N_("Only the host player may do that."),
    "spectator": N_("Spectators may watch and chat, but not play."),
    "wrong_phase": N_("That is not possible at this point of the game."),
    "bad_rules": N_("Those rule options do not fit together."),
    "not_enough_players": N_("A table starts with 4 to 8 players."),
    "unknown_player": N_("There is no such player at this table."),
    "no_decision_owed": N_("It is not your turn."),
    "wrong_decision": N_("That answers a different question from the one asked."),
    "stale_decision": N_("That answer came too late: the question was already settled."),
    "not_a_set": N_("Those cards do not form a set."),
    "not_held": N_("You do not hold those cards."),
    "wrong_size": N_("A set played on another must have as many cards."),
    "not_better": N_("A set played on another must have a better (lower) rank."),
    "must_lead": N_("You lead this trick: you must play a set, not pass."),
    "bad_cards": N_("That is the wrong number of cards for the tax."),
    "bad_merchant": N_("You cannot exchange with that Merchant."),
    "bad_position": N_("The newcomer cannot sit there."),
    "already_seated": N_("That player is already at the table."),
    "name_taken": N_(
        "Someone at the table has a name that looks like yours (it differs only in case, "
        "invisible characters or look-alike letters): join again with another name."
    ),
    "table_ended": N_("The table has ended."),
    "not_waiting": N_("The table is not waiting for that player."),
    "too_soon": N_(
        "Too soon: give the player a little longer before a nudge or a skip (a rematch "
        "waits for the table's end)."
    ),
    "cannot_save": N_(
        "The host cannot save the table right now (its disk may be full): the table waits, "
        "and goes on by itself as soon as the host can save again."
    ),
}

TROUBLESHOOTING = N_(
    "Check that both computers are on the same network, that no firewall blocks "
    "UDP port 5353 (discovery) or the host's TCP port, and that no VPN is in the way. "
    "You can always join by address: dalmuti join HOST[:PORT]."
)


def describe_error(t: Translator, error: HostError) -> str:
    if error.code == "version_mismatch":
        host = error.host_version if error.host_version is not None else "?"
        client = error.client_version if error.client_version is not None else PROTOCOL_VERSION
        return t._(
            "The host speaks protocol version {host} and this client speaks version {client}: "
            "they cannot play together. Install the same version of dalmuti-net on both."
        ).format(host=host, client=client)
    sentence = ERROR_SENTENCES.get(error.code)
    if sentence is None:
        return t._("The host refused: {message}").format(message=error.message)
    return t._(sentence)


DETAILS = N_("{sentence} (Details for a bug report: {details})")
"""A sentence in the reader's language, then what went wrong in the program's own terms
(English, technical: a field's name, a message's type), marked as such."""


def with_details(t: Translator, sentence: str, details: str) -> str:
    """``sentence`` (already translated), then ``details`` behind a clearly marked label:
    the one way a technical reason reaches a player, for every front end."""
    return t._(DETAILS).format(sentence=sentence, details=details)


def describe_broken(t: Translator, reason: str) -> str:
    """The host's messages did not fit the table (``ClientSession.broken``), again after
    reconnecting: this client gave up on it. ``reason`` is technical (English)."""
    sentence = t._(
        "The host sent messages that do not fit the table, again after reconnecting: this "
        "client stopped talking to it."
    )
    return with_details(t, sentence, reason)


CONNECT_FAILURES: dict[str, str] = {
    "refused": N_("nothing answers on that port: the table may be closed, or the port is wrong"),
    "unknown_name": N_("that name is not known on this network"),
    "no_route": N_("this computer has no way to that address from this network"),
    "timed_out": N_("no answer came in time"),
    "not_a_host": N_("something answers there, but it is not a dalmuti-net table"),
    "closed": N_("the host closed the connection"),
    "broke": N_("the connection to the host broke"),
    "silent": N_("the host stopped answering"),
    "unreadable": N_("the host sent a message this program cannot read"),
}


def describe_unreachable(t: Translator, address: str, reason: str, kind: str | None = None) -> str:
    """Why ``address`` could not be reached: in words when the kind of failure is known,
    else the system's own (untranslated) words, as details. A web server answered
    (``web_port``, ``reason`` the table's port it named, or empty): where to go instead."""
    if kind == "web_port":
        return describe_web_port(t, address, reason)
    sentence = CONNECT_FAILURES.get(kind or "")
    if sentence is None:
        told = t._("Could not reach the host at {address}.").format(address=address)
        return with_details(t, told, reason)
    return t._("Could not reach the host at {address} ({reason}).").format(
        address=address, reason=t._(sentence)
    )


GOODBYE_SENTENCES: dict[str, str] = {
    "shutting_down": N_(
        "The host stopped the table. If it was saved, the host can start it again where it "
        "was; run dalmuti join then to take your seat back."
    ),
    "table_ended": N_("The host player ended the table."),
    "host_left": N_("The host player left and nobody else could take over: the table is closed."),
}


ENDED_THEN_CLOSED = N_("The table has ended, and the host has closed it.")


PAGE_SHUTTING_DOWN = N_(
    "The host stopped the table. If it was saved, the host can start it again where it was, "
    "and this page takes your seat back by itself."
)
"""``shutting_down`` on the web table's page, which comes back by itself: no command."""

PAGE_REFUSED = N_(
    "The table closed this page's connection: the page sent something the table cannot "
    "take. Join again, or reload the page."
)
"""A page whose message broke the rules of its channel (a broken or hostile script): said
on the page, the technical reason as details."""


def describe_goodbye(
    t: Translator,
    code: str | None,
    ended_reason: str | None = None,
    *,
    in_a_page: bool = False,
) -> str:
    """``ended_reason``: the `table_ended` reason when the table had ended before the
    goodbye (then it was not stopped midway: nothing is left to come back to).
    ``in_a_page``: said on the web table's page, where no command is typed."""
    if ended_reason is not None and ended_reason != "host_ended" and code != "host_left":
        return t._(ENDED_THEN_CLOSED)
    if in_a_page and code == "shutting_down":
        return t._(PAGE_SHUTTING_DOWN)
    sentence = GOODBYE_SENTENCES.get(code or "")
    return t._(sentence) if sentence is not None else t._("The host closed the connection.")


def describe_web_port(t: Translator, address: str, port: str) -> str:
    """``dalmuti join`` sent to the web table's port: one sentence, the browser's address
    and the table's (when the web port named its port)."""
    try:
        host, _ = parse_address(address)
    except ValueError:
        host = ""
    if not (host and port.isdecimal()):
        return t._(
            "{address} serves the web table, for a browser (http://{address}/); the table "
            'itself is at another port, the one the host gives after "Players join with".'
        ).format(address=address)
    table = address_text(host, int(port))
    return t._(
        "{address} serves the web table, for a browser (http://{address}/); the table "
        "itself is at {table}."
    ).format(address=address, table=table)
