"""SoL's files (`.sol`, `.sol.gz`): the dump of the SoL tournament manager (Scarry On Line, by
Lele Gaifax), read into tournaments and written back for SoL to load.

The format, learnt from SoL's documentation of its `models/bio.py` (no code of it is used here):
a YAML stream (or one JSON array, as SoL's older archives are), gzipped for `.sol.gz`. The first
document holds the shared lists (`players`, `clubs`, `championships`, `ratings`, `rates`,
`users`), each item referred to elsewhere by its 1-based place in its list. Every following
document is a tourney: `description`, `date`, `championship`, `phantomscore`, `system`
(`swiss`, `roundrobin`, `knockout`; older files say `couplings: all` for a round-robin),
`competitors` (each `players: [i, ...]`, with `points`, `bucholz`, `netscore` as SoL ranked
them, `retired`) and `matches` (`turn`, `board`, `competitor1`, `competitor2` (null: the
phantom), `score1`, `score2`, `final`).

What a Swiss tourney becomes here:
- players "First Last" (a team of two "A / B"), in the competitors' order;
- rounds from the turns, the board as the table, the phantom as the ghost;
- the organiser's choices SoL's tourney carries: `ghost_points` (its phantom score, when not the
  FFC's 25), `rounds_total` (the turns played, when the tourney is over and they differ from the
  FFC table), `absent` (a player missing from a turn between two he played), and
  `avoid_rematches` (SoL pairs without rematches, as the FFC text says Scarry did);
- a competitor's first turn after turn 1 is a late entry; one who stops playing has withdrawn;
- one final between the first two, when SoL played one game of it; other finals (best of three,
  third place) and the clubs' names are kept as notes.
Round-robin and knockout tourneys are refused, each named.

Reading is bounded like every input (size, once unzipped too; values; depth; text lengths) and
uses only PyYAML's safe loader or the JSON reader.
"""
from __future__ import annotations

import datetime as _dt
import gzip
import io
import json
import uuid
import zlib

from referee_app.core import validation
from referee_app.core.errors import BadInput
from .ffc import FfcRules
from .model import GHOST, Tournament, parse
from .standings import after_each_round

# A SoL archive holds many tourneys: bounded above any real one (SoL's own archive of 499
# tourneys is 4.7 MB and about 300,000 values), far below what would hurt the machine.
MAX_BYTES = 32_000_000
MAX_VALUES = 3_000_000
MAX_DEPTH = 12
MAX_TEXT = validation.MAX_TEXT


# --- reading ----------------------------------------------------------------------------------
def read_file(path: str) -> list:
    """The documents of a `.sol` or `.sol.gz` file, bounded; BadInput naming what is wrong."""
    return read_bytes(validation.regular_file_bytes(path, "FILE", MAX_BYTES), "FILE")


def read_bytes(raw: bytes, what: str = "FILE") -> list:
    if len(raw) > MAX_BYTES:
        raise BadInput(what, f"too large (more than {MAX_BYTES} bytes)")
    if raw[:2] == b"\x1f\x8b":
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(raw)) as z:
                raw = z.read(MAX_BYTES + 1)
        except (OSError, EOFError, zlib.error) as exc:
            raise BadInput(what, f"not a readable .sol.gz ({exc})") from None
        if len(raw) > MAX_BYTES:
            raise BadInput(what, f"too large once unzipped (more than {MAX_BYTES} bytes)")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise BadInput(what, f"is not UTF-8 text (byte {exc.start + 1})") from None
    if "\x00" in text:
        raise BadInput(what, "contains a NUL character")
    docs = _parse(text, what)
    _bounded(docs, what)
    if not docs or not isinstance(docs[0], dict) or "players" not in docs[0]:
        raise BadInput(what, "not a SoL file: its first part lists no players")
    return docs


def _parse(text: str, what: str) -> list:
    if text.lstrip().startswith("["):         # SoL's JSON form: one array
        try:
            docs = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise BadInput(what, f"not valid JSON: {validation.one_line(str(exc), 120)}") from None
        if not isinstance(docs, list):
            raise BadInput(what, "not a SoL file")
        return docs
    from referee_app.core.knowledge.yamlio import YamlError, measure

    import yaml

    try:
        measure(text, what, MAX_VALUES, MAX_DEPTH)
        return [d for d in yaml.load_all(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
                if d is not None]
    except YamlError as exc:
        raise BadInput(what, f"line {exc.line}: {exc.problem}") from None
    except (yaml.YAMLError, ValueError, OverflowError, RecursionError) as exc:
        raise BadInput(what, f"not valid YAML: {validation.one_line(str(exc), 120)}") from None


def _bounded(docs, what: str) -> None:
    """Depth, number of values and length of texts (SoL's own limits, not a score sheet's)."""
    for value, _path in validation.walked(docs, what, MAX_VALUES, MAX_DEPTH):
        if isinstance(value, str) and len(value) > MAX_TEXT:
            raise BadInput(what, f"a text of {len(value)} characters is too long (at most {MAX_TEXT})")


# --- SoL's tourneys as tournaments ------------------------------------------------------------
def _text(value) -> str:
    return " ".join(str(value).split()) if value is not None else ""


def _int(value, where: str, low: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low or value > 10 ** 9:
        raise BadInput(where, "expected a whole number")
    return value


def _item(items: list, index, where: str):
    i = _int(index, where, 1)
    if i > len(items):
        raise BadInput(where, f"refers to item {i} of a list of {len(items)}")
    return items[i - 1]


def tourney_kind(doc: dict) -> str:
    """swiss, roundrobin or knockout, as SoL says (older files: `couplings: all` is all against all)."""
    system = doc.get("system")
    if system in ("roundrobin", "knockout"):
        return system
    if system in (None, "swiss") and doc.get("couplings") == "all":
        return "roundrobin"
    return "swiss"


def tourney_name(doc: dict) -> str:
    date = doc.get("date")
    return _text(doc.get("description")) + (f" ({date})" if date else "")


def person(p: dict) -> str:
    return _text(f"{_text(p.get('firstname'))} {_text(p.get('lastname'))}") or "?"


def tournaments(ffc: FfcRules, docs: list) -> list[dict]:
    """Every tourney of the file: `{"name", "kind", "tournament" | "refused", "notes", "sol"}`,
    where `sol` is SoL's own ranking of each player (points, bucholz, netscore) for comparison."""
    head = docs[0]
    players = head.get("players") or []
    clubs = head.get("clubs") or []
    championships = head.get("championships") or []
    if not isinstance(players, list) or not isinstance(clubs, list) or not isinstance(championships, list):
        raise BadInput("players", "expected SoL's lists of players, clubs and championships")
    out = []
    for n, doc in enumerate(docs[1:], 1):
        if not isinstance(doc, dict):
            raise BadInput(f"tourney {n}", "expected a mapping")
        kind = tourney_kind(doc)
        entry = {"name": tourney_name(doc), "kind": kind, "notes": []}
        if kind != "swiss":
            entry["refused"] = f"{entry['name']}: a {'round-robin' if kind == 'roundrobin' else 'knockout'} " \
                               "tourney, not a Swiss tournament: not imported"
        else:
            _swiss(ffc, doc, n, entry, players, clubs, championships)
        out.append(entry)
    return out


def _swiss(ffc: FfcRules, doc: dict, n: int, entry: dict, players: list, clubs: list, championships: list) -> None:
    where = f"tourney {n}"
    ctors = doc.get("competitors") or []
    matches = doc.get("matches") or []
    if not isinstance(ctors, list) or not isinstance(matches, list):
        raise BadInput(where, "expected lists of competitors and matches")
    names, sol_rank, club_notes = [], {}, []
    for i, c in enumerate(ctors, 1):
        if not isinstance(c, dict) or not isinstance(c.get("players"), list) or not c["players"]:
            raise BadInput(f"{where}, competitor {i}", "expected its players")
        people = [_item(players, p, f"{where}, competitor {i}.players") for p in c["players"]]
        name = " / ".join(person(p) if isinstance(p, dict) else "?" for p in people)
        base, k = name, 2
        while name in names:
            name, k = f"{base} ({k})", k + 1
        names.append(name)
        sol_rank[name] = {k2: c.get(k2) for k2 in ("points", "bucholz", "netscore", "totscore")}
        for p in people:
            if isinstance(p, dict) and p.get("club") is not None:
                try:
                    club = _item(clubs, p["club"], f"{where}, club")
                except BadInput:
                    continue
                if isinstance(club, dict) and club.get("description"):
                    club_notes.append(f"{person(p)}: {_text(club['description'])}")
    phantom = doc.get("phantomscore", ffc.ghost_score[0])
    phantom = _int(phantom, f"{where}.phantomscore", 1)
    by_turn: dict = {}
    finals = []
    ranked_turn = doc.get("rankedturn")
    ranked_turn = ranked_turn if isinstance(ranked_turn, int) and not isinstance(ranked_turn, bool) else 10 ** 9
    for j, m in enumerate(matches, 1):
        mw = f"{where}, match {j}"
        if not isinstance(m, dict):
            raise BadInput(mw, "expected a mapping")
        first, second = (GHOST if not m.get(side) else _item(names, m[side], f"{mw}.{side}")
                         for side in ("competitor1", "competitor2"))
        s1, s2 = _int(m.get("score1", 0), f"{mw}.score1"), _int(m.get("score2", 0), f"{mw}.score2")
        if first is GHOST:
            first, second, s1, s2 = second, first, s2, s1
        board = m.get("board")
        table = board if isinstance(board, int) and not isinstance(board, bool) and board >= 1 else None
        if m.get("final"):
            finals.append((first, second, (s1, s2), table))
            continue
        turn = _int(m.get("turn"), f"{mw}.turn", 1)
        game = {"first": first, "second": second, "score": [s1, s2], "table": table}
        if second is not GHOST and s1 == s2 == 0 and turn > ranked_turn:
            del game["score"]           # SoL's match not yet entered: a turn paired, not ranked
        by_turn.setdefault(turn, []).append(game)
    turns = sorted(by_turn)
    rounds = [by_turn[t] for t in turns]
    # the rounds each competitor played; tables numbered again where SoL's repeat in a round
    played: dict[str, list] = {p: [] for p in names}
    for r, games in enumerate(rounds, 1):
        tables = [g["table"] for g in games]
        clash = None in tables or len(set(tables)) != len(tables)
        for i, g in enumerate(games, 1):
            if clash:
                g["table"] = i
            if g["table"] is None:
                del g["table"]
            if "score" not in g and r < len(rounds):
                g["score"] = [0, 0]     # only the last round may wait: an earlier 0-0 was played level
            for p in (g["first"], g["second"]):
                if p is not GHOST:
                    played[p].append(r)
    late, withdrawn, absent = {}, {}, {}
    for p, rs in played.items():
        if not rs:
            withdrawn[p] = 0            # entered, never played: in the standings with nothing
            continue
        if rs[0] > 1:
            late[p] = rs[0]
        if rs[-1] < len(rounds):
            withdrawn[p] = rs[-1]
        gaps = sorted(set(range(rs[0], rs[-1] + 1)) - set(rs))
        if gaps:
            absent[p] = gaps
    file = {"name": entry["name"], "players": names, "rounds": rounds}
    if late:
        file["late"] = late
    if withdrawn:
        file["withdrawn"] = withdrawn
    if absent:
        file["absent"] = absent
    # SoL scores every phantom game with the tourney's phantom score as it stands (a game entered
    # before the organiser changed it keeps its old score in the file, but SoL ranks it with the
    # new one): the same here, the stale scores named in a note.
    stale = [f"round {r}: {g['first']} {g['score'][0]}-0" for r, games in enumerate(rounds, 1) for g in games
             if g["second"] is GHOST and g["score"] != [phantom, 0]]
    for games in rounds:
        for g in games:
            if g["second"] is GHOST:
                g["score"] = [phantom, 0]
    if stale:
        entry["notes"].append(f"Games against the phantom scored {phantom}-0, SoL's phantom score, where the "
                              "file still held: " + "; ".join(stale))
    if phantom != ffc.ghost_score[0]:
        file["ghost_points"] = phantom
    file["avoid_rematches"] = True
    probe = Tournament(name="", players=names, ffc=ffc, late=late)
    if rounds and (len(rounds) > probe.rounds_ffc or (doc.get("prized") and len(rounds) != probe.rounds_ffc)):
        file["rounds_total"] = len(rounds)
    _final(ffc, file, finals, entry, doc)
    entry["tournament"] = parse(ffc, file)
    entry["ranked_round"] = sum(1 for turn in turns if turn <= ranked_turn)
    entry["sol"] = sol_rank
    if club_notes:
        entry["notes"].append("Clubs (SoL): " + "; ".join(dict.fromkeys(club_notes)))
    championship = doc.get("championship")
    if isinstance(championship, int) and 1 <= championship <= len(championships):
        ch = championships[championship - 1]
        if isinstance(ch, dict) and ch.get("description"):
            entry["notes"].append(f"Championship (SoL): {_text(ch['description'])}")


def _final(ffc: FfcRules, file: dict, finals: list, entry: dict, doc: dict) -> None:
    """One final game between the first two becomes the final; any other finals are notes."""
    if not finals:
        return
    described = "; ".join(f"{a} v {b} {s[0]}-{s[1]}" for a, b, s, _table in finals)
    if len(finals) == 1 and doc.get("finalkind", "simple") == "simple" and finals[0][2][0] != finals[0][2][1]:
        probe = parse(ffc, {k: v for k, v in file.items()})
        if probe.rounds_total == len(probe.rounds) and probe.complete():
            top = [r.player for r in after_each_round(probe)[-1] if r.player not in probe.withdrawn][:2]
            a, b, s, table = finals[0]
            if {a, b} == set(top):
                file["final"] = {"first": a, "second": b, "score": list(s), **({"table": table} if table else {})}
                return
    entry["notes"].append(f"Finals played in SoL ({doc.get('finalkind', 'simple')}), not the FFC's one final: "
                          + described)


# --- writing ----------------------------------------------------------------------------------
def _split(name: str) -> tuple[str, str]:
    """(first name, last name) of one of our players: SoL keeps the two apart."""
    parts = name.rsplit(" ", 1)
    return (parts[0], parts[1]) if len(parts) == 2 else ("", name)


def dump(t: Tournament, date: _dt.date | None = None, club: str = "carrom-referee") -> str:
    """`t` as a SoL file (YAML) that SoL's own loader accepts: its players, each round's matches
    (the ghost as SoL's phantom, with the organiser's ghost points as the phantom score), the
    final, and each player's points, Bucholz and net score as SoL ranks them."""
    import yaml

    from .standings import current

    description, date = _name_and_date(t.name, date)
    rows = {r.player: r for r in (after_each_round(t)[-1] if t.rounds else current(t))}
    # a doubles team, written "A / B" as the import names it, is two of SoL's players
    teams = {p: p.split(" / ") if " / " in p else [p] for p in t.players}
    per_team = max(len(v) for v in teams.values()) if teams else 1
    people, person_of = [], {}
    for p in t.players:
        for person in teams[p]:
            if person not in person_of:
                people.append({"guid": uuid.uuid5(uuid.NAMESPACE_URL, f"carrom-referee:player:{person}").hex,
                               "firstname": _split(person)[0], "lastname": _split(person)[1]})
                person_of[person] = len(people)
    ctor_of = {p: i for i, p in enumerate(t.players, 1)}
    totscore = dict.fromkeys(t.players, 0)
    matches = []
    for r, games in enumerate(t.rounds, 1):
        for i, g in enumerate(games, 1):
            if not g.done:
                continue
            for p, s in zip(g.players(), g.score):
                if p is not GHOST:
                    totscore[p] += s
            matches.append({"turn": r, "board": g.table or i, "competitor1": ctor_of.get(g.first),
                            "competitor2": ctor_of.get(g.second), "score1": g.score[0], "score2": g.score[1],
                            "final": False})
    if t.final is not None and t.final.score is not None:   # played
        matches.append({"turn": len(t.rounds) + 1, "board": t.final.table or 1,
                        "competitor1": ctor_of[t.final.first], "competitor2": ctor_of[t.final.second],
                        "score1": t.final.score[0], "score2": t.final.score[1], "final": True})
    competitors = []
    for p in t.players:
        row = rows.get(p)
        c = {"players": [person_of[person] for person in teams[p]], "points": row.victories if row else 0,
             "bucholz": row.bucholz if row else 0, "netscore": row.difference if row else 0, "totscore": totscore[p]}
        if p in t.withdrawn:
            c["retired"] = True
        competitors.append(c)
    head = {"users": [], "clubs": [{"guid": uuid.uuid5(uuid.NAMESPACE_URL, f"carrom-referee:club:{club}").hex,
                                    "description": club}],
            "players": people,
            "championships": [{"guid": uuid.uuid5(uuid.NAMESPACE_URL, f"carrom-referee:championship:{t.name}").hex,
                               "club": 1, "description": description, "playersperteam": per_team, "prizes": "asis"}],
            "ratings": [], "rates": []}
    turns = len(t.rounds) + (1 if t.final is not None and t.final.done else 0)
    over = t.final is not None and t.final.done
    tourney = {"guid": uuid.uuid4().hex, "championship": 1, "description": description, "date": date,
               "currentturn": turns, "rankedturn": len(t.rounds), "prized": over, "system": "swiss",
               "couplings": "serial", "phantomscore": t.ghost_score[0], "finals": 1 if t.final is not None else 0,
               "finalkind": "simple", "finalturns": t.final is not None and t.final.done,
               "competitors": competitors, "matches": matches}
    return yaml.safe_dump_all([head, tourney], allow_unicode=True, sort_keys=True)


def _name_and_date(name: str, date: _dt.date | None) -> tuple[str, _dt.date]:
    """SoL's description and date: a name ending in " (YYYY-MM-DD)", as an imported tourney's
    does, gives them back apart, so that a tourney goes out as it came in."""
    name = name or "?"
    if name.endswith(")") and " (" in name:
        head, _sep, tail = name[:-1].rpartition(" (")
        try:
            return head or "?", _dt.date.fromisoformat(tail)
        except ValueError:
            pass
    return name, date or _dt.date.today()


def dump_bytes(t: Tournament, gzipped: bool, date: _dt.date | None = None) -> bytes:
    data = dump(t, date).encode("utf-8")
    return gzip.compress(data, mtime=0) if gzipped else data
