"""Rules a stroke: situation in, ruling out, in the contract's format.

What each aspect becomes is decided by the knowledge base (engine.py); this module only
carries the decision out: counts the coins that go back, pays dues as soon as a pocketed coin
is there to pay them, adds up the board's points from the named terms and parameters, and
records, part by part, what each rests on (`Grounds`): the rules that decided it (derivation.py),
the mechanics and the parameters that changed it. The clauses cited, the trace and the
explanation are all read from those grounds.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from referee_app.core.errors import BadInput
from referee_app.core.clause_labels import label
from referee_app.i18n import N_, translations
from . import colours, reachable
from .conditions import matches
from .derivation import ASPECT_PARTS, derive
from .engine import CONTINUES, Board, CompiledRuleset, Conflict, Decision, NoRule, relevance
from .explain import explain
from .priority import BORROWED, READING, overridden
from .situation import COINS_PER_SIDE, Situation

if TYPE_CHECKING:
    from referee_app.core.knowledge.root import Knowledge

ASPECT_ORDER = ("board", "queen", "own", "opponent", "penalty", "turn", "break_made")


def ruleset_of(knowledge: Knowledge, doc, ruleset: str | None) -> str:
    """The ruleset a situation is ruled under: the one asked for, else the document's, else the
    knowledge base's default; refused when the two disagree or the ruleset is unknown."""
    chosen = ruleset or (doc.get("ruleset") if isinstance(doc, dict) else None) or knowledge.default_ruleset
    if ruleset and isinstance(doc, dict) and doc.get("ruleset") not in (None, ruleset):
        raise BadInput("ruleset", f"the file says {doc.get('ruleset')!r} but --ruleset says {ruleset!r}")
    if chosen not in knowledge.rulesets:
        raise BadInput("ruleset", f"unknown ruleset {chosen!r} (known: {', '.join(knowledge.rulesets)})")
    return chosen


def rule(knowledge: Knowledge, doc, ruleset: str | None = None, trace: bool = False) -> dict:
    """The ruling for one situation document (parsed YAML/JSON), its colours open or set; with
    `trace`, its derivation. The one way a stroke is ruled: the command line, the match (Game),
    the window's preview and the quiz all come here. Raises BadInput for a situation that cannot
    happen, NoRule or Conflict where the rules give no single ruling (`refusal` words them)."""
    ruleset_id = ruleset_of(knowledge, doc, ruleset)
    if colours.is_open(doc):
        return colours.rule_open(doc, ruleset_id, knowledge.colours(ruleset_id),
                                 lambda side_doc: ruled(knowledge, side_doc, ruleset_id, trace).ruling)
    return ruled(knowledge, colours.without_colours(doc), ruleset_id, trace).ruling


class Ruled(NamedTuple):
    """A stroke ruled, colours set, with what the engine decided on the way (the quiz asks why)."""

    situation: Situation
    facts: dict
    decision: Decision
    ruling: dict


def ruled(knowledge: Knowledge, doc, ruleset_id: str, trace: bool = False) -> Ruled:
    """`rule` for a situation whose colours are set (own and opponent coins), keeping the decision."""
    rs = knowledge.compiled(ruleset_id)
    if isinstance(doc, dict) and "ruleset" in doc:
        doc = {k: v for k, v in doc.items() if k != "ruleset"}
    situation = reachable.situation(rs, doc)   # refused unless a game under the ruleset reaches it
    check_for_ruleset(rs, situation)
    facts = situation.facts()
    decision = rs.decide(facts)
    return Ruled(situation, facts, decision, carry_out(knowledge, rs, situation, facts, decision, trace))


def refusal(exc: NoRule | Conflict) -> BadInput:
    """The rules leaving a situation open, or conflicting on it, as the bad input it is for the
    one who asked: the command line's words, and rule_everywhere's `refused`."""
    if isinstance(exc, NoRule):
        return BadInput("situation", f"the rules leave this case open: no clause decides the {exc.aspect}")
    return BadInput("situation", f"the rules conflict here: {exc}")


def check_for_ruleset(rs: CompiledRuleset, s: Situation) -> None:
    """Refuses what this ruleset says cannot happen (a queen state it does not know, a foul out of place)."""
    if s.queen not in rs.queen_states:
        raise BadInput("before.queen", f"{s.queen} does not occur under {rs.ruleset.id} "
                       f"(known: {', '.join(rs.queen_states)})")
    tests = rs.foul_only_when.get(s.foul, ())
    if tests and not matches(tests, s.facts() | {"foul": s.foul}):
        foul = rs.fouls[s.foul]
        raise BadInput("stroke.foul", f"{s.foul}: {foul.get('only_when_reason', 'not possible in this situation')}")


class Grounds:
    """What each part of a ruling rests on: rules (from the derivation), mechanics, parameters.

    The clauses cited are exactly theirs (never a definition's), the most specific first, then
    those of the notes; a parameter the text is silent on gives a note instead of a clause."""

    def __init__(self, rs: CompiledRuleset):
        self.rs = rs
        self.parts: dict = {}
        self.notes: list = []

    def add(self, part: str, entry: dict) -> None:
        self.parts.setdefault(part, []).append(entry)

    def mechanic(self, part: str, name: str) -> None:
        clause = self.rs.mechanics.get(name)
        if clause:
            self.add(part, {"mechanic": name, "clause": clause})

    def parameter(self, part: str, name: str) -> None:
        entry = {"parameter": name, "value": self.rs.params[name], "clause": self.rs.param_clauses[name]}
        if name in self.rs.assumptions:
            entry["assumption"] = self.rs.assumptions[name]
            note = {"clause": entry["clause"], **self.rs.assumptions[name]}
            if note not in self.notes:
                self.notes.append(note)
        self.add(part, entry)

    def clauses(self, kb) -> list[str]:
        entries = [e for part in self.parts.values() for e in part]
        ordered = (self._rules_clauses(entries)
                   + [e["clause"] for e in entries if "rule" not in e and "assumption" not in e]
                   + [n["clause"] for n in self.notes])
        return [c for c in dict.fromkeys(ordered) if c and kb.clauses[c].kind != "definition"]

    def _rules_clauses(self, entries: list[dict]) -> list[str]:
        """The clauses of the rules (and of those agreeing with them), the exceptions' before the defaults'."""
        rules = [r for e in entries if "rule" in e for r in [e] + e["agreeing"]]
        # a rule shared with another text is cited as each of this ruleset's clauses that say it
        also = {r.id: r.also for r in self.rs.rules if r.also}
        in_order = [e for e in rules if not e["default"]] + [e for e in rules if e["default"]]
        return [c for e in in_order for c in (e["clause"], *also.get(e["rule"], ()))]


def ruling_aspects(d: Decision, over: bool) -> tuple:
    """The aspects a ruling rests on: all of them while the board goes on; once it is over, the
    result and the queen and break that shaped it, and the own coins when they go back (they are
    the loser's coins counted, and `returned.own`); the rest is moot (icf-fr 3.7 d)."""
    if not over:
        return ASPECT_ORDER
    return ("board", "queen", "own", "break_made") if d.values.get("own") == "returned" else \
        ("board", "queen", "break_made")


def cited_aspects(d: Decision, facts: dict, over: bool) -> list[str]:
    """The aspects that decided a part of this ruling: once the board is over, the result and the
    queen and break that shaped it (the rest is moot, icf-fr 3.7 d); a board that goes on cites
    the rule that kept it going only when it is not the base case."""
    out = []
    for aspect in ASPECT_ORDER:
        rules = d.rules.get(aspect)
        if not rules:
            continue
        if aspect == "board":
            keep = over or not rules[0].default
        elif aspect == "penalty":
            keep = not over and (d.values["penalty"] > 0 or not rules[0].default)
        elif over:
            keep = aspect in ruling_aspects(d, True) and relevance(aspect, facts, False)
        else:
            keep = relevance(aspect, facts, False)
        if keep:
            out.append(aspect)
    return out


def carry_out(knowledge: Knowledge, rs: CompiledRuleset, s: Situation, facts: dict, d: Decision,
              trace: bool = False) -> dict:
    board: Board = d.values.get("board", CONTINUES)
    derivation = derive(d, facts)
    aspects = cited_aspects(d, facts, board.over)
    grounds = Grounds(rs)
    for aspect in aspects:
        for part in ASPECT_PARTS[aspect]:
            grounds.add(part, dict(derivation[aspect], aspect=aspect))
    outcome = carried_out(rs, s, d, grounds)
    if s.own_off or s.opponent_off or s.queen_off:
        grounds.mechanic("after.off_board", "off_board")
    kb = knowledge.kb
    ruling = {"ruleset": rs.ruleset.id, **outcome,
              "break_made": bool(d.values.get("break_made", True)) if s.break_ else True,
              "clauses": grounds.clauses(kb), "rules": _deciding_rules(d, board.over)}
    ruling = {k: ruling[k] for k in ("ruleset", "turn", "break_made", "returned", "after", "board", "clauses",
                                     "rules")}
    why, decision = explain(kb, s, ruling, derivation, aspects, lambda f, lang: knowledge.foul_name(rs.ruleset.id, f, lang))
    # the contract's explanation says why, then what; each half on its own for a view or a form
    ruling["explanation"] = {lang: f"{why[lang]} {decision[lang]}".strip() for lang in why}
    ruling["why"], ruling["decision"] = why, decision
    notes = _with_readings(_notes(rs, d, board.over), _reading_notes(kb, rs, d, board.over), rs.borrowed) + grounds.notes
    if notes:
        ruling["notes"] = notes
    if trace:
        ruling["trace"] = grounds.parts
    return ruling


def carried_out(rs: CompiledRuleset, s: Situation, d: Decision, grounds: Grounds | None = None) -> dict:
    """The decision's numbers: the turn, what goes back, the board after the stroke and its result
    (the part of the ruling tests/core/rules/test_ruling_numbers.py holds together)."""
    board: Board = d.values.get("board", CONTINUES)
    grounds = grounds if grounds is not None else Grounds(rs)
    return _board_over(rs, s, d, board, grounds) if board.over else _board_goes_on(rs, s, d, grounds)


def _deciding_rules(d: Decision, over: bool) -> list[str]:
    aspects = ruling_aspects(d, over)
    return list(dict.fromkeys(r.id for a in aspects for r in d.rules.get(a, [])))


def _board_over(rs, s: Situation, d: Decision, board: Board, grounds: Grounds) -> dict:
    v = d.values
    queen_after = v.get("queen", s.queen)
    # the loser's coins are those on the surface once its own pocketed coins that go back are back
    own_returned = s.own_pocketed if v.get("own") == "returned" else 0
    own_left = s.own_on_board - s.own_pocketed + own_returned
    opp_left = s.opponent_on_board - s.opponent_pocketed
    points = board_points(rs, s, board, {"striker": own_left, "opponent": opp_left}, queen_after, grounds)
    if s.dues or s.opponent_dues:
        grounds.parameter("after.dues", "dues_at_board_end")
    # what goes back is said where it goes back: after.own_on_board counts it (the numbers agree,
    # tests/core/rules/test_ruling_numbers.py)
    queen_back = queen_after == "on_board" and (s.queen_pocketed or s.queen == "awaiting_cover")
    return {"turn": "passes",
            "returned": {"own": own_returned, "opponent": 0, "queen": queen_back},
            "after": {"own_on_board": own_left, "opponent_on_board": opp_left, "queen": queen_after,
                      "dues": 0, "opponent_dues": 0},
            "board": {"over": True, "winner": board.winner, "points": points}}


def _board_goes_on(rs, s: Situation, d: Decision, grounds: Grounds) -> dict:
    v = d.values
    queen_after = v.get("queen", s.queen)
    own_returned = s.own_pocketed if v.get("own") == "returned" else 0
    own_after = s.own_on_board - s.own_pocketed + own_returned
    owed = s.dues + v.get("penalty", 0)
    paid = min(owed, COINS_PER_SIDE - own_after)   # a due is paid as soon as a pocketed coin is there
    own_after += paid
    opp_returned = s.opponent_pocketed if v.get("opponent") == "returned" else 0
    opp_left = s.opponent_on_board - s.opponent_pocketed + opp_returned
    opp_paid = min(s.opponent_dues, COINS_PER_SIDE - opp_left)
    if paid:
        grounds.mechanic("returned.own", "dues_paid" if "dues_paid" in rs.mechanics else "dues")
    if owed - paid:
        grounds.mechanic("after.dues", "dues")
    if opp_paid:
        grounds.mechanic("returned.opponent", "dues")
    queen_back = queen_after == "on_board" and (s.queen_pocketed or s.queen == "awaiting_cover")
    return {"turn": v.get("turn", "passes"),
            "returned": {"own": own_returned + paid, "opponent": opp_returned + opp_paid, "queen": queen_back},
            "after": {"own_on_board": own_after, "opponent_on_board": opp_left + opp_paid, "queen": queen_after,
                      "dues": owed - paid, "opponent_dues": s.opponent_dues - opp_paid},
            "board": {"over": False, "winner": None, "points": {"striker": 0, "opponent": 0}}}


# --- a board's points --------------------------------------------------------------------------

def _queen_term(rs, term, side, s: Situation, queen_after: str, grounds: Grounds) -> int:
    if term == "queen_if_held" and queen_after != f"covered_by_{side}":
        return 0
    base = "special_value" if term == "special" else "queen_value"
    score = s.score_striker if side == "striker" else s.score_opponent
    cutoff = rs.params.get("queen_cutoff")   # absent or null: the queen keeps its worth (carom-bi 6.1)
    if cutoff is not None and score >= cutoff:
        grounds.parameter("board.points", "queen_cutoff")
        base += "_past_cutoff"
    if rs.params[base]:
        grounds.parameter("board.points", base)
    return rs.params[base]


def _term_value(rs, term, side, s: Situation, coins_left: dict, queen_after: str, grounds: Grounds) -> int:
    if isinstance(term, tuple):  # ("fixed", N): a number the text prints
        return term[1]
    if term in ("loser_coins", "pocketed_coins"):
        n = coins_left["opponent" if side == "striker" else "striker"] if term == "loser_coins" \
            else COINS_PER_SIDE - coins_left[side]
        if n:
            grounds.mechanic("board.points", term)
        return n
    if term == "penalty_coin":
        grounds.parameter("board.points", "penalty_coin_points")
        return rs.params["penalty_coin_points"]
    return _queen_term(rs, term, side, s, queen_after, grounds)


def board_points(rs: CompiledRuleset, s: Situation, board: Board, coins_left: dict, queen_after: str,
                 grounds: Grounds) -> dict:
    winner = board.winner
    loser = "opponent" if winner == "striker" else "striker"
    pts = {side: sum(_term_value(rs, t, side, s, coins_left, queen_after, grounds) for t in terms)
           for side, terms in ((winner, board.winner_terms), (loser, board.loser_terms))}
    cap = rs.params.get("board_cap")  # absent: no cap (parameters.yaml)
    if cap is not None and pts[winner] > cap:
        pts[winner] = cap
        grounds.parameter("board.points", "board_cap")
    return {"striker": pts["striker"], "opponent": pts["opponent"]}


# Where a ruleset's own clauses contradict each other on a stroke and a clause it borrows settles it.
BORROWED_NOTE = N_("This ruleset's own text gives no single ruling here ({over} and its other clauses "
                   "disagree); {rule}, from the text it borrows from where its own is silent, settles it.")


def _reading_notes(kb, rs: CompiledRuleset, d: Decision, over: bool) -> list[dict]:
    """A note for each rule that decided against another applicable clause of the ruleset on the
    project's reading (its `priority.reading`), naming the clauses it weighs (`weighs`)."""
    aspects = ruling_aspects(d, over)
    weighed: dict = {}
    for o in overridden(rs, d, aspects):
        if o.ground in (READING, BORROWED):
            entry = weighed.setdefault(o.winner.id, (o.winner, []))
            for c in (o.loser.clause, *o.loser.also):
                if c not in entry[1] and c != o.winner.clause:
                    entry[1].append(c)
    notes = []
    for winner, losers in weighed.values():
        borrowed = rs.is_borrowed(winner)
        reading = None if borrowed else (winner.priority or {}).get("reading")
        if reading == "note":
            text = dict(winner.note or {})
        elif borrowed:
            text = {lang: translations(lang).gettext(BORROWED_NOTE).format(
                        rule=label(winner.clause, lang, kb),
                        over=", ".join(label(c, lang, kb) for c in losers)) for lang in ("en", "fr", "it")}
        else:
            text = dict(reading or {})
        notes.append({"clause": winner.clause, **{k: text[k] for k in ("en", "fr", "it")},
                      "reading": True, "weighs": [winner.clause, *losers], **({"borrowed": True} if borrowed else {})})
    return notes


def _with_readings(notes: list[dict], readings: list[dict], borrowed: dict) -> list[dict]:
    """The rules' notes, a reading that is a rule's own note marked on it rather than said twice;
    where a borrowed clause settles what the own text leaves at odds, its borrowing note (the own
    text "says nothing") gives way to the note saying so."""
    settled = {r["clause"] for r in readings if r.get("borrowed")}
    out = [dict(n) for n in notes
           if not (n["clause"] in settled and n["en"] == (borrowed.get(n["clause"]) or {}).get("en"))]
    for reading in readings:
        same = next((n for n in out if n["en"] == reading["en"]), None)
        if same is None:
            out.append(reading)
        else:
            same.update(reading=True, weighs=reading["weighs"])
    return out


def _notes(rs: CompiledRuleset, d: Decision, over: bool) -> list[dict]:
    aspects = ruling_aspects(d, over)
    notes, seen = [], set()
    for r in (r for a in aspects for r in d.rules.get(a, [])):
        # a rule's own note speaks in the paragraphs of the text it stands under (`home`)
        for key, clause, note in ((r.id, r.home or r.clause, r.note), (r.clause, r.clause, rs.borrowed.get(r.clause)),
                                  ("shared " + r.id, r.clause, rs.borrowed.get(r.id))):
            if note and key not in seen:
                seen.add(key)
                notes.append({"clause": clause, **note})
    return notes
