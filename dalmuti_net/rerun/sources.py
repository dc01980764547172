"""One way in for both kinds of file: a host's save (every viewer, rebuilt through the
table core) and a history file (one viewer's messages, from `join --record` or
`history --json`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..client.table_view import decode_table
from ..history.problems import N_, Problem
from ..history.record import Record, RecordError, ViewerInfo, is_record, read_record
from ..protocol.catalogue import MAX_TABLE_NAME_CHARS
from ..protocol.messages import Message
from ..protocol.text import clean_text, shown
from ..told import Listed
from .frames import HOST, DamagedSave, Rerun, SeatRecord, Viewer, rerun
from .save import SavedTable, SaveError, open_save


class HistoryError(Problem):
    """What cannot be shown, in one sentence."""

    @classmethod
    def of(cls, problem: Problem) -> HistoryError:
        return cls(problem.template, **problem.values)


@dataclass
class TableHistory:
    number: int
    name: str
    table_id: str | None
    path: Path
    saved: SavedTable | None = None
    record: Record | None = None
    _rerun: Rerun | None = field(default=None, repr=False)

    @property
    def from_save(self) -> bool:
        return self.saved is not None

    def _played(self) -> Rerun:
        if self._rerun is None:
            assert self.saved is not None
            try:
                self._rerun = rerun(self.saved)
            except DamagedSave as damaged:
                raise HistoryError(
                    N_("{path} is damaged: change {change} cannot be played again ({reason})"),
                    path=self.path,
                    change=damaged.change,
                    reason=damaged.reason,
                ) from None
        return self._rerun

    @property
    def seats(self) -> dict[int, SeatRecord]:
        if self.record is not None:
            return _seats_of(self.record.frames)
        return self._played().seats

    def choose(self, name: str | None, *, spectator: bool = False) -> tuple[Viewer, ViewerInfo]:
        """The viewer ``--as NAME`` / ``--spectator`` asks for (``host`` is the operator).

        A history file holds one viewer: with no choice, that one."""
        if self.record is not None:
            recorded = self.record.viewer
            if name is None and not spectator:
                return _key(recorded), recorded
            if name == "host" and recorded.kind != "host":
                raise HistoryError(
                    N_(
                        "the host's view (everything) is only in the host's own save; "
                        "this file holds one viewer's messages"
                    )
                )
            wanted_spectator = spectator or (name is not None and recorded.kind == "spectator")
            if (spectator and recorded.kind == "spectator") or (
                name is not None and name.casefold() == (recorded.name or "").casefold()
            ):
                return _key(recorded), recorded
            raise _not_this_viewer(recorded, None if wanted_spectator else name)
        if name == "host":
            return HOST, ViewerInfo("host")
        if name is None:
            return None, ViewerInfo("spectator")
        played = self._played()
        player = played.viewer_named(name)
        if player is None:
            raise HistoryError(
                N_("nobody called '{name}' sat at this table (seated: {names})"),
                name=name,
                names=Listed(seat.name for seat in played.seats.values()),  # as --as takes them
            )
        return player, ViewerInfo("seat", player, played.seats[player].name)

    def frames(self, viewer: Viewer) -> list[Message]:
        if self.record is not None:
            return self.record.frames
        return self._played().frames[viewer]

    def frames_to_the_end(self, viewer: Viewer) -> list[Message]:
        """``frames``, and for a player who left mid-game what a spectator was sent from
        then on: a replay goes on to the final standings."""
        if self.record is not None or not isinstance(viewer, int):
            return self.frames(viewer)
        played = self._played()
        return played.frames[viewer] + played.after_leaving.get(viewer, [])


def open_history(path: Path) -> list[TableHistory]:
    """The tables in ``path``: a host's save or a history file."""
    if not path.exists():
        raise HistoryError(N_("there is no file {path}"), path=path)
    if is_record(path):
        try:
            record = read_record(path)
        except RecordError as error:
            raise HistoryError.of(error) from None
        header = record.header
        name = header.get("table") if isinstance(header.get("table"), str) else None
        table_id = header.get("table_id") if isinstance(header.get("table_id"), str) else None
        shown_name = clean_text(shown(name or ""))[:MAX_TABLE_NAME_CHARS]
        return [TableHistory(1, shown_name or "Dalmuti table", table_id, path, record=record)]
    try:
        saved = open_save(path)
    except SaveError as error:
        raise HistoryError.of(error) from None
    return [
        TableHistory(table.number, table.name, table.settings.get("table_id"), path, saved=table)
        for table in saved
    ]


def _key(viewer: ViewerInfo) -> Viewer:
    if viewer.kind == "host":
        return HOST
    return viewer.player if viewer.kind == "seat" else None


def _not_this_viewer(recorded: ViewerInfo, asked: str | None) -> HistoryError:
    """A history file holds ``recorded``'s messages, not those of the seat ``asked`` (or,
    with ``None``, a spectator's)."""
    if recorded.kind == "spectator":
        return HistoryError(
            N_("this file holds only what a spectator was sent, not '{name}'"), name=asked
        )
    holder = recorded.name or f"#{recorded.player}"
    if recorded.kind == "host":
        return HistoryError(N_("this file holds the host's view, not one seat's or a spectator's"))
    if asked is None:
        return HistoryError(
            N_("this file holds only what '{holder}' was sent, not a spectator"), holder=holder
        )
    return HistoryError(
        N_("this file holds only what '{holder}' was sent, not '{name}'"),
        holder=holder,
        name=asked,
    )


def _seats_of(frames: list[Message]) -> dict[int, SeatRecord]:
    """The seats a viewer was told about in its table messages, the latest name kept."""
    seats: dict[int, SeatRecord] = {}
    for frame in frames:
        table = frame.get("table") if frame["type"] in ("table", "snapshot") else None
        if not isinstance(table, dict):
            continue
        view = decode_table(table)
        for seat in view.players:
            played = seat.player in seats and seats[seat.player].played
            seats[seat.player] = SeatRecord(
                seat.player, seat.name, seat.kind, played or not view.lobby
            )
    return seats
