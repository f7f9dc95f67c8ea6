"""Tournaments in the records database: entries, pairings, results and corrections.

All the SQL of the tournament desk is here. Nothing is deleted: a result typed again, or
corrected, marks the row it replaces superseded, so the desk's whole history stays readable. A
result changed once the next round is paired is refused unless it comes as a correction with its
reason, kept in `tournament_corrections`. A game's row carries its `version` (the row that
replaces it, one more): a result given from an older version, or written over a row that another
machine replaced meanwhile, is refused (VersionConflict) rather than overwriting theirs.

One truth per round: a round is paired in one transaction holding the tournament's row (FOR
UPDATE on PostgreSQL; SQLite's writes are serialised by BEGIN IMMEDIATE), which checks that the
round the desk meant to pair is still the next one; and a unique index keeps one row in force per
game. A desk that asked at the same moment as another is told the round was paired meanwhile, by
whom. Every change is written in `tournament_journal` in its own transaction (`log`): who (the
server's login), when, what. The desk-only changes are refused to a table's login before any
write (`NotAllowed`), in the same words as the database's own refusals (roles.py).
"""
from __future__ import annotations

import builtins  # `list` is also a method of the store: annotations after it name the type
import json
from typing import TYPE_CHECKING

from referee_app.core import validation
from referee_app.core.errors import BadInput
from referee_app.core.storage import db
from referee_app.core.storage.refusals import Meanwhile, NotAllowed
from .model import CHOICES, GHOST, Game, Tournament, apply_choices
from .pairing import next_round
from .standings import current

if TYPE_CHECKING:
    from referee_app.core.knowledge.root import Knowledge
    from .ffc import FfcRules

FINAL = "final"


def _round_key(round_no) -> str:
    return FINAL if round_no == FINAL else str(int(round_no))


MAX_REASON = 500


def begun_table(games) -> int | None:
    """A table of the round whose game has begun (a score sheet opened) or ended (a result other
    than the ghost's, which is given at pairing), None when none has: the round may be paired again."""
    played = [g["table_no"] for g in games if g["score_first"] is not None and GHOST not in (g["first"], g["second"])]
    opened = [g["table_no"] for g in games if g["match_id"] is not None]
    return (played or opened or [None])[0]


def _reason(reason, what: str) -> str:
    """The reason as the journal keeps it, on one line. One too long is refused rather than cut:
    the journal is what the desk shows a federation afterwards, so it holds what was typed."""
    if not isinstance(reason, str) or not reason.strip():
        raise BadInput("reason", f"{what} needs its reason", "reason_missing")
    kept = validation.one_line(reason.strip(), len(reason) + 1)
    if len(kept) > MAX_REASON:
        raise BadInput("reason", f"a reason of {len(kept)} characters is too long (at most {MAX_REASON})",
                       "reason_too_long", {"length": len(kept), "most": MAX_REASON})
    return kept


def _tables_doc(pairing: dict) -> builtins.list:
    return [{"table": g["table"], "first": g["first"], "second": g["second"]} for g in pairing["tables"]]


def round_arg(round_no):
    """A round as the desk names it: a number from 1, or "final"."""
    if round_no == FINAL:
        return FINAL
    try:
        value = int(round_no)
    except (TypeError, ValueError):
        raise BadInput("round", f"'{round_no}' is not a round number (nor \"final\")") from None
    if value < 1:
        raise BadInput("round", "rounds are numbered from 1")
    return value


class TournamentStore(db.Store):
    """The tournaments of one records database, played by the FFC's rules of `knowledge`."""

    def __init__(self, knowledge: Knowledge, *args, **kwargs):
        """`knowledge`: whose tournament.yaml the tournaments are played by (`knowledge.ffc`);
        the rest as db.Store takes it."""
        super().__init__(*args, **kwargs)
        self.knowledge = knowledge

    @property
    def ffc(self) -> FfcRules:
        return self.knowledge.ffc

    # --- tournaments and entries ----------------------------------------------------------
    def create(self, name: str, players, ruleset: str, checked_in: bool = True,
               choices: dict | None = None) -> int:
        """A new tournament; `choices` are the organiser's, in the file's keys, set at creation.
        The ruleset is the caller's (its knowledge's `default_ruleset` when the user named none):
        the store knows no ruleset of its own."""
        if not isinstance(name, str) or not name.strip():
            raise BadInput("name", "a tournament needs a name", "name_missing")
        self._desk_only("tournament")
        stored = self._choices_json(choices or {}, list(players))
        with self.transaction():
            tid = self.write("INSERT INTO tournaments (name, ruleset, created_at, choices) "
                             "VALUES (:name, :ruleset, :at, :choices) RETURNING id",
                             {"name": name.strip(), "ruleset": ruleset, "at": self.clock().isoformat(),
                              "choices": stored})
            for p in players:
                self._enter(tid, p, checked_in, journal=False)
            self._note(tid, "create", name=name.strip(), players=[str(p) for p in players])
        return tid

    def _choices_json(self, doc: dict, players: list, changes=(), notes=()) -> str | None:
        """The choices column: the file's keys as checked by the model, the changes and notes."""
        from .model import apply_choices

        probe = Tournament(name="", players=players, ffc=self.ffc)
        apply_choices(probe, {k: v for k, v in doc.items() if k in CHOICES})
        stored = probe.choices_doc()
        if changes:
            stored["changes"] = list(changes)
        if notes:
            stored["notes"] = list(notes)
        return json.dumps(stored, ensure_ascii=False) if stored else None

    def _stored_choices(self, tid) -> dict:
        value, _problem = db.stored_json(self.meta(tid).get("choices"), {})
        return value if isinstance(value, dict) else {}

    def import_tournament(self, t: Tournament, ruleset: str, notes=()) -> int:
        """A tournament file stored as it stands: entries checked in, rounds, results, final, the
        organiser's choices, and `notes` (what an import from another program could not keep)."""
        self._desk_only("tournament")
        stamp = self.clock().isoformat()
        with self.transaction():
            tid = self.write("INSERT INTO tournaments (name, ruleset, created_at, seed, choices) "
                             "VALUES (:name, :ruleset, :at, :seed, :choices) RETURNING id",
                             {"name": t.name.strip() or "?", "ruleset": ruleset, "at": stamp, "seed": t.seed,
                              "choices": self._choices_json(t.choices_doc(), list(t.players), notes=notes)})
            for seq, p in enumerate(t.players, 1):
                self.write("INSERT INTO tournament_entries (tournament_id, seq, name, checked_in, first_round, "
                           "withdrawn_after) VALUES (:t, :seq, :name, 1, :first, :withdrawn)",
                           {"t": tid, "seq": seq, "name": p, "first": t.late.get(p, 1), "withdrawn": t.withdrawn.get(p)})
            games = [(r, 0, g) for r, rnd in enumerate(t.rounds, 1) for g in rnd]
            if t.final is not None:
                games.append((len(t.rounds) + 1, 1, t.final))
            for r, final, g in games:
                tables = [x.table for x in (t.rounds[r - 1] if not final else [g])]
                table = g.table if g.table is not None and len(set(tables)) == len(tables) else \
                    (t.rounds[r - 1].index(g) + 1 if not final else 1)
                self._insert_game(tid, r, final, table, g.first, g.second, g.score or (None, None), stamp)
            self._note(tid, "import", name=t.name, players=list(t.players), rounds=len(t.rounds),
                       final=t.final is not None)
        return tid

    def _insert_game(self, tid, round_no, final, table, first, second, score, stamp, match_id=None, version=1):
        self.write("INSERT INTO tournament_games (tournament_id, round, final, table_no, first, second, score_first, "
                   "score_second, match_id, entered_at, version) VALUES (:t, :round, :final, :table, :first, :second, "
                   ":a, :b, :match_id, :at, :version)",
                   {"t": tid, "round": round_no, "final": int(final), "table": table, "first": first, "second": second,
                    "a": score[0], "b": score[1], "match_id": match_id, "at": stamp, "version": version})

    def list(self) -> list[dict]:
        rows = self.all(
            "SELECT t.id, t.name, t.ruleset, t.created_at, "
            "(SELECT COUNT(*) FROM tournament_entries e WHERE e.tournament_id = t.id) AS entries, "
            "(SELECT COALESCE(MAX(round), 0) FROM tournament_games g WHERE g.tournament_id = t.id AND g.final = 0) "
            "AS rounds_paired FROM tournaments t ORDER BY t.id")
        return [dict(r) for r in rows]

    def meta(self, tid) -> dict:
        return dict(self.row("tournaments", tid, "tournament", field="tournament"))

    def entries(self, tid) -> builtins.list[dict]:
        self.meta(tid)
        return [dict(r) for r in self.all(
            "SELECT name, checked_in, first_round, withdrawn_after FROM tournament_entries "
            "WHERE tournament_id = :t ORDER BY seq", {"t": tid})]

    def _enter(self, tid, name, checked_in: bool, journal: bool = True) -> None:
        name = validation.name(name, "player").strip()
        self._desk_only("entries")
        with self.transaction():
            if self.first("SELECT 1 AS found FROM tournament_entries WHERE tournament_id = :t AND name = :name",
                          {"t": tid, "name": name}):
                raise BadInput("player", f"'{name}' is already entered", "player_entered", {"name": name})
            seq = self.scalar("SELECT COALESCE(MAX(seq), 0) + 1 FROM tournament_entries WHERE tournament_id = :t",
                              {"t": tid})
            self.write("INSERT INTO tournament_entries (tournament_id, seq, name, checked_in, first_round) "
                       "VALUES (:t, :seq, :name, :checked_in, :first)",
                       {"t": tid, "seq": seq, "name": name, "checked_in": int(checked_in),
                        "first": self._rounds_paired(tid) + 1 if checked_in else None})
            if journal:
                self._note(tid, "enter", player=name, checked_in=bool(checked_in))

    def add_player(self, tid, name: str, checked_in: bool = False) -> None:
        """An entry; once round 1 is paired, a late entry (documented choice `late_entry`)."""
        self.meta(tid)
        self._refuse_after_final(tid, "player")
        self._enter(tid, name, checked_in)

    def check_in(self, tid, name: str, present: bool = True) -> None:
        """Marks an entry present (it is paired from the next round) or absent (before it plays)."""
        self._desk_only("entries")
        entry = self._entry(tid, name)
        paired = self._rounds_paired(tid)
        if not present and entry["first_round"] is not None and entry["first_round"] <= paired:
            raise BadInput("player", f"{name} has already been paired; withdraw him instead", "player_paired",
                           {"name": name})
        with self.transaction():
            self.write("UPDATE tournament_entries SET checked_in = :present, first_round = :first "
                       "WHERE tournament_id = :t AND name = :name",
                       {"present": int(present), "first": paired + 1 if present else None, "t": tid, "name": name})
            self._note(tid, "check_in", player=name, present=bool(present))

    def withdraw(self, tid, name: str, reason: str) -> str:
        """The player is not paired any more (documented choice `withdrawal`): a destructive change,
        asked with its reason. Returns the reason as the journal keeps it."""
        self._desk_only("entries")
        reason = _reason(reason, "withdrawing a player")
        entry = self._entry(tid, name)
        if entry["withdrawn_after"] is not None:
            raise BadInput("player", f"{name} has already withdrawn", "player_withdrawn", {"name": name})
        if not entry["checked_in"]:
            raise BadInput("player", f"{name} is not checked in", "player_absent", {"name": name})
        with self.transaction():
            after = self._rounds_paired(tid)
            self.write("UPDATE tournament_entries SET withdrawn_after = :after WHERE tournament_id = :t AND name = :name",
                       {"after": after, "t": tid, "name": name})
            self._note(tid, "withdraw", player=name, after_round=after, reason=reason)
        return reason

    def _entry(self, tid, name: str) -> dict:
        self.meta(tid)
        row = self.first("SELECT * FROM tournament_entries WHERE tournament_id = :t AND name = :name",
                         {"t": tid, "name": name})
        if row is None:
            raise BadInput("player", f"no entry named '{name}'", "player_unknown", {"name": name})
        return dict(row)

    # --- the tournament as data -----------------------------------------------------------
    def _games(self, tid) -> builtins.list:
        return self.all("SELECT * FROM tournament_games WHERE tournament_id = :t AND superseded_at IS NULL "
                        "ORDER BY final, round, table_no", {"t": tid})

    def _rounds_paired(self, tid) -> int:
        return self.scalar("SELECT COALESCE(MAX(round), 0) FROM tournament_games WHERE tournament_id = :t "
                           "AND final = 0", {"t": tid})

    def load(self, tid) -> Tournament:
        meta = self.meta(tid)
        players, late, withdrawn = [], {}, {}
        for e in self.entries(tid):
            if e["first_round"] is None:
                continue                  # entered but not checked in: not a player (yet)
            players.append(e["name"])
            if e["first_round"] > 1:
                late[e["name"]] = e["first_round"]
            if e["withdrawn_after"] is not None:
                withdrawn[e["name"]] = e["withdrawn_after"]
        t = Tournament(name=meta["name"], players=players, ffc=self.ffc, seed=meta["seed"], late=late, withdrawn=withdrawn)
        stored = self._stored_choices(tid)
        stored["absent"] = {p: r for p, r in stored.get("absent", {}).items() if p in players}
        try:
            apply_choices(t, stored)
        except BadInput:
            pass                          # a stored value that cannot be read counts as the FFC text
        for row in self._games(tid):
            score = None if row["score_first"] is None else (row["score_first"], row["score_second"])
            game = Game(row["first"], row["second"], score, row["table_no"])
            if row["final"]:
                t.final = game
                continue
            while len(t.rounds) < row["round"]:
                t.rounds.append([])
            t.rounds[row["round"] - 1].append(game)
        return t

    def document(self, tid) -> dict:
        """The tournament in the contract's file format."""
        return self.load(tid).to_doc()

    # --- the organiser's choices --------------------------------------------------------
    def set_choice(self, tid, choice: str, value, reason: str) -> dict:
        """Changes one of the organiser's choices before the round it affects, recording why
        (`value` None goes back to the FFC text; for `absent`, `(player, [rounds])`)."""
        from .choices import changed

        self._desk_only("tournament")
        # no reason is asked before play (the choices set when the tournament is created)
        reason = _reason(reason, "a change of the organiser's choices") \
            if isinstance(reason, str) and reason.strip() else ""
        with self.transaction():
            t = self.load(tid)
            if not reason and (t.rounds or t.final is not None):
                # set when the tournament is created, no reason is asked; once play began, one is
                raise BadInput("reason", "a change of the organiser's choices once play has begun needs its reason",
                               "reason_missing")
            if choice == "absent" and (not isinstance(value, tuple) or value[0] not in t.players):
                name = value[0] if isinstance(value, tuple) else value
                raise BadInput("player", f"no player named '{name}'", "player_unknown", {"name": name})
            before = t.choices_doc().get(choice)
            new = changed(t, choice, value)
            after = new.choices_doc().get(choice)
            stored = self._stored_choices(tid)
            change = {"choice": choice, "before": before, "after": after, "reason": reason,
                      "at": self.clock().isoformat()}
            self._journal(tid, new.choices_doc(), list(t.players), change, stored)
            self._note(tid, "choice", None, None, choice=choice, before=before, after=after, reason=reason)
        return change

    def _journal(self, tid, choices: dict, players: builtins.list, change: dict, stored: dict) -> None:
        """The choices as they now stand, and one more entry in the desk's changes."""
        self.write("UPDATE tournaments SET choices = :choices WHERE id = :t",
                   {"t": tid, "choices": self._choices_json(choices, players, [*stored.get("changes", []), change],
                                                            stored.get("notes", []))})

    def move_table(self, tid, round_no, table: int, new_table: int, reason: str) -> dict:
        """A game moved to another table (a board found faulty, a table freed), recording why; a game
        already at that table takes the first one's place. Nothing is deleted: the rows moved are
        superseded by their copies at the new numbers, with the next version."""
        reason = _reason(reason, "moving a game to another table")
        self._desk_only("move")
        new_table = int(new_table)
        if new_table < 1:
            raise BadInput("table", "tables are numbered from 1", "table_number")
        round_no = round_arg(round_no)
        with self.transaction():
            row = self._game_row(tid, round_no, table, lock=True)
            if row["score_first"] is not None and GHOST not in (row["first"], row["second"]):
                raise BadInput("table", f"table {table} has its result: its game has been played", "table_played",
                               {"table": int(table)})
            other = self.first("SELECT * FROM tournament_games WHERE tournament_id = :t AND final = :final "
                               "AND round = :round AND table_no = :table AND superseded_at IS NULL",
                               {"t": tid, "final": row["final"], "round": row["round"], "table": new_table})
            if other is not None and other["score_first"] is not None and GHOST not in (other["first"], other["second"]):
                raise BadInput("table", f"table {new_table} has its result: its game has been played", "table_played",
                               {"table": new_table})
            stamp = self.clock().isoformat()
            moves = ((row, new_table), *(((other, int(table)),) if other is not None else ()))
            for moved, _to in moves:   # both set aside first: one row in force per table at every moment
                self.write("UPDATE tournament_games SET superseded_at = :at WHERE id = :id", {"at": stamp, "id": moved["id"]})
            for moved, to in moves:
                self._insert_game(tid, moved["round"], moved["final"], to, moved["first"], moved["second"],
                                  (moved["score_first"], moved["score_second"]), stamp, moved["match_id"],
                                  moved["version"] + 1)
            change = {"choice": "table", "round": _round_key(round_no), "before": int(table), "after": new_table,
                      "players": [row["first"], row["second"]], "reason": reason, "at": stamp}
            t = self.load(tid)
            self._journal(tid, t.choices_doc(), list(t.players), change, self._stored_choices(tid))
            self._note(tid, "move_table", round_no, int(table), after=new_table, players=change["players"],
                       reason=change["reason"])
        return change

    def opponents_now(self, tid) -> dict:
        """Each player's opponent and table in the round being played (the last paired, or the
        final); the ghost is None. Empty once every result of it is in."""
        t = self.load(tid)
        games = [t.final] if t.final is not None else (t.rounds[-1] if t.rounds else [])
        if all(g.done for g in games):
            return {}
        out = {}
        for i, g in enumerate(games, 1):
            for p, q in ((g.first, g.second), (g.second, g.first)):
                if p is not GHOST:
                    out[p] = {"opponent": q, "table": g.table or i}
        return out

    def choice_changes(self, tid) -> builtins.list[dict]:
        return list(self._stored_choices(tid).get("changes", []))

    def notes(self, tid) -> builtins.list[str]:
        return list(self._stored_choices(tid).get("notes", []))

    # --- pairing --------------------------------------------------------------------------
    def pair(self, tid, seed: int | None = None) -> dict:
        """Pairs the next round (or the final) and saves it, all or nothing; returns the pairing.
        The round meant is the next one as this desk reads it now: paired meanwhile by another
        desk, it is refused in one line naming who, and nothing is written."""
        self._desk_only("pair")
        seen = self.load(tid)
        meant = (len(seen.rounds), seen.final is not None)
        try:
            with self.transaction():
                t = self._locked(tid)
                if (len(t.rounds), t.final is not None) != meant:
                    raise self._paired_meanwhile(tid, FINAL if meant[0] >= seen.rounds_total else meant[0] + 1)
                pairing = self._pair_now(tid, t, seed)
                self._note(tid, "pair", pairing["round"], tables=_tables_doc(pairing))
        except db.StoreError as exc:
            # the unique index refused a second copy of the round (a writer that took no lock)
            if exc.reason != "refused" or not any(s in str(exc) for s in ("tournament_games_one_live_row",
                                                                             "UNIQUE constraint failed: tournament_games.")):
                raise
            raise self._paired_meanwhile(tid, FINAL if meant[0] >= seen.rounds_total else meant[0] + 1) from None
        return pairing

    def _locked(self, tid) -> Tournament:
        """The tournament read again inside the caller's transaction, after taking its row: no
        other desk pairs it until this transaction ends."""
        if self.dialect == "postgresql":
            self.first("SELECT id FROM tournaments WHERE id = :t FOR UPDATE", {"t": int(tid)})
        return self.load(tid)

    def _pair_now(self, tid, t: Tournament, seed) -> dict:
        if len(t.players) < 2:
            raise BadInput("players", "fewer than two players checked in", "too_few_players")
        pairing = next_round(t, seed)
        stamp = self.clock().isoformat()
        final = pairing["round"] == FINAL
        round_no = len(t.rounds) + 1
        ghost = t.ghost_score
        if "seed" in pairing:
            self.write("UPDATE tournaments SET seed = :seed WHERE id = :t", {"seed": pairing["seed"], "t": tid})
        for table in pairing["tables"]:
            score = (None, None)
            if table["second"] is GHOST:
                score = tuple(ghost)            # the ghost's game is decided at once (ffc-tournament:1.15)
            self._insert_game(tid, round_no, final, table["table"], table["first"], table["second"], score, stamp)
        return pairing

    def _paired_meanwhile(self, tid, round_no) -> Meanwhile:
        found = self.first("SELECT login, at FROM tournament_journal WHERE tournament_id = :t AND action IN "
                           "('pair', 'repair') AND round = :round ORDER BY id DESC LIMIT 1",
                           {"t": tid, "round": _round_key(round_no)})
        return Meanwhile("paired", round_no, login=found["login"] if found else None, at=found["at"] if found else None)

    def repair(self, tid, round_no, reason: str, seed: int | None = None) -> dict:
        """Pairs the last round again while none of its games is played (a withdrawal or an absence
        after it was paired, a slip at the desk): its rows are set aside, never deleted, and the
        journal keeps both pairings and the reason. Returns the new pairing."""
        self._desk_only("repair")
        reason = _reason(reason, "pairing a round again")
        round_no = round_arg(round_no)
        with self.transaction():
            t = self._locked(tid)
            last = FINAL if t.final is not None else len(t.rounds)
            if not last:
                raise BadInput("round", "no round is paired yet", "no_round")
            if _round_key(round_no) != _round_key(last):
                raise BadInput("round", f"only the last round paired ({_round_key(last)}) may be paired again",
                               "repair_not_last", {"round": last})
            rows = self.round_games(tid, round_no)
            table = begun_table(rows)
            if table is not None:
                raise BadInput("round", f"table {table} has begun or finished its game: the round is being played; "
                                        "change its results through recorded corrections", "round_begun",
                               {"table": table, "round": round_no})
            stamp = self.clock().isoformat()
            self.write("UPDATE tournament_games SET superseded_at = :at WHERE tournament_id = :t AND superseded_at "
                       "IS NULL AND final = :final" + ("" if round_no == FINAL else " AND round = :round"),
                       {"at": stamp, "t": tid, "final": int(round_no == FINAL), "round": 0 if round_no == FINAL
                        else int(round_no)})
            before = [{"table": r["table_no"], "first": r["first"], "second": r["second"]} for r in rows]
            if round_no != FINAL:
                # the entries as they are now: a player who withdrew since the round was paired does
                # not play it, one who checked in since does
                r = int(round_no)
                self.write("UPDATE tournament_entries SET withdrawn_after = :before WHERE tournament_id = :t "
                           "AND withdrawn_after = :r", {"t": tid, "r": r, "before": r - 1})
                self.write("UPDATE tournament_entries SET first_round = :r WHERE tournament_id = :t "
                           "AND first_round = :next", {"t": tid, "r": r, "next": r + 1})
            pairing = self._pair_now(tid, self.load(tid), seed)
            self._note(tid, "repair", pairing["round"], before=before, tables=_tables_doc(pairing), reason=reason)
        return pairing

    def round_games(self, tid, round_no) -> builtins.list[dict]:
        round_no = round_arg(round_no)
        final = round_no == FINAL
        rows = [r for r in self._games(tid) if bool(r["final"]) == final and (final or r["round"] == int(round_no))]
        return [dict(r) for r in rows]

    def _game_row(self, tid, round_no, table: int, lock: bool = False, meanwhile: bool = True):
        """The game's row in force; with `lock`, held until the transaction ends. A row another
        machine replaced while this one waited for it is said as such (`Meanwhile`), or, without
        `meanwhile`, its replacement is returned (a writer that gave the version it read)."""
        self.meta(tid)
        round_no = round_arg(round_no)
        final = round_no == FINAL
        row = self.first(
            "SELECT * FROM tournament_games WHERE tournament_id = :t AND final = :final "
            + ("" if final else "AND round = :round ") + "AND table_no = :table AND superseded_at IS NULL"
            + (" FOR UPDATE" if lock and self.dialect == "postgresql" else ""),
            {"t": tid, "final": int(final), "round": 0 if final else int(round_no), "table": int(table)})
        if row is None:
            # read again (a new statement sees what committed meanwhile): the row this one waited
            # for may have been replaced by another machine's result, rather than never paired
            row = self.first(
                "SELECT * FROM tournament_games WHERE tournament_id = :t AND final = :final "
                + ("" if final else "AND round = :round ") + "AND table_no = :table AND superseded_at IS NULL",
                {"t": tid, "final": int(final), "round": 0 if final else int(round_no), "table": int(table)})
            if row is not None and lock:
                if meanwhile:
                    raise self._changed_meanwhile(tid, round_no, int(table), row)
                return self._game_row(tid, round_no, table, lock=True, meanwhile=True)
        if row is None:
            raise BadInput("table", f"no table {table} in {'the final' if final else f'round {round_no}'}", "no_table",
                           {"table": table, "round": FINAL if final else round_no})
        return row

    def _last_change(self, tid, round_no, table: int) -> dict | None:
        found = self.first("SELECT login, at, action FROM tournament_journal WHERE tournament_id = :t AND round = :round "
                           "AND table_no = :table ORDER BY id DESC LIMIT 1",
                           {"t": tid, "round": _round_key(round_no), "table": int(table)})
        return dict(found) if found else None

    def _changed_meanwhile(self, tid, round_no, table: int, row) -> Meanwhile:
        last = self._last_change(tid, round_no, table) or {}
        key = "result" if row["score_first"] is not None else "changed"
        return Meanwhile(key, round_no, table, last.get("login"), last.get("at") or row["entered_at"])

    def _not_entered_meanwhile(self, tid, round_no, row) -> None:
        """A table entering the result of a game that has one is told who entered it, and when;
        the desk types over a result (or corrects it), refused only on a version conflict."""
        if row["score_first"] is None or GHOST in (row["first"], row["second"]):
            return
        if self.database.role() == "table":
            # whatever version it typed over: a table never chooses between two results
            raise self._changed_meanwhile(tid, round_no, row["table_no"], row)

    # --- results --------------------------------------------------------------------------
    def result(self, tid, round_no, table: int, score, match_id: int | None = None,
               expected_version: int | None = None) -> None:
        """A result typed at the desk or read from the table's score sheet. Refused once the next
        round is paired: that takes `correct`, with a reason. Given the version of the game the
        result was typed over, a game changed elsewhere since is refused (VersionConflict)."""
        round_no = round_arg(round_no)
        with self.transaction():
            row = self._game_row(tid, round_no, table, lock=True, meanwhile=expected_version is None)
            self._not_entered_meanwhile(tid, round_no, row)
            if round_no != FINAL and self._rounds_paired(tid) > int(round_no) or \
                    round_no != FINAL and self._final_paired(tid):
                raise BadInput("round", f"the round after round {round_no} is already "
                               "paired: change this result through a recorded correction, with its reason",
                               "next_round_paired", {"round": round_no})
            before = None if row["score_first"] is None else [row["score_first"], row["score_second"]]
            new = self._write_result(tid, row, score, match_id, expected_version)
            self._note(tid, "result", round_no, int(table), score=list(new), before=before,
                       **({"match_id": int(match_id)} if match_id is not None else {}))

    def correct(self, tid, round_no, table: int, score, reason: str, expected_version: int | None = None) -> dict:
        """Changes a result at any time, recording what it changes and why (documented choice
        `correction`); the rounds already paired stay as they were."""
        reason = _reason(reason, "a correction")
        self._desk_only("correct")
        round_no = round_arg(round_no)
        with self.transaction():
            row = self._game_row(tid, round_no, table, lock=True, meanwhile=expected_version is None)
            before = None if row["score_first"] is None else [row["score_first"], row["score_second"]]
            new = self._write_result(tid, row, score, row["match_id"], expected_version)
            entry = {"round": _round_key(round_no), "table": int(table), "before": before, "after": list(new),
                     "reason": reason, "at": self.clock().isoformat()}
            self.write("INSERT INTO tournament_corrections (tournament_id, round, table_no, before, after, reason, at) "
                       "VALUES (:t, :round, :table, :before, :after, :reason, :at)",
                       {"t": tid, **entry, "before": json.dumps(before), "after": json.dumps(entry["after"])})
            self._note(tid, "correction", round_no, int(table), before=before, score=entry["after"],
                       reason=entry["reason"])
        return entry

    def corrections(self, tid) -> builtins.list[dict]:
        return [{"round": r["round"], "table": r["table_no"], "before": json.loads(r["before"]),
                 "after": json.loads(r["after"]), "reason": r["reason"], "at": r["at"]}
                for r in self.all("SELECT * FROM tournament_corrections WHERE tournament_id = :t ORDER BY id", {"t": tid})]

    def _final_paired(self, tid) -> bool:
        return self.first("SELECT 1 AS found FROM tournament_games WHERE tournament_id = :t AND final = 1",
                          {"t": tid}) is not None

    def _refuse_after_final(self, tid, field: str) -> None:
        if self._final_paired(tid):
            raise BadInput(field, "the final is paired: the tournament is over", "tournament_over")

    @staticmethod
    def _as_game(row) -> dict:
        return {"round": FINAL if row["final"] else row["round"], "table": row["table_no"],
                "score": None if row["score_first"] is None else [row["score_first"], row["score_second"]],
                "match_id": row["match_id"], "entered_at": row["entered_at"], "version": row["version"]}

    def _result_most(self, tid, end: int):
        """The most a side ends a game with under the tournament's ruleset (core/rules/reachable.py)."""
        from referee_app.core.rules.reachable import result_most

        ruleset = self.meta(tid)["ruleset"]
        return result_most(self.knowledge.compiled(ruleset), end) if ruleset in self.knowledge.rulesets else None

    def _write_result(self, tid, row, score, match_id, expected_version: int | None = None) -> tuple:
        if GHOST in (row["first"], row["second"]):
            ghost = (row["score_first"], row["score_second"]) if row["score_first"] is not None else self.ffc.ghost_score
            raise BadInput("table", f"the ghost's game is always {ghost[0]}-{ghost[1]} ({self.ffc.clauses['ghost']}"
                           + ("" if tuple(ghost) == tuple(self.ffc.ghost_score) else ", with the organiser's ghost_points")
                           + ")", "ghost_game", {"score": list(ghost), "clauses": [self.ffc.clauses["ghost"]],
                                                 "organiser": tuple(ghost) != tuple(self.ffc.ghost_score)})
        if not isinstance(score, (list, tuple)) or len(score) != 2 or \
                not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in score):
            raise BadInput("score", "expected the two players' points, like 25 15", "score_shape")
        end = self.ffc.final_points if row["final"] else self.ffc.match_points
        if min(score) >= end:
            # the game ends when one side reaches its points: both there is a slip, never a result
            clause = self.ffc.clauses["final" if row["final"] else "points"]
            raise BadInput("score", f"{score[0]}-{score[1]}: no game ends with both sides at {end} points or "
                                    f"more ({clause})", "score_both_at_end",
                           {"score": list(score), "end": end, "clauses": [clause]})
        top = self._result_most(tid, end)
        if top and max(score) > top.points:
            clause = self.ffc.clauses["final" if row["final"] else "points"]
            raise BadInput("score", f"{score[0]}-{score[1]}: a game played to {end} points ends with {top.points} at "
                                    f"most, {end - 1} and one board's {top.board} ({clause}, {', '.join(top.clauses)})",
                           "score_above_most", {"score": list(score), "end": end, "most": top.points,
                                                "board": top.board, "clauses": [clause, *top.clauses]})
        if row["final"] and score[0] == score[1]:
            raise BadInput("score", f"the final is played to {self.ffc.final_points} points, it cannot end level "
                           f"({self.ffc.clauses['final']})", "final_level",
                           {"end": self.ffc.final_points, "clauses": [self.ffc.clauses["final"]]})
        mine = {"round": FINAL if row["final"] else row["round"], "table": row["table_no"], "score": list(score)}
        if expected_version is not None and int(expected_version) != row["version"]:
            raise db.VersionConflict(f"the result of table {row['table_no']}", {**mine, "version": int(expected_version)},
                                     self._as_game(row))
        stamp = self.clock().isoformat()
        with self.transaction():
            replaced = self.write("UPDATE tournament_games SET superseded_at = :at WHERE id = :id "
                                  "AND superseded_at IS NULL", {"at": stamp, "id": row["id"]})
            if replaced != 1:   # another machine replaced this row since it was read
                now = self._game_row(tid, FINAL if row["final"] else row["round"], row["table_no"])
                raise db.VersionConflict(f"the result of table {row['table_no']}", {**mine, "version": row["version"]},
                                         self._as_game(now))
            self._insert_game(tid, row["round"], row["final"], row["table_no"], row["first"], row["second"], score,
                              stamp, match_id if match_id is not None else row["match_id"], row["version"] + 1)
        return tuple(score)

    # --- matches at the tables ------------------------------------------------------------
    def link_match(self, tid, round_no, table: int, match_id: int) -> None:
        """The score sheet kept at this table (a match of `play.store`)."""
        with self.transaction():
            row = self._game_row(tid, round_no, table, lock=True)
            self.write("UPDATE tournament_games SET match_id = :m, version = version + 1 WHERE id = :id",
                       {"m": int(match_id), "id": row["id"]})
            self._note(tid, "sheet", round_no, int(table), match_id=int(match_id))

    def game(self, tid, round_no, table: int, lock: bool = False) -> dict:
        return dict(self._game_row(tid, round_no, table, lock=lock))

    # --- who may, and the journal ---------------------------------------------------------
    def _desk_only(self, key: str) -> None:
        if self.database.role() == "table":
            raise NotAllowed(key)

    def _note(self, tid, action: str, round_no=None, table: int | None = None, **detail) -> None:
        """One entry of the journal, in the transaction of the change it records. On PostgreSQL the
        login is the column's default, the server's `current_user`, which a table may not write."""
        values = {"t": int(tid), "at": self.clock().isoformat(), "action": action,
                  "round": None if round_no is None else _round_key(round_no), "table": table,
                  "detail": json.dumps(detail, ensure_ascii=False, default=str)}
        if self.dialect == "postgresql":
            self.write("INSERT INTO tournament_journal (tournament_id, at, action, round, table_no, detail) "
                       "VALUES (:t, :at, :action, :round, :table, :detail)", values)
        else:
            self.write("INSERT INTO tournament_journal (tournament_id, at, login, action, round, table_no, detail) "
                       "VALUES (:t, :at, :login, :action, :round, :table, :detail)",
                       {**values, "login": self.database.login()})

    def log(self, tid) -> builtins.list[dict]:
        """Every change to the tournament, oldest first: {at, login, action, round, table, detail}
        (round: a number, "final" or None; detail: the action's own fields)."""
        self.meta(tid)
        out = []
        for r in self.all("SELECT * FROM tournament_journal WHERE tournament_id = :t ORDER BY id", {"t": tid}):
            detail, _problem = db.stored_json(r["detail"], {}, shown=True)
            round_no = r["round"]
            out.append({"at": r["at"], "login": r["login"], "action": r["action"],
                        "round": int(round_no) if round_no and round_no.isdigit() else round_no,
                        "table": r["table_no"], "detail": detail})
        return out

    # --- reports --------------------------------------------------------------------------
    def show(self, tid, lang: str = "en") -> dict:
        from .choices import departures

        t = self.load(tid)
        meta = self.meta(tid)
        pending = [{"round": FINAL if g.get("final") else g["round"], "table": g["table_no"]}
                   for g in (dict(r) for r in self._games(tid)) if g["score_first"] is None]
        return {"id": meta["id"], "name": meta["name"], "ruleset": meta["ruleset"], "created_at": meta["created_at"],
                "tournament": t.to_doc(), "entries": self.entries(tid), "rounds_total": t.rounds_total,
                "standings": [r.to_doc() for r in current(t)] if t.players else [],
                "pending": pending, "corrections": self.corrections(tid),
                "choices": [dict(c) for c in self.ffc.choices],
                "departures": departures(t, lang), "choice_changes": self.choice_changes(tid),
                "opponents_now": self.opponents_now(tid),
                "notes": self.notes(tid)}
