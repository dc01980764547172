"""The plain table's lines, against the real sans-I/O table core (no sockets): the lobby,
commands, decisions, and no control character ever printed."""

from __future__ import annotations

import re

import pytest
from ui_support import LocalTable, shouted

from dalmuti_net.client.plain.narrator import COMMANDS, PlainTable, clean
from dalmuti_net.client.runner import Status
from dalmuti_net.client.ui.state import Quit, Rejoin, Send
from dalmuti_net.engine import CardSet, Play, PlayDecision, Rules
from dalmuti_net.lang.i18n import Translator
from dalmuti_net.protocol.messages import action_message
from tests.tables import wire_table

CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


class PlainLocal:
    """A LocalTable whose client is the plain table; every line printed is kept."""

    def __init__(
        self,
        language: str = "en",
        *,
        host: bool = False,
        rules: Rules | None = None,
        **options: object,
    ) -> None:
        rules = rules or Rules(scoring=True, hand_limit=1)
        self.local = LocalTable(rules, language=language, **options)  # type: ignore[arg-type]
        self.plain = PlainTable(Translator(language), self.local.session)
        self.plain.on_status(Status.CONNECTED)
        self.local.ui = self.plain  # type: ignore[assignment]
        self.printed: list[str] = []
        self.local.send({"type": "snapshot_request"})
        self.take()

    def take(self) -> list[str]:
        lines = self.plain.lines()
        self.printed += lines
        return lines

    def type(self, text: str) -> list[str]:
        for effect in self.plain.on_line(text):
            if isinstance(effect, Send):
                self.local.send(effect.message)
        return self.take()

    def play_out(self, limit: int = 400) -> None:
        """Answer "1" to every question until the table ends."""
        for _ in range(limit):
            session = self.local.session
            if session.observation is not None and session.observation.ended is not None:
                return
            if self.plain.question is None:
                self.local.next_hand()
                self.take()
                continue
            self.type("1")
        raise AssertionError("the table did not end")


def test_the_lobby_is_told_and_commands_reach_the_host() -> None:
    table = PlainLocal()
    text = "\n".join(table.printed)
    assert "You are at Test table." in text
    assert "Players (4 of 4 to 8)" in text
    # The host player has no ready mark: their start is their ready (as on the screen).
    assert "1. Ana (you), host\n" in text + "\n" and "Ana (you), host, not ready" not in text
    assert "Type ready when you are ready, or help for the commands." in text
    lines = table.type("ready")
    assert table.local.sent[-1] == {"type": "ready", "ready": True}
    assert "You are ready." in lines
    # Every strategy the host knows is offered, each said in words (it offered two).
    lines = table.type("bot")
    assert lines[0] == "Add which bot?"
    assert [line[:3] for line in lines[1:5]] == ["1. ", "2. ", "3. ", "4. "]
    assert lines[3].startswith("3. Monte Carlo bot: plays out imagined deals")
    lines = table.type("3")
    assert table.local.sent[-1] == {"type": "add_bot", "strategy": "montecarlo"}
    assert any(line.endswith("joins the table.") for line in lines)
    table.type("bot learned")  # at once, by its name
    assert table.local.sent[-1] == {"type": "add_bot", "strategy": "learned"}
    table.type("remove 6")
    lines = table.type("remove 1")
    assert lines == ["Seat 1 is not a bot: remove takes a bot's number (2, 3, 4, 5)."]
    lines = table.type("remove 5")
    assert table.local.sent[-1]["type"] == "remove_bot"
    assert any(line.endswith("leaves the table.") for line in lines)


def test_rules_are_listed_and_set_by_number_with_the_editors_checks() -> None:
    table = PlainLocal()
    lines = table.type("rules")
    assert lines[1] == "1. First deal revolution, no taxes in hand 1 (rule 13): off"
    assert "4. Hands to play: 1" in lines
    lines = table.type("rule 1")
    assert table.local.sent[-1] == {"type": "set_rules", "rules": {"first_deal_revolution": True}}
    rule_13 = "First deal revolution, no taxes in hand 1 (rule 13)"
    assert lines[0].startswith(f"The rules changed: {rule_13};")
    table.type("rule 4 12")
    assert table.local.sent[-1] == {"type": "set_rules", "rules": {"hand_limit": 12}}
    table.type("rule 7 10")
    assert table.local.sent[-1] == {"type": "set_rules", "rules": {"misdeal_chance": 0.1}}
    sent = len(table.local.sent)
    assert table.type("rule 4") == ["That option needs a value, for example: rule 4 10."]
    assert table.type("rule 10") == ["Give the option's number from the rules list (1 to 9)."]
    table.type("rule 3")  # scoring off
    assert table.type("rule 5") == ["Philanthropic scoring needs scoring: turn scoring on first."]
    assert len(table.local.sent) == sent + 1
    # The table's clocks are options 8 and 9, in seconds.
    assert "8. Turn timer (the default move when it runs out): off" in table.type("rules")
    lines = table.type("rule 8 45")
    assert table.local.sent[-1] == {"type": "set_timing", "turn_timer_ms": 45_000}
    assert lines[0].endswith(
        "Turn timer: 45 seconds per decision; results stay until everyone is ready, "
        "3 seconds at most."
    )
    assert table.type("rule 8 3") == ["Type a whole number from 5 to 3600."]
    table.type("rule 9 20")
    assert table.local.sent[-1] == {"type": "set_timing", "results_ms": 20_000}
    table.type("rule 8 0")
    assert table.local.sent[-1] == {"type": "set_timing", "turn_timer_ms": None}


def test_no_limit_to_the_hands_is_refused_with_scoring_on_as_on_every_table() -> None:
    """Issue 39: ``rule 4 0`` sent ``hand_limit: None`` with scoring on, which the host
    turned into 20 hands; the model refuses it for every front end, as the terminal did."""
    table = PlainLocal()  # scoring on
    sent = len(table.local.sent)
    assert table.type("rule 4 0") == ["With scoring on, the table plays at least 1 hand."]
    assert len(table.local.sent) == sent
    table.type("rule 3")  # scoring off: now there may be no limit
    table.type("rule 4 5")
    table.type("rule 4 0")
    assert table.local.sent[-1] == {"type": "set_rules", "rules": {"hand_limit": None}}


def test_autopass_off_in_auto_pass_s_pause_gives_the_decision_back() -> None:
    """Issue 39: typed in auto-pass's pause, ``autopass off`` still let the pass go out;
    the decision is the player's again, and asked, as the terminal's key does."""
    table = PlainLocal(seed=4)
    table.local.hold_wakes = True
    table.type("start")
    for _ in range(400):
        if table.local.wakes:
            break
        if table.plain.question is None:
            table.local.next_hand()
            table.take()
            continue
        table.type("1")
    assert table.local.wakes, "no decision where passing was all there was"
    sent = len(table.local.sent)
    lines = table.type("autopass off")
    assert "Auto-pass is off: you pass yourself." in lines
    assert "Your turn!" in lines and "1. pass" in lines
    assert table.plain.wake() == [] and len(table.local.sent) == sent  # no pass went out
    table.type("1")
    assert table.local.sent[-1]["type"] == "pass"


def test_a_whole_hand_in_lines_then_the_standings() -> None:
    table = PlainLocal()
    table.type("start")
    text = "\n".join(table.printed)
    assert "Hand 1 of 1 begins." in text
    assert re.search(r"^Your hand: \d+ cards: ", text, re.MULTILINE)
    table.play_out()
    text = "\n".join(table.printed)
    assert "Your turn!" in text
    assert re.search(r"^1\. ", text, re.MULTILINE)
    assert "Final standings" in text
    assert "The table is over: every hand has been played." in text
    assert all(not CONTROL.search(line) for line in table.printed)
    # Auto-pass's pause is the screen's: the plain table passes at once, and says so,
    # once (not then "You pass." for the same pass).
    auto = "Nothing of yours beats it: passed for you (auto-pass)."
    assert auto in table.printed
    after = [table.printed[at + 1] for at, line in enumerate(table.printed) if line == auto]
    assert "You pass." not in after, after


def test_hand_table_and_scores_answer_at_any_prompt() -> None:
    table = PlainLocal()
    assert table.type("frobnicate") == ["Unknown command frobnicate: type help."]
    table.type("start")
    hand = table.type("hand")
    assert len(hand) == 1 and hand[0].startswith("Your hand: ")
    seats = table.type("table")
    assert seats[0] == "Hand 1 of 1"
    assert any(line.startswith("Ana (you), ") and "0 points" in line for line in seats)
    assert table.type("scores")[0].endswith(": 0 points")
    help_lines = table.type("help")
    assert help_lines[0].startswith("Commands: hand (your cards)")


def test_a_refused_answer_asks_the_question_again() -> None:
    table = PlainLocal()
    table.type("start")
    for _ in range(50):
        question = table.plain.question
        if question is not None and isinstance(question.decision, PlayDecision):
            break
        if question is None:
            table.local.next_hand()
            table.take()
        else:
            table.type("1")
    assert question is not None
    hand = table.local.session.observation.hand  # type: ignore[union-attr]
    assert hand is not None
    missing = next(card for card in range(1, 13) if hand[card] == 0)
    assert table.plain.on_line("1")  # answered; but what reaches the host is another play
    table.local.send(action_message(Play(CardSet(missing, 1, 0))))
    lines = table.take()
    assert lines[-len(question.lines()) :] == question.lines()
    assert table.plain.question is question


def test_chat_and_quitting_mid_hand_asks_first() -> None:
    table = PlainLocal()
    lines = table.type("say hello there")
    assert table.local.sent[-1] == {"type": "chat", "text": "hello there"}
    assert "Ana: hello there" in lines
    table.type("start")
    assert table.plain.on_line("quit") == []
    lines = table.take()
    assert lines[0] == "Quit?"
    assert lines[1].startswith("1. Quit this program: your seat stays yours.")
    assert lines[2].startswith("2. Leave the table: give up your seat for good")
    assert lines[3] == "Type a number from 1 to 2, or back to go back."
    assert table.plain.on_line("back") == []
    assert table.take()[0] == "You stay at the table."
    table.plain.on_line("quit")
    table.take()
    effects = table.plain.on_line("2")
    assert effects == [Send({"type": "leave"}), Quit()]
    assert table.plain.quitting


def test_quitting_keeps_the_seat_by_its_key_too() -> None:
    table = PlainLocal()
    table.type("start")
    table.type("quit")
    assert table.plain.on_line("q") == [Quit()]


def test_every_line_is_in_the_chosen_language() -> None:
    for language, ready in (("zh_Hant", "準備"), ("es", "listo")):
        table = PlainLocal(language)
        t = Translator(language)
        assert t._("You are at {table}.").format(table="Test table") in table.printed
        table.type(ready)
        assert table.local.sent[-1] == {"type": "ready", "ready": True}
        table.type("start")
        table.play_out()
        assert t._("Final standings") in table.printed
        english = {"Your turn!", "Final standings", "Players (4 of 4 to 8)"}
        assert not english & set(table.printed)


def test_no_control_character_survives_a_hostile_name_or_chat() -> None:
    # The protocol refuses control characters in names and chat; the client cleans its
    # own name and the plain table what is typed, and what it prints all the same.
    table = PlainLocal(name="Eve\x1b[31m\x07")
    assert table.local.session.player is not None
    lines = table.type("say \x1b]0;pwned\x07hi\x9b2J")
    assert lines == ["Eve [31m: ]0;pwned hi 2J"]  # each control a space (protocol.text.shown)
    assert all(not CONTROL.search(line) for line in table.printed + lines)
    assert clean("a\x1b[2Jb\tc\x9bd\u202ee\u200bf") == "a [2Jb c d ef"


def test_a_reconnection_is_told_and_the_open_question_kept_not_asked_again() -> None:
    """Back from a lost connection (a host restarted after kill -9) the same decision is
    owed: "Your turn!" and the whole question were said a second time. The question stays
    open, said once in a line, and is answered by its numbers as before."""
    table = PlainLocal()
    table.type("start")
    for _ in range(50):
        if table.plain.question is not None:
            break
        table.local.next_hand()
        table.take()
    question = table.plain.question
    assert question is not None
    table.plain.on_status(Status.RECONNECTING)
    assert table.take() == ["Connection lost; reconnecting…"]
    table.plain.on_status(Status.CONNECTED)
    table.local.send({"type": "snapshot_request"})
    lines = table.take()
    assert lines[:2] == ["Reconnected.", "Up to date with the table."]
    assert "Your turn!" not in lines and question.lines()[0] not in lines, lines
    assert "Still your turn: type again to hear the question." in lines
    assert table.type("again") == question.lines()
    assert table.plain.question is question
    assert table.type("1")[0] == "You pass."  # its numbers answer it, as before


def test_turn_timer_warnings_only_while_the_question_is_open() -> None:
    table = PlainLocal()
    table.type("start")
    for _ in range(50):
        if table.plain.question is not None:
            break
        table.local.next_hand()
        table.take()
    serial = table.plain.question_serial
    table.plain.timer_warning(serial, 10)
    table.plain.timer_warning(serial, 1)
    table.plain.timer_warning(serial - 1, 5)
    table.plain.timer_warning(serial, 0)
    assert table.take() == [
        "10 seconds left to answer!",
        "1 second left to answer!",
        "Time is up: the host answers for you with the default move.",
    ]
    table.type("1")
    table.plain.timer_warning(serial, 5)
    assert "5 seconds left to answer!" not in table.take()


TIME_UP = "Time is up: the host answers for you with the default move."


def test_no_turn_timer_warning_while_the_connection_is_lost() -> None:
    """After kill -9 of the host --plain went on with "30 seconds left to answer!" (and at
    0 would have said the host answers for us): a host that is gone answers nothing."""
    table = PlainLocal()
    table.type("start")
    serial = next_question(table)
    table.plain.on_status(Status.RECONNECTING)
    table.take()
    table.plain.timer_warning(serial, 30)
    table.plain.timer_warning(serial, 0)
    assert table.take() == []


def next_question(table: PlainLocal) -> int:
    """Play on (the bots, the next hand) until we are asked; that question's serial."""
    for _ in range(50):
        if table.plain.question is not None:
            return table.plain.question_serial
        table.local.next_hand()
        table.take()
    raise AssertionError("never asked")


def test_time_is_up_is_said_once_whether_the_hosts_timer_or_ours_ends_first() -> None:
    """Our countdown starts when the decision arrives, so it ends a little after the
    host's: the host's timer move (`moved_for` by the timer, for us, then the move) often
    comes first, and closes the question before our countdown could say anything."""
    table = PlainLocal()
    table.type("start")
    serial = next_question(table)
    me = table.plain.model.me
    table.plain.deadline_ms = 8000  # what a decision at a table with an 8 s timer says
    for moved_for in (
        {"type": "moved_for", "player": me, "by": "stand_in"},
        {"type": "moved_for", "player": (me or 0) % 4 + 1, "by": "timer"},
    ):
        table.plain.on_message(moved_for)
    assert TIME_UP not in table.take()  # not ours, or not the timer
    table.plain.on_message({"type": "moved_for", "player": me, "by": "timer"})
    table.type("1")  # (the move the host made for us: the question closes)
    table.plain.timer_warning(serial, 0)  # our countdown, a moment later
    table.take()
    assert table.printed.count(TIME_UP) == 1

    serial = next_question(table)
    table.plain.deadline_ms = 8000
    table.plain.timer_warning(serial, 0)  # ours first this time
    table.plain.on_message({"type": "moved_for", "player": me, "by": "timer"})
    table.take()
    assert table.printed.count(TIME_UP) == 2

    table.type("1")
    serial = next_question(table)
    table.plain.deadline_ms = 2000  # too short for any warning: said when the host moves
    table.plain.on_message({"type": "moved_for", "player": me, "by": "timer"})
    table.take()
    assert table.printed.count(TIME_UP) == 3


def test_the_timers_move_for_us_is_said_once() -> None:
    """--plain said "Time is up: the host answers for you with the default move." and
    then "You pass. (not you: the turn timer ran out and made the default move)": the
    move is said without the note the sentence before it already gave."""
    table = PlainLocal()
    table.type("start")
    next_question(table)
    me = table.plain.model.me
    assert me is not None
    table.plain.deadline_ms = 2000  # too short for our own warnings: the host's move ends it
    table.local.table.play_default(me)
    table.local.pump()
    lines = table.take()
    assert lines.count(TIME_UP) == 1, lines
    mine = [line for line in lines if line.startswith(("You pass", "You play"))]
    assert mine and "turn timer" not in mine[0], lines  # (then auto-pass's own)
    assert lines.index(TIME_UP) < lines.index(mine[0])


def test_lobby_connection_flicker_is_not_news() -> None:
    table = PlainLocal()
    before = table.plain._table_seen
    assert before is not None
    table.local.table.add_bot("random")
    table.local.pump()
    lines = table.take()
    assert len(lines) == 1 and lines[0].endswith("joins the table.")


def refused(table: PlainLocal, code: str) -> list[str]:
    message = {"type": "error", "code": code, "message": f"refused: {code}", "fatal": True}
    table.local.session.receive(message)
    table.plain.on_message(message)
    table.plain.on_status(Status.CLOSED)
    return table.take()


def test_a_full_table_offers_to_watch_as_a_numbered_choice() -> None:
    table = PlainLocal()
    lines = refused(table, "table_full")
    assert lines == [
        "The table is full",
        "All the seats are taken. You can watch the game instead, or pick another table.",
        "1. watch instead",
        "2. back to the list of tables",
        "3. quit",
        "Type a number from 1 to 3, or help.",
    ]
    assert table.plain.on_line("1") == [Rejoin(spectator=True, code=None)]
    assert table.plain.on_line("quit") == [Quit()]


def test_a_wrong_code_is_asked_again_in_place() -> None:
    table = PlainLocal()
    lines = refused(table, "bad_code")
    assert lines[0] == "This table needs a join code"
    assert lines[-1] == "Join code:"
    assert table.plain.on_line("tulip") == [Rejoin(spectator=False, code="tulip")]


@pytest.mark.parametrize(("language", "word"), [("en", "quit"), ("es", "salir")])
def test_quit_at_the_join_code_prompt_quits_and_is_not_sent_as_a_code(
    language: str, word: str
) -> None:
    """Typed at "Join code:", the quit command went to the host as the code, was refused,
    and the code was asked for again: a person could not leave there but by Ctrl-D."""
    table = PlainLocal(language)
    assert refused(table, "bad_code")[-1] == table.plain.t._("Join code:")
    assert table.plain.on_line(word) == [Quit()]
    assert table.plain.quitting


def test_a_dropped_players_grace_period_is_told_once() -> None:
    table = PlainLocal()
    table.type("start")
    other = next(p for p in table.local.session.names if p != table.local.session.player)
    name = table.local.session.names[other]
    message = {"type": "timers", "grace": [[other, 60000]], "turn": []}
    table.plain.on_message(message)
    table.plain.on_message(message)
    assert table.take() == [f"{name} is offline: a bot takes the seat in 60 s."]
    seats = table.type("table")
    assert any(line.startswith(name) and "bot in 60 s" in line for line in seats)


def test_a_spectator_is_told_so_and_not_asked_to_be_ready() -> None:
    table = PlainLocal(spectator=True)
    assert "You watch as a spectator: you see what the whole table sees." in table.printed
    assert "Type help for the commands." in table.printed
    assert not any("ready when you are ready" in line for line in table.printed)


@pytest.mark.parametrize("language", ["en", "es", "zh_Hant"])
def test_a_spectators_help_offers_only_what_a_spectator_can_do(language: str) -> None:
    """A spectator's help listed hand (your cards), autopass and ready, which only answer
    "You are watching" or a refusal: it names what watching offers, the rules among it."""
    table = PlainLocal(language, spectator=True)
    t = table.plain.t

    def word(command: str) -> str:
        return t._(COMMANDS[command]).split("|")[0]

    said = " ".join(table.type("help"))
    for command in ("table", "scores", "rules", "say", "quit", "help"):
        assert word(command) in said, (command, said)
    for command in ("hand", "autopass", "ready", "rematch", "start", "again"):
        assert word(command) not in said, (command, said)
    player = " ".join(PlainLocal(language).type("help"))
    assert all(word(command) in player for command in ("hand", "ready", "start")), player


def test_chinese_lines_follow_taiwanese_typography() -> None:
    """No space beside full-width punctuation, as the table screen writes it."""
    table = PlainLocal("zh_Hant", name="安")
    table.type("準備")
    table.type("開始")
    for _ in range(40):
        table.type("1")
    assert any("你" in line for line in table.printed[-20:])
    assert not any(
        re.search(r"[（）「」，。：；、！？] | [（）「」，。：；、！？]", line)
        for line in table.printed
    ), "\n".join(table.printed)


def test_a_newcomer_is_not_back_when_first_connected_and_a_player_who_was_is() -> None:
    """A newcomer's seat is listed before its connection is attached: that first
    connection is not a return (it printed "Quinn is back." for someone who had never
    been there); a player seen connected who drops and returns is back."""
    table = PlainLocal()
    assert table.local.session.table is not None
    shown = wire_table(table.local.session.table)

    def tell(changes: dict[int, bool], newcomer: bool | None) -> list[str]:
        players = [
            {**seat, "connected": changes.get(seat["player"], seat["connected"])}
            for seat in shown["players"]
        ]
        if newcomer is not None:
            players.append(
                {
                    **players[0],
                    "player": 9,
                    "name": "Quinn",
                    "host": False,
                    "connected": newcomer,
                    "seated": False,
                    "kind": "human",
                }
            )
        message = {"type": "table", "table": {**shown, "phase": "playing", "players": players}}
        table.local.session.receive(message)
        table.plain.on_message(message)
        return table.take()

    assert tell({}, None) == []
    # In a game a newcomer is announced by the game's event ("will join at the start of
    # the next hand"), not again by the seats.
    assert tell({}, False) == []
    assert tell({}, True) == [], "a first connection is not a return"
    # Offline: said once, by the grace countdown the host sends right after the table.
    assert tell({}, False) == []
    timers = {"type": "timers", "grace": [[9, 60000]], "turn": []}
    table.plain.on_message(timers)
    assert table.take() == ["Quinn is offline: a bot takes the seat in 60 s."]
    assert tell({}, True) == ["Quinn is back."]


def test_a_kicked_player_is_told_once_in_the_second_person() -> None:
    """Being removed printed "Ana (you) has left the table.", then the sentence, then the
    host's own English words for the same thing."""
    table = PlainLocal()
    assert table.local.session.table is not None
    shown = wire_table(table.local.session.table)
    me = table.local.session.player
    gone = {**shown, "players": [s for s in shown["players"] if s["player"] != me]}
    message = {"type": "table", "table": gone}
    table.local.session.receive(message)
    table.plain.on_message(message)
    assert table.take() == []
    assert refused(table, "kicked")[:3] == [
        "Not connected",
        "The host player removed you from the table.",
        "1. back to the list of tables",
    ]


def test_the_points_say_the_bonus_they_include_as_the_table_screen_does() -> None:
    """Issue 40, finding 8: `--plain` printed "+3" where the screen said "+3 (bonus +1
    included)"."""
    table = PlainLocal()
    table.local.start()
    table.take()
    players = [seat.player for seat in table.local.session.table.players]  # type: ignore[union-attr]
    ended = {
        "type": "hand_ended",
        "hand": 1,
        "finishing": players,
        "points": [3, 2, 1, 0],
        "bonus": [1, 0, 0, 0],
        "scores": [4, 2, 1, 0],
        "seq": table.local.session.seq + 1,
    }
    table.plain.on_message(ended)
    (points,) = [line for line in table.take() if line.startswith("Points this hand: ")]
    assert points.startswith("Points this hand: Ana (you) +4 (4 in all, bonus +1 included), ")
    assert points.endswith(" +0 (0 in all).")


def test_a_table_without_scoring_ends_with_its_order_and_roles_not_points() -> None:
    """Issue 40, finding 4: everyone was "1st, 0 points"."""
    table = PlainLocal("es", rules=Rules(hand_limit=1))
    table.type("start")
    table.play_out()
    text = "\n".join(table.take() or table.printed)
    standings = text[text.rindex("Clasificación final") :]
    assert "1.º" in standings and "4.º" in standings, standings
    assert "Gran Dalmuti" in standings and "Gran Peón" in standings, standings
    assert "punto" not in standings, standings


async def test_a_lost_connection_is_told_in_the_players_language() -> None:
    # A host that hangs up (kill -9, a restart): the reason came in English at an
    # es or zh-Hant table ("Conexión perdida (the host closed the connection)").
    import trio.testing

    from dalmuti_net.client.connection import Connection, ConnectionClosed

    client, host = trio.testing.memory_stream_pair()
    await host.aclose()
    try:
        await Connection(client).receive()
    except ConnectionClosed as closed:
        reason, kind = str(closed), closed.kind
    table = PlainLocal(language="es")
    table.type("start")
    table.take()
    table.local.session.drop(reason, kind)
    table.plain.on_status(Status.RECONNECTING)
    assert table.take() == ["Conexión perdida (el anfitrión cerró la conexión); reconectando…"]


def test_the_table_command_says_the_typed_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """The plain table says the lobby and the trick as every front end has them
    (``client/model/display``), not in words of its own: told from a view whose words are
    upper-cased, the changed words are what it prints."""
    from dalmuti_net.client.model import display as shown
    from dalmuti_net.client.plain import narrator

    monkeypatch.setattr(narrator, "display", lambda model: shouted(shown.display(model)))
    table = PlainLocal()
    lobby = shown.display(table.plain.model).lobby
    assert lobby is not None
    said = "\n".join(table.type("table"))
    assert lobby.heading.upper() in said and lobby.summary.upper() in said
    table.type("start")
    for _ in range(200):
        state = shown.display(table.plain.model).table
        if state is not None and state.trick_current and len(state.trick) > 1:
            break
        table.type("1")
    else:
        raise AssertionError("no trick of two plays")
    said = "\n".join(table.type("table"))
    plays = " · ".join(play.text for play in state.trick)
    assert state.trick_title.upper() in said and plays.upper() in said, said
    assert state.hand is not None
    said = "\n".join(table.type("hand"))
    assert said.startswith(state.hand.title.upper()) and state.hand.cards[0].label.upper() in said


def test_the_tables_found_are_listed_with_what_to_know_before_joining() -> None:
    """Each table found in one line, and what the list of every front end says under it
    (``display.listing_view``'s notes): a host of another protocol is said so, once."""
    from dalmuti_net.protocol import PROTOCOL_VERSION
    from dalmuti_net.protocol.discovery import listing_from_record

    def found(name: str, version: bytes) -> object:
        return listing_from_record(
            instance_name=f"{name}._dalmuti._tcp.local.",
            server="host.local.",
            addresses=["127.0.0.1"],
            port=7341,
            txt={
                b"pv": version,
                b"name": name.encode(),
                b"phase": b"lobby",
                b"seats": b"3/8",
                b"code": b"0",
            },
        )

    plain = PlainTable(Translator("en"))
    plain.lines()
    ours = str(PROTOCOL_VERSION).encode()
    tables = [found("Old", b"0"), found("Ours", ours)]
    plain.set_listings(tables)  # type: ignore[arg-type]
    assert plain.lines() == [
        "1. Old, 127.0.0.1:7341, 3 of 8 seats taken, lobby",
        f"1. ! protocol 0, ours {PROTOCOL_VERSION}",
        "2. Ours, 127.0.0.1:7341, 3 of 8 seats taken, lobby",
    ]
    plain.set_listings(tables)  # type: ignore[arg-type]
    assert plain.lines() == []  # said once


def test_the_final_standings_are_said_once_when_the_host_then_closes() -> None:
    """Found by hand: a table ended, then its host closed the connection, and --plain said
    the end and the whole final standings a second time over the closed table's choices."""
    table = PlainLocal()
    table.type("start")
    table.play_out()
    goodbye = {"type": "goodbye", "code": "table_ended", "reason": "the table has ended"}
    table.local.session.receive(goodbye)
    table.plain.on_message(goodbye)
    table.plain.on_status(Status.CLOSED)
    lines = table.take()
    assert table.printed.count("Final standings") == 1, lines
    assert lines[0] == "This table has ended" and lines[-2] == "2. quit", lines


@pytest.mark.parametrize("language", ["en", "es", "zh_Hant"])
def test_a_table_its_host_ended_is_said_ended_by_them_once(language: str) -> None:
    """Found by hand: the host player ended the table in a game; --plain said "The table is
    over: the host player ended it.", the final standings, then over the closed table's
    choices "The host player ended the table." again."""
    table = PlainLocal(language)
    t = table.plain.t
    table.type("start")
    table.local.table.end_table()
    table.local.pump()
    table.take()
    goodbye = {"type": "goodbye", "code": "table_ended", "reason": "the host ended the table"}
    table.local.session.receive(goodbye)
    table.plain.on_message(goodbye)
    table.plain.on_status(Status.CLOSED)
    lines = table.take()
    said = "\n".join(table.printed)
    why = t._("The table is over: {reason}.").format(reason=t._("the host player ended it"))
    assert said.count(why) == 1, said
    assert t._("The host player ended the table.") not in lines, lines
    assert lines[0] == t._("This table has ended") and lines[1].startswith("1. "), lines


def test_standings_without_a_place_are_said_without_a_dash() -> None:
    """A table ended in its first hand ranks nobody: the screens draw "-" in the place
    column, which a screen reader says "dash, colon": the plain table says the rows alone."""
    table = PlainLocal()
    table.type("start")
    table.local.table.end_table()
    table.local.pump()
    lines = table.take()
    rows = lines[lines.index("Final standings") + 1 : lines.index("Type quit to leave.")]
    assert len(rows) == 4 and all(row[0].isalpha() for row in rows), rows


@pytest.mark.parametrize(
    ("language", "left"),
    [("en", "7 s to answer"), ("es", "7 s para responder"), ("zh_Hant", "剩 7 秒作答")],
)
def test_the_table_says_a_turn_clock_in_words_not_its_symbol(language: str, left: str) -> None:
    """A screen reader says "◷" as "white circle with upper left quadrant": the plain
    table says the turn clock the terminal draws with it in words, the seat marks' own
    (and "7 s left" beside another player's name read as if it were the listener's)."""
    table = PlainLocal(language)
    table.type("start")
    me = table.local.session.player
    other = next(p for p in table.local.session.observation.order if p != me)
    table.plain.on_message({"type": "timers", "grace": [], "turn": [[other, 7000]]})
    table.take()
    name = table.plain.model.name_of(other)
    row = next(line for line in table.type("table") if line.startswith(name))
    assert "◷" not in row and row.endswith(left), row


@pytest.mark.parametrize("language", ["en", "es", "zh_Hant"])
def test_the_rules_are_read_in_a_game_too(language: str) -> None:
    """`rules` in a game answered "That is not possible at this point of the game": reading
    them is harmless at any point (setting one is the lobby's, and so is how to)."""
    table = PlainLocal(language, host=True)
    t = table.plain.t
    table.type("start")
    lines = table.type("rules")
    assert lines[0] == t._("Rule options (the host player's)"), lines
    scoring = next(line for line in lines if line.startswith("3. "))
    assert scoring == "3. " + table.plain._pair(t._("Scoring (rule 15)"), t._("on")), lines
    assert not any("rule 8 45" in line for line in lines), lines  # no setting mid-game
