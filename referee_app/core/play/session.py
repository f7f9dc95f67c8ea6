"""The match being kept at a table: what the window's Rulings area does beyond its widgets.

A `MatchSession` owns the match on screen (core/play/match.py), its record in the store
(core/play/store.py: created with its header the first time something is to be kept, every
stroke written as it is entered), the stroke being corrected, and the rulings shown while a
stroke is ticked. A stroke is previewed and recorded by one computation: `preview` asks the
game (`Game.preview`), and recording plays the stroke, which rules it through that same
`Game.preview` before carrying it out (in the store's transaction, then on the match shown).
"What if" rules a situation set by hand (`what_if`) and records nothing.

A window that closes mid-match loses nothing: a new session on the same store finds the match
(`unfinished`) and `open`s it where it stood.

Pure Python, no Qt: the window asks the referee and says what went wrong; the session refuses
with BadInput (or the store's StoreUnavailable), and changes nothing when it refuses.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from referee_app.core.errors import BadInput
from referee_app.core.storage.errors import StoreUnavailable
from .clock import MatchClock, match_clock
from .game import Game
from .match import Match, replayed

if TYPE_CHECKING:
    from referee_app.core.knowledge.root import Knowledge
    from .outbox import Outbox


class MatchOver(BadInput):
    """A stroke ticked after the match is won: nothing is left to rule."""

    def __init__(self, winner: str | None):
        super().__init__("match", f"the match is over ({winner} won)")


class PendingStroke:
    """A stroke on its way to the records: `write` stores it (again and again while a server is
    out of reach: the window retries it), bound to the match it was entered in, so another match
    opened meanwhile never receives it; `commit` then plays it on that match, if still shown.

    On a shared server, the stroke carries a client-made id (sent twice, stored once), and a
    stroke on a sheet this machine holds is kept in the outbox when the server is out of reach
    (`kept_offline`, with the server's words in `lost`) instead of waiting."""

    def __init__(self, session: "MatchSession", stroke: dict, header: dict):
        from .outbox import new_id

        self.session, self.stroke, self.header = session, stroke, dict(header)
        self.match, self.match_id = session.match, session.match_id
        self.client_id = new_id()
        self.kept_offline = False
        self.lost: StoreUnavailable | None = None

    def can_keep(self) -> bool:
        """Whether the stroke can be kept on this machine while the server is away."""
        return self.match_id is not None and self.session.holds(self.match_id)

    def keep(self) -> dict:
        """Keeps the stroke in the outbox, ruled on the held sheet with the strokes waiting there
        (the board the window shows); returns that ruling, marked `kept_offline`."""
        session = self.session
        ruling = session.outbox.keep(session.knowledge, session.server, self.match_id, [self.stroke],
                                     [self.client_id])[0]
        self.kept_offline = True
        return ruling

    def write(self) -> dict:
        """Stores the stroke (and the match, the first time); returns the ruling stored."""
        session = self.session
        if self.match_id is None:
            self.match_id = session.ensure_saved(self.header) if session.match is self.match else \
                session.store.create(self.match.ruleset, self.match.doubles, **self.header)
        outbox = session.outbox
        if outbox is None:
            return session.store.add_stroke(self.match_id, self.stroke)
        try:
            sent = session.send_kept() if outbox.count(session.server) else None
            ruling = session.store.add_stroke(self.match_id, self.stroke, client_id=self.client_id)
        except StoreUnavailable as exc:
            if not self.can_keep():
                raise
            self.lost = exc
            return self.keep()
        if sent is not None:   # the sheet as the server has it now, the kept strokes in it
            outbox.refresh(session.store, self.match_id)
        else:
            outbox.hold(session.server, self.match_id, {"ruleset": self.match.ruleset, "doubles": self.match.doubles},
                        [*self.match.strokes, self.stroke])
        return ruling

    def commit(self) -> bool:
        """Plays the stored stroke on the match shown; False if another match is shown now."""
        if self.session.match is not self.match:
            return False
        self.match.play(self.stroke)
        return True


class MatchSession:
    """The match kept at the table, its corrections, its what-if, and its record."""

    def __init__(self, knowledge: Knowledge, ruleset: str | None = None, store=None,
                 open_store: Callable | None = None, doubles: bool = False):
        """`knowledge`: the knowledge root its rulesets, compiled rulesets and tournament rules
        come from; `ruleset`: the match's (the knowledge base's default when None or unknown).
        `store`: a MatchStore; or `open_store()` makes one when the first record is needed (the
        window opens its records after its first paint)."""
        self.knowledge = knowledge
        if ruleset not in knowledge.rulesets:
            ruleset = knowledge.default_ruleset
        self._store, self._open_store = store, open_store
        self.ruleset = ruleset                 # the ruleset chosen for the next match
        self.match = Match(knowledge, ruleset, doubles)
        self.match_id: int | None = None
        self.correcting: int | None = None     # the 1-based stroke being corrected
        self._corrected: tuple[int | None, Match | None, list[int]] = (None, None, [])   # (id, match, strokes)
        self._outbox: Outbox | None = None     # this machine's outbox, on a shared server (`outbox`)

    @property
    def store(self):
        if self._store is None:
            if self._open_store is None:
                from .store import MatchStore

                self._store = MatchStore(self.knowledge)
            else:
                self._store = self._open_store()
        return self._store

    # --- the outbox: strokes kept while a shared server is out of reach ------------------------
    @property
    def outbox(self):
        """This machine's outbox (core/play/outbox.py) when the records are a shared server; None
        for a records file of this machine (nothing to keep: it is always there)."""
        if self._outbox is None and getattr(self.store, "dialect", "sqlite") == "postgresql":
            from .outbox import Outbox

            self._outbox = Outbox()
        return self._outbox

    @property
    def server(self) -> str:
        return self.store.database.shown

    def holds(self, match_id: int) -> bool:
        return self.outbox is not None and self.outbox.held(self.server, match_id) is not None

    def _hold(self, match_id: int, match: Match) -> None:
        if self.outbox is not None:
            self.outbox.hold(self.server, match_id, {"ruleset": match.ruleset, "doubles": match.doubles},
                             list(match.strokes))

    def kept(self) -> tuple[int, list[dict]]:
        """(strokes waiting to be sent, strokes the server refused, kept here) on this machine."""
        if self.outbox is None:
            return 0, []
        return self.outbox.count(self.server), self.outbox.refused(self.server)

    def send_kept(self):
        """Sends the strokes kept on this machine, in order (Outbox.sync); StoreUnavailable while
        the server is still away (what could be sent is sent). A sheet shown here whose strokes the
        server refused is read again as the server has it."""
        report = self.outbox.sync(self.store)
        if self.match_id is not None and any(r["match"] == self.match_id for r in report.refused) \
                and report.unavailable is None:
            self.match = self.store.load(self.match_id)
        if report.unavailable is not None:
            raise StoreUnavailable(self.server, report.unavailable)
        return report

    # --- which match -------------------------------------------------------------------------
    def new(self, doubles: bool = False) -> None:
        """A new match under the chosen ruleset, not stored until something is to be kept."""
        self.match_id, self.correcting = None, None
        self.match = Match(self.knowledge, self.ruleset, doubles)

    def open(self, match_id: int) -> dict:
        """The stored match, where it stood; returns its record (header). BadInput if it cannot be
        read or replayed: the match shown stays."""
        meta, match = self.store.meta(match_id), self.store.load(match_id)
        self.match_id, self.match, self.ruleset, self.correcting = meta["id"], match, match.ruleset, None
        self._hold(meta["id"], match)   # this machine holds the sheet: kept offline if the server goes
        return meta

    def pairings_to_open(self) -> list[dict]:
        """The games still to be played in each tournament's current round (the final once paired),
        whose score sheet a table may open: {tournament, name, round, table, first, second}."""
        from referee_app.core.tournament.model import GHOST
        from referee_app.core.tournament.store import FINAL, TournamentStore

        tournaments = TournamentStore(self.knowledge, self.store.database)
        found = []
        for t in tournaments.list():
            current = FINAL if tournaments._final_paired(t["id"]) else t["rounds_paired"]
            if not current:
                continue
            for g in tournaments.round_games(t["id"], current):
                if g["score_first"] is None and GHOST not in (g["first"], g["second"]):
                    found.append({"tournament": t["id"], "name": t["name"], "round": current, "table": g["table_no"],
                                  "first": g["first"], "second": g["second"]})
        return found

    def pairing_sheet(self, tournament: int, round_no, table: int) -> int:
        """The score sheet of a paired game (made the first time: players, round and table from
        the pairing, tied to it), to `open`."""
        from referee_app.core.tournament.store import TournamentStore
        from referee_app.core.tournament.table_matches import open_match

        return open_match(TournamentStore(self.knowledge, self.store.database), self.store, tournament, round_no, table)

    def unfinished(self) -> dict | None:
        """The last match left unfinished, to resume; None while a match is begun on screen."""
        if self.match_id is not None or self.match.strokes:
            return None
        return self.store.unfinished()

    def saved(self) -> list[dict]:
        return self.store.list()

    def ensure_saved(self, header: dict) -> int:
        """The match's record, created with its header the first time something is to be kept."""
        if self.match_id is None:
            self.match_id = self.store.create(self.match.ruleset, self.match.doubles, **header)
            self._hold(self.match_id, self.match)
        return self.match_id

    def header_write(self, field: str, text: str, header: Callable[[], dict]) -> Callable[[], None]:
        """The write of one header field as typed, bound to the match it was typed in: the first
        field of a match not yet stored stores it, with the whole header as it reads then."""
        match, match_id = self.match, self.match_id

        def write() -> None:
            if match_id is None:
                if self.match is match:
                    self.ensure_saved(header())
            else:
                self.store.update_header(match_id, **{field: text})
        return write

    def set_doubles(self, on: bool) -> bool:
        """Singles or doubles, for a match not yet begun; returns whether the match is now as asked."""
        if self.match.strokes:
            return on == self.match.doubles
        self.match = Match(self.knowledge, self.match.ruleset, on)
        if self.match_id is not None:
            self.store.set_doubles(self.match_id, on)
        return True

    def change_ruleset(self, ruleset: str) -> None:
        """Plays the match under `ruleset` from now on: every stroke ruled again (BadInput if one
        cannot happen under it, and nothing changes), the change kept in the match's record."""
        if ruleset not in self.knowledge.rulesets:
            raise BadInput("ruleset", f"unknown ruleset {ruleset!r}")
        if ruleset != self.match.ruleset:
            if self.match_id is not None:
                self._kept_sent_first()
                self.match = self.store.change_ruleset(self.match_id, ruleset)
                self._hold(self.match_id, self.match)
            else:
                self.match = replayed(self.knowledge, ruleset, self.match.doubles, self.match.strokes)
        self.ruleset, self.correcting = ruleset, None

    # --- what the ruleset sets ----------------------------------------------------------------
    def clock_seconds(self) -> tuple[int, int]:
        """(stroke clock, break clock) in seconds, from the match's ruleset."""
        params = self.knowledge.compiled(self.match.ruleset).params
        stroke = int(params["stroke_clock_seconds"])
        return stroke, int(params.get("break_clock_seconds", stroke))

    def fouls(self) -> list[dict]:
        """The fouls a referee may call under the match's ruleset: id, names (Knowledge.foul_name, in
        every language), clauses."""
        from referee_app.languages import LANGUAGES

        rid = self.match.ruleset
        return [{"id": f["id"], "names": {lang: self.knowledge.foul_name(rid, f["id"], lang) for lang in LANGUAGES},
                 "clauses": f.get("clauses", [])} for f in self.knowledge.compiled(rid).fouls.values()]

    def match_clock(self) -> MatchClock:
        """The match clock of the tournament rules (knowledge/tournament.yaml)."""
        return match_clock(self.knowledge.tournament)

    # --- the stroke being entered ------------------------------------------------------------
    def entry_game(self) -> Game:
        """The game the stroke being entered is played in: the match's, or as it stood before
        the stroke being corrected."""
        if self.correcting:
            return replayed(self.knowledge, self.match.ruleset, self.match.doubles,
                            self.match.strokes[:self.correcting - 1]).game
        return self.match.game

    def situation_doc(self, stroke: dict, what_if: dict | None = None) -> dict:
        """The situation document of the stroke: on the board set by hand (`what_if`, a situation's
        `before`), or on the match's board as it stands for the stroke being entered."""
        if what_if is not None:
            return {"before": what_if, "stroke": stroke}
        return self.entry_game().situation_doc(stroke)

    def preview(self, stroke: dict, trace: bool = False, what_if: dict | None = None) -> dict:
        """The ruling the stroke gets, recording nothing: on the match, exactly the ruling that
        recording it stores (`Game.preview`, colours open or set); on a board set by hand
        (`what_if`), the ruling of that situation. Refuses as the rules do (BadInput naming the
        situation's field; NoRule or Conflict for a what-if), and with MatchOver once the match
        is won."""
        if what_if is not None:
            from referee_app.core.rules.ruling import rule

            return rule(self.knowledge, self.situation_doc(stroke, what_if), self.match.ruleset, trace=trace)
        if self.match.over:
            raise MatchOver(self.match.winner)
        return self.entry_game().preview(stroke, trace=trace)

    def pending(self, stroke: dict, header: dict) -> PendingStroke:
        """A new stroke to record: its write, then its commit (see PendingStroke)."""
        return PendingStroke(self, stroke, header)

    def record(self, stroke: dict, header: dict | None = None) -> dict:
        """Records the stroke as entered, or as the correction of the stroke being corrected;
        returns its ruling as stored (the one `preview` showed)."""
        if self.correcting:
            n = self.correcting
            self.correct(n, stroke)
            return self.match.rulings[n - 1]
        pending = self.pending(stroke, header or {})
        ruling = pending.write()
        pending.commit()
        return ruling

    # --- corrections -------------------------------------------------------------------------
    def start_correction(self, n: int) -> dict:
        """Corrects stroke `n` (1-based) from now on; returns the stroke as entered."""
        if not 1 <= n <= len(self.match.strokes):
            raise BadInput("stroke", f"no stroke {n} (the sheet has {len(self.match.strokes)})")
        self.correcting = n
        return self.match.strokes[n - 1]

    def cancel_correction(self) -> None:
        self.correcting = None

    def correction_changes(self, n: int, stroke: dict) -> list[dict]:
        """Every later ruling that changes if stroke `n` becomes `stroke` ({stroke, before, after});
        BadInput if the correction makes a later stroke impossible."""
        return self.match.correction(n - 1, stroke)[1]

    def _kept_sent_first(self) -> None:
        """Strokes kept on this machine go to the server before anything changes the sheet there
        (an undo would otherwise take back a stroke the server holds instead of the one on screen);
        StoreUnavailable while it is away."""
        if self.match_id is not None and self.outbox is not None and self.outbox.count(self.server):
            self.send_kept()

    def correct(self, n: int, stroke: dict) -> None:
        """Replaces stroke `n` and re-rules the later ones, in the record and on screen."""
        if self.match_id is not None:
            self._kept_sent_first()
            self.store.correct(self.match_id, n, stroke)
            self.match = self.store.load(self.match_id)
            self._hold(self.match_id, self.match)
        else:
            self.match = self.match.correction(n - 1, stroke)[0]
        self.correcting = None

    def undo(self) -> dict:
        """Takes the last stroke back; returns it."""
        if not self.match.strokes:
            raise BadInput("undo", "no stroke to undo")
        last = self.match.strokes[-1]
        if self.match_id is not None:
            self._kept_sent_first()
            self.store.undo(self.match_id)
            self.match = self.store.load(self.match_id)
            self._hold(self.match_id, self.match)
        else:
            self.match.undo()
        self.correcting = None
        return last

    def record_deciding_strokes(self, attempts: dict) -> dict:
        """The deciding strokes of a level game ({first: [bool, ...], second: [...]}); returns the ruling."""
        entry = {"tie_breaker": attempts}
        if self.match_id is not None:
            self._kept_sent_first()
            ruling = self.store.add_stroke(self.match_id, entry)
            self.match = self.store.load(self.match_id)
            self._hold(self.match_id, self.match)
            return ruling
        return self.match.play(entry)

    # --- what is printed or filled from the match ---------------------------------------------
    def protest_fields(self, n: int | None, header: dict, lang: str) -> dict:
        """The fields of a protest about stroke `n` (the last one if None), the match stored first."""
        from .protest_draft import protest_fields

        if not self.match.strokes:
            raise BadInput("stroke", "no stroke has been recorded yet")
        if n is None or not 1 <= n <= len(self.match.strokes):
            n = len(self.match.strokes)
        meta = self.store.meta(self.ensure_saved(header))
        return protest_fields(self.knowledge, meta, self.match.strokes, n, lang)

    def sheet_meta(self) -> dict:
        """The match's record and its events, for the printed score sheet ({} while not stored)."""
        if self.match_id is None:
            return {}
        return dict(self.store.meta(self.match_id), events=self.store.events(self.match_id),
                    corrected=self.store.corrected(self.match_id))

    def clock_write(self, spent_ms: int, running: bool) -> Callable[[], None] | None:
        """The write of the match clock's state, bound to the match on screen; None while the
        match is not stored (nothing of it is kept yet, its clock neither)."""
        match_id = self.match_id
        if match_id is None:
            return None
        return lambda: self.store.save_clock(match_id, spent_ms, running)

    def saved_clock(self) -> dict | None:
        return self.store.match_clock(self.match_id) if self.match_id is not None else None

    def corrected(self) -> list[int]:
        """The strokes of the sheet corrected after they were recorded (none while not stored).
        Read when the match shown is another object (opened, corrected, undone: each loads the
        match anew), not at every stroke: a stroke appended is never a corrected one."""
        if self.match_id is None:
            return []
        match_id, match, found = self._corrected
        if match_id != self.match_id or match is not self.match:
            found = self.store.corrected(self.match_id)
            self._corrected = (self.match_id, self.match, found)
        return found
