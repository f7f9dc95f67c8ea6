"""A question as the learner reads it, in the language asked for: the stroke, the choices, the
key, and after the answer why (the rules that decided and those they set aside) with each
clause's text from the knowledge base in that language."""
from __future__ import annotations

from typing import TYPE_CHECKING

from referee_app.core.clause_labels import label
from .questions import Question
from .wording import Words, describe_outcome, describe_situation, queen_state

if TYPE_CHECKING:
    from referee_app.core.knowledge.root import Knowledge


def clause_entry(knowledge: Knowledge, clause_id: str, lang: str) -> dict:
    clause = knowledge.kb.clauses.get(clause_id)
    if clause is None:
        return {"id": clause_id, "paragraph": clause_id, "cited": clause_id, "title": "", "text": "", "official": False}
    text, official = clause.text_in(lang)
    return {"id": clause.id, "paragraph": clause.paragraph, "source": clause.source, "cited": label(clause.id, lang, knowledge.kb),
            "title": clause.title_in(lang), "text": text, "official": official,
            "lang": lang if not official else clause.lang}


def aspect_words(w: Words, aspect: str) -> str:
    return {"board": w._("the board"), "queen": w._("the queen"), "own": w._("the striking side's coins pocketed"),
            "opponent": w._("the opponent's coins pocketed"), "penalty": w._("the penalty"),
            "turn": w._("the turn"), "break_made": w._("the break")}[aspect]


def value_words(w: Words, aspect: str, value) -> str:
    if aspect == "board":  # as the engine's derivation writes it: "continues", or {winner, …}
        if value == "continues":
            return w._("the board goes on")
        return w._("won by the striking side") if value["winner"] == "striker" else w._("won by the opponent")
    if aspect == "queen":
        return queen_state(w, value)
    if aspect == "penalty":
        return w.ngettext("{n} penalty coin", "{n} penalty coins", value).format(n=value)
    if aspect == "break_made":
        return w._("the break is made") if value else w._("the break is not made")
    return {"continues": w._("the striking side plays again"), "passes": w._("the turn passes"),
            "stays": w._("they stay in the pockets"), "returned": w._("they go back to the centre")}[value]


def derivation_lines(knowledge: Knowledge, w: Words, q: Question) -> list[str]:
    """The engine's derivation, aspect by aspect, as sentences: "ICF 3.12 c decides the turn: …
    It is an exception to ICF 3.6 a, which would give: …", clauses cited as readers of the
    language cite them."""
    lines = []
    for step in q.derivation:
        line = w._("{clauses} decides {aspect}: {value}.").format(
            clauses=label(step["clause"], w.lang, knowledge.kb), aspect=aspect_words(w, step["aspect"]),
            value=value_words(w, step["aspect"], step["value"]))
        for o in step["overridden"]:
            template = (w._("It is an exception to {clause}, which would give: {value}.") if o["how"] == "exception"
                        else w._("It stands out from the general rule {clause}, which would give: {value}."))
            line += " " + template.format(clause=label(o["clause"], w.lang, knowledge.kb),
                                          value=value_words(w, step["aspect"], o["value"]))
        lines.append(line)
    return lines


def render(knowledge: Knowledge, q: Question, lang: str) -> dict:
    """The question as JSON for the command line, the window and the exam paper."""
    w = Words(lang)
    stroke = q.situation["stroke"]
    queen_before = (q.situation.get("before") or {}).get("queen", "on_board")
    queen_pocketed = bool((stroke.get("pocketed") or {}).get("queen"))
    return {
        "id": q.id,
        "ruleset": q.ruleset,
        "origin": q.origin,
        "situation": q.situation,
        "prompt": describe_situation(w, q.situation, lambda foul, lang: knowledge.foul_name(q.ruleset, foul, lang)),
        "question": w._("What happens?"),
        "choices": [{"text": describe_outcome(w, c.outcome, queen_before, queen_pocketed), "outcome": c.outcome,
                     "source": c.source} for c in q.choices],
        "answer": q.answer,
        "answer_key": q.key,
        "deciding_clause": q.deciding_clause,
        "clauses": [clause_entry(knowledge, c, lang) for c in q.clauses],
        "derivation": q.derivation,
        "why": q.ruling["why"][lang],          # the engine's: which clause applied, and not which
        "decision": q.ruling["decision"][lang],
        "steps": derivation_lines(knowledge, w, q),
        "explanation": q.ruling["explanation"][lang],
        "notes": [n.get(lang) or n.get("en", "") for n in q.ruling.get("notes", [])],
        "tags": sorted(q.tags),
    }
