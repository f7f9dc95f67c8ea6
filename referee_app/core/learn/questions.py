"""Questions generated from the engine: the answer key is the ruling, right by construction.

A question shows a stroke and asks what happens: the turn, what goes back, the queen, the
winner and the points. The key is the engine's ruling under the chosen ruleset. The wrong
choices are the rulings a learner really confuses: the same stroke under another ruleset, and
what a rule the deciding exception overrides would have given. Only where those give fewer
than three different outcomes does a choice change one aspect of the key to a value no rule
gave here (a "variant"). Duplicates are removed, so no two choices say the same.
"""
from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from referee_app.core.errors import BadInput
from referee_app.core.rules.compare import rule_everywhere
from referee_app.core.rules.derivation import derive
from referee_app.core.rules.engine import ASPECTS, Board, Conflict, Decision, NoRule
from referee_app.core.rules.ruling import carry_out, cited_aspects, ruled
from referee_app.core.rules.situation import Situation
from .pool import draw_space, examples, space_size
from .wording import outcome

if TYPE_CHECKING:
    from referee_app.core.knowledge.root import Knowledge

MAX_CHOICES = 4
# How much likelier a situation is drawn: the clauses' own examples, strokes where an exception
# overrides a more general rule, and strokes that end the board are what referees get wrong.
WEIGHT_EXAMPLE, WEIGHT_EXCEPTION, WEIGHT_ENDING = 3.0, 4.0, 3.0


def _canon(obj) -> str:
    return json.dumps(obj, sort_keys=True, ensure_ascii=False)


@dataclass
class Ruled:
    """One stroke ruled under one ruleset, with what the engine decided on the way."""

    ruleset: str
    doc: dict
    situation: Situation
    facts: dict
    decision: Decision
    ruling: dict


def rule_doc(knowledge: Knowledge, doc: dict, ruleset: str) -> Ruled:
    """Rules a situation document as `rule()` does (it is its way, ruling.ruled), keeping the
    decision (raises BadInput)."""
    doc = {k: v for k, v in doc.items() if k != "ruleset"}
    try:
        r = ruled(knowledge, doc, ruleset)
    except (NoRule, Conflict) as exc:
        raise BadInput("situation", f"the rules of {ruleset} give no single ruling here: {exc}") from None
    return Ruled(ruleset, {"ruleset": ruleset, **doc}, r.situation, r.facts, r.decision, r.ruling)


@dataclass
class Choice:
    outcome: dict
    source: dict          # {"kind": "key" | "ruleset" | "overridden" | "variant", ...}


@dataclass
class Question:
    id: str
    ruleset: str
    situation: dict       # the contract's situation document
    origin: str           # "example" (a clause's worked example) or "space" (the verifier's)
    ruling: dict          # the engine's ruling: the answer key
    choices: list[Choice]
    answer: int           # index of the key among the choices
    derivation: list[dict]  # the engine's, for the aspects the ruling rests on
    tags: set = field(default_factory=set)  # exception, board_ending, rulesets_differ

    @property
    def key(self) -> dict:
        return self.choices[self.answer].outcome

    @property
    def clauses(self) -> list[str]:
        return list(self.ruling["clauses"])

    @property
    def deciding_clause(self) -> str:
        return self.ruling["clauses"][0]


def derivation(r: Ruled) -> list[dict]:
    """How the ruling was reached, from the engine's own derivation (core/rules/derivation.py):
    for each aspect the ruling rests on, the rule and clause that decided, the facts it tested,
    and the rules that also applied but were set aside (an exception's general rule, or a base
    case giving way), with what each would have given."""
    steps = derive(r.decision, r.facts)
    over = r.decision.values.get("board", Board(False)).over
    return [dict(steps[aspect], aspect=aspect) for aspect in cited_aspects(r.decision, r.facts, over)]


def _alternative(knowledge: Knowledge, rs, r: Ruled, aspect: str, value) -> dict | None:
    values = dict(r.decision.values, **{aspect: value})
    try:
        return carry_out(knowledge, rs, r.situation, r.facts, Decision(values, dict(r.decision.rules)))
    except (ValueError, KeyError):
        return None


class _Distinct:
    """Outcomes already offered, so that no two choices say the same."""

    def __init__(self, key: dict):
        self.seen = {_canon(key)}

    def add(self, candidate: dict | None, source: dict, into: list) -> None:
        if candidate is None:
            return
        c = _canon(candidate)
        if c not in self.seen:
            self.seen.add(c)
            into.append(Choice(candidate, source))


def _choices(knowledge: Knowledge, r: Ruled, rng: random.Random) -> tuple[list[Choice], set[str]] | None:
    rs = knowledge.compiled(r.ruleset)
    key = outcome(r.ruling)
    distinct = _Distinct(key)
    tags: set[str] = set()
    found: list[Choice] = []
    _other_rulesets(knowledge, r, key, distinct, found, tags)
    _overridden(knowledge, r, rs, distinct, found, tags)
    rng.shuffle(found)
    found = found[:MAX_CHOICES - 1]
    if len(found) < MAX_CHOICES - 1:
        if key["over"]:
            distinct.add(_mirrored(key), {"kind": "variant", "aspect": "board"}, found)
        else:
            found += _variants(knowledge, r, rs, distinct, rng)[:MAX_CHOICES - 1 - len(found)]
    if not found:
        return None
    return [Choice(key, {"kind": "key"})] + found, tags


def _other_rulesets(knowledge: Knowledge, r: Ruled, key: dict, distinct: _Distinct, found: list, tags: set) -> None:
    """The same stroke under each other ruleset where it can happen (where one refuses it, a
    foul it does not know, a queen state, it offers nothing)."""
    others = [rid for rid in knowledge.rulesets if rid != r.ruleset]
    for theirs in rule_everywhere(knowledge, r.doc, others):
        if "refused" in theirs:
            continue
        if _canon(outcome(theirs)) != _canon(key):
            tags.add("rulesets_differ")
        distinct.add(outcome(theirs), {"kind": "ruleset", "ruleset": theirs["ruleset"],
                                       "clauses": theirs["clauses"][:1]}, found)


def _overridden(knowledge: Knowledge, r: Ruled, rs, distinct: _Distinct, found: list, tags: set) -> None:
    """What each rule set aside (by an exception, or as a base case giving way) would have given."""
    rules = {rule.id: rule for rule in rs.rules}
    for step in derivation(r):
        for aside in step["overridden"]:
            if aside["how"] == "exception":
                tags.add("exception")
            alt = _alternative(knowledge, rs, r, step["aspect"], rules[aside["rule"]].then[step["aspect"]])
            distinct.add(alt and outcome(alt), {"kind": "overridden", "rule": aside["rule"], "clause": aside["clause"],
                                                "how": aside["how"], "by": aside["by"]}, found)


def _mirrored(key: dict) -> dict:
    """Who won is what learners get wrong about a board's end: the same points to the other side."""
    other = "opponent" if key["winner"] == "striker" else "striker"
    return {"over": True, "winner": other,
            "points": {"striker": key["points"]["opponent"], "opponent": key["points"]["striker"]}}


def _variants(knowledge: Knowledge, r: Ruled, rs, distinct: _Distinct, rng: random.Random) -> list[Choice]:
    """The key with one aspect given a value no rule gave here, in a random order."""
    variants: list[Choice] = []
    for aspect in ("turn", "own", "opponent", "queen"):
        if aspect not in r.decision.values or not isinstance(ASPECTS[aspect], tuple):
            continue
        for value in ASPECTS[aspect]:
            if value != r.decision.values[aspect]:
                alt = _alternative(knowledge, rs, r, aspect, value)
                distinct.add(alt and outcome(alt), {"kind": "variant", "aspect": aspect}, variants)
    rng.shuffle(variants)
    return variants


def question_id(ruleset: str, doc: dict) -> str:
    body = {k: v for k, v in doc.items() if k != "ruleset"}
    return hashlib.sha1(_canon([ruleset, body]).encode()).hexdigest()[:12]


def make_question(knowledge: Knowledge, doc: dict, ruleset: str, rng: random.Random,
                  origin: str = "space") -> Question | None:
    """The question for one stroke, or None where it makes no question (the rules cite no
    clause, or no other outcome is there to choose from). Raises BadInput for a bad stroke."""
    r = rule_doc(knowledge, doc, ruleset)
    if not r.ruling["clauses"]:
        return None
    built = _choices(knowledge, r, rng)
    if built is None:
        return None
    choices, tags = built
    order = list(range(len(choices)))
    rng.shuffle(order)
    if r.ruling["board"]["over"]:
        tags.add("board_ending")
    return Question(question_id(ruleset, r.doc), ruleset, r.doc, origin, r.ruling,
                    [choices[i] for i in order], order.index(0), derivation(r), tags)


@dataclass
class Scope:
    """What to practise: a ruleset, and optionally a chapter, a clause, only the strokes on which
    rulesets differ, or only those that end the board."""

    ruleset: str | None = None   # None: the knowledge base's default, once checked
    chapter: str | None = None
    clause: str | None = None
    differ: bool = False
    endings: bool = False

    def check(self, knowledge: Knowledge) -> str:
        """Refuses a scope the knowledge base cannot draw from; returns its ruleset (the default
        one when the scope names none), which the scope keeps."""
        ruleset = self.ruleset = knowledge.ruleset(self.ruleset or knowledge.default_ruleset, "ruleset").id
        kb = knowledge.kb
        if self.clause and self.clause not in kb.clauses:
            raise BadInput("clause", f"no clause {self.clause}")
        if self.chapter and not any(_in_chapter(c, self.chapter) for c in kb.clauses.values()):
            raise BadInput("chapter", f"no chapter {self.chapter} (see `carrom-referee quiz chapters`)")
        return ruleset

    def admits(self, knowledge: Knowledge, q: Question) -> bool:
        if self.differ and "rulesets_differ" not in q.tags:
            return False
        if self.endings and "board_ending" not in q.tags:
            return False
        deciding = {step["clause"] for step in q.derivation} | set(q.clauses)
        if self.clause and self.clause not in deciding:
            return False
        kb = knowledge.kb
        if self.chapter and not any(_in_chapter(kb.clauses[c], self.chapter) for c in deciding if c in kb.clauses):
            return False
        return True


def chapter_of(clause) -> str:
    """A chapter is a file of the knowledge base: `icf-fr/03.12-reine`, `it/14-N-regina`."""
    return clause.file.removesuffix(".yaml")


def _in_chapter(clause, chapter: str) -> bool:
    return (chapter_of(clause) == chapter or clause.id == chapter or clause.id.startswith(chapter + ".")
            or clause.id.startswith(chapter + "/"))


def chapters(knowledge: Knowledge, ruleset: str, lang: str) -> list[dict]:
    """The chapters holding rules the ruleset applies, in reading order, titled in `lang`; each
    `label` is its title, followed by its text's short name when another chapter has the same title."""
    rs = knowledge.compiled(knowledge.ruleset(ruleset).id)
    kb = knowledge.kb
    deciding = {r.clause for r in rs.rules}
    out: dict[str, tuple[str, str]] = {}
    for clause in kb.clauses.values():
        if clause.id in deciding:
            out.setdefault(chapter_of(clause), (clause.title_in(lang), clause.source))
    # two texts with a chapter of one title ("The queen" of the ICF and of the Italian rules)
    # would read as one chapter listed twice: each then says whose it is
    titles = Counter(title for title, _source in out.values())

    def titled(title: str, source: str) -> str:
        if titles[title] < 2:
            return title
        src = kb.sources.get(source)
        return f"{title} ({src.short if src is not None else source})"

    return [{"id": k, "title": v[0], "label": titled(*v)} for k, v in out.items()]


def plausibility(doc: dict, ending: bool = False) -> float:
    """From 1 down: how usual a stroke is. The verifier's space holds every combination the rules
    tell apart (eight coins and the striker pocketed on a foul break); a learner should mostly meet
    the strokes a referee meets, so each extra event in one stroke, and each coin past two
    pocketed at once, makes it rarer (but for the last coins of a board: they often go together)."""
    before, stroke = doc.get("before") or {}, doc["stroke"]
    pocketed, off = stroke.get("pocketed") or {}, stroke.get("off_board") or {}
    events = sum(1 for v in list(pocketed.values()) + list(off.values()) if v)
    events += bool(stroke.get("foul")) + (stroke.get("touched_coin") is False)
    events += bool(before.get("dues")) + bool(before.get("opponent_dues")) + ("own_pocketed_earlier" in before)
    crowd = 0 if ending else max(0, pocketed.get("own", 0) - 2) + max(0, pocketed.get("opponent", 0) - 2)
    return 1.0 / (1 + max(0, events - 2)) / (1 + crowd / 2)


def generate(knowledge: Knowledge, scope: Scope, count: int, seed: int = 0, pool: int | None = None) -> list[Question]:
    """`count` different questions within `scope`, the same for the same seed; fewer only when
    the scope holds fewer. `pool`: how many situations of the space to consider (default: enough)."""
    if count < 1:
        raise BadInput("count", f"{count}: ask for at least one question")
    ruleset = scope.check(knowledge)
    rng = random.Random(seed)
    narrow = scope.clause or scope.chapter or scope.differ or scope.endings
    size = pool or min(space_size(knowledge, ruleset), max(400, (30 if narrow else 4) * count))
    candidates = [(doc, "example") for _clause, doc in examples(knowledge, ruleset)]
    candidates += [(doc, "space") for doc in draw_space(knowledge, ruleset, size, rng)]
    keyed, seen = [], set()
    for doc, origin in candidates:
        qid = question_id(ruleset, doc)
        if qid in seen:
            continue
        seen.add(qid)
        try:
            q = make_question(knowledge, doc, ruleset, rng, origin)
        except BadInput:
            continue  # an example written for a ruleset this one extends, refused here
        if q is None or not scope.admits(knowledge, q):
            continue
        weight = ((WEIGHT_EXAMPLE if origin == "example" else 1.0) * plausibility(q.situation, "board_ending" in q.tags)
                  * (WEIGHT_EXCEPTION if "exception" in q.tags else 1.0)
                  * (WEIGHT_ENDING if "board_ending" in q.tags else 1.0))
        # Efraimidis and Spirakis: a weighted draw without replacement, by sorting on u^(1/w)
        keyed.append((rng.random() ** (1.0 / weight), q))
    keyed.sort(key=lambda kq: kq[0], reverse=True)
    return [q for _k, q in keyed[:count]]
