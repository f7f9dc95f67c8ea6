"""Compiling a ruleset: its file and those it extends (parameters, fouls, mechanics, borrowed,
disabled and shared clauses) and the `decides` entries of its clauses, checked and made into the
rules the engine (engine.py) decides with. A broken rule is a problem named by its file and line.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from referee_app.core.errors import KnowledgeError
from referee_app.core.knowledge.loader import entry_line
from referee_app.core.knowledge.model import KnowledgeBase, Problem, Ruleset
from .conditions import ConditionError, compile_when
from .engine import ASPECTS, BETWEEN_STROKES, CONTINUES, Board, CompiledRuleset, Rule, foul_timing
from .parameters import check_entry, load_schema, missing
from .situation import QUEEN_STATES

POINT_TERMS = ("loser_coins", "pocketed_coins", "queen", "queen_if_held", "special", "penalty_coin")
SIDES = ("striker", "opponent")
RULE_KEYS = {"name", "when", "then", "exception_to", "priority", "default", "note", "never_decisive"}
LANGS = ("en", "fr", "it")


def _compile_priority(raw, where: str) -> dict | None:
    """A rule's `priority`: why it wins over the rules it is an exception to, where both apply and
    disagree. `stated`: the words of the text that say so (quoted); `reading`: the project's
    reading, with its own reason: a note in fr, it, en, or `note` (the rule's own note says it);
    `reading.over` narrows the reading to some targets, the others being stated. A reading with no
    reason of its own (the former `generic`, "the text does not say which prevails") is refused:
    it tells a federation reviewing the readings, and the referee shown it, nothing of why."""
    if raw is None:
        return None
    if not isinstance(raw, dict) or not set(raw) <= {"stated", "reading"} or not raw:
        raise ConditionError(f"{where}: priority takes `stated` (the text's words) and/or `reading`")
    stated = raw.get("stated")
    if stated is not None and (not isinstance(stated, str) or not stated.strip()):
        raise ConditionError(f"{where}: priority.stated quotes the words of the text that state it")
    reading = raw.get("reading")
    over: tuple = ()
    no_reason = (f"{where}: a reading says why the project rules so: its note in {', '.join(LANGS)} "
                 "(which clause prevails over which, and why), or `note` (the rule's own note says it)")
    if isinstance(reading, dict):
        over = tuple(str(x) for x in _as_list(reading.get("over")))
        kind = reading.get("as") or ("own" if set(reading) & set(LANGS) else None)
        if kind is None or kind == "generic":
            raise ConditionError(no_reason)
        if kind == "own" and not all(isinstance(reading.get(k), str) and reading[k].strip() for k in LANGS):
            raise ConditionError(f"{where}: a reading's note is written in {', '.join(LANGS)}")
        if kind not in ("own", "note"):
            raise ConditionError(f"{where}: priority.reading.as is note, not {kind!r}")
        reading = {k: reading[k] for k in LANGS} if kind == "own" else kind
    elif reading == "generic":
        raise ConditionError(no_reason)
    elif reading not in (None, "note"):
        raise ConditionError(f"{where}: priority.reading is `note` or a note in {', '.join(LANGS)}")
    if stated is not None and reading is not None and not over:
        raise ConditionError(f"{where}: a priority both stated and read says which targets are read (reading.over)")
    if stated is None and reading is None:
        raise ConditionError(f"{where}: priority says `stated` or `reading`")
    return {"stated": stated, "reading": reading, "over": over}


def _point_terms(spec, where):
    terms = []
    for term in spec or []:
        if isinstance(term, dict) and set(term) == {"fixed"} and isinstance(term["fixed"], int):
            terms.append(("fixed", term["fixed"]))
        elif term in POINT_TERMS:
            terms.append(term)
        else:
            raise ConditionError(f"{where}: unknown point term {term!r} (known: {', '.join(POINT_TERMS)}, {{fixed: N}})")
    return tuple(terms)


def _compile_then(then, where) -> dict:
    if not isinstance(then, dict) or not then:
        raise ConditionError(f"{where}: `then` must decide at least one aspect")
    out = {}
    for aspect, value in then.items():
        kind = ASPECTS.get(aspect)
        if kind is None:
            raise ConditionError(f"{where}: unknown aspect '{aspect}' (known: {', '.join(ASPECTS)})")
        if kind == "int":
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ConditionError(f"{where}: {aspect} takes a whole number, not {value!r}")
        elif kind == "board":
            if value == "continues":
                value = CONTINUES
            elif isinstance(value, dict) and value.get("winner") in SIDES and set(value) <= {"winner", "points"}:
                points = value.get("points") or []
                if isinstance(points, dict):
                    if set(points) - {"winner", "loser"}:
                        raise ConditionError(f"{where}: board.points takes winner and loser")
                    value = Board(True, value["winner"], _point_terms(points.get("winner"), where),
                                  _point_terms(points.get("loser"), where))
                else:
                    value = Board(True, value["winner"], _point_terms(points, where))
            else:
                raise ConditionError(f"{where}: board takes `continues` or {{winner: striker|opponent, points: [...]}}")
        elif value not in kind:
            raise ConditionError(f"{where}: {aspect} takes one of {', '.join(map(str, kind))}, not {value!r}")
        out[aspect] = value
    return out


@dataclass(eq=False, repr=False)   # compared and printed by nobody: docs/architecture.md, Start-up
class _Settings:
    """What a ruleset file and those it extends say besides the rules: the extended ruleset's,
    replaced by this one's."""

    params: dict = field(default_factory=dict)
    param_clauses: dict = field(default_factory=dict)
    fouls: dict = field(default_factory=dict)
    mechanics: dict = field(default_factory=dict)
    borrowed: dict = field(default_factory=dict)
    disabled: set = field(default_factory=set)
    overridden_by: dict = field(default_factory=dict)  # a clause -> the borrowed clauses its rules override
    borrow_exceptions: dict = field(default_factory=dict)  # a borrowed clause -> the own ones its entry overrides
    never_decisive: dict = field(default_factory=dict)
    assumptions: dict = field(default_factory=dict)   # parameter -> its reason (fr/it/en) where the text is silent
    allow_empty: bool | dict = False    # True, or the one position where the opponent may have none left
    shared: dict = field(default_factory=dict)        # a clause or rule id -> the clauses that cite its rules
    shared_notes: dict = field(default_factory=dict)  # a clause or rule id -> the note shown with its rulings
    root: str = ""   # the knowledge folder, where a broken rule's line is looked up


def _chain(rulesets: dict[str, Ruleset], rs: Ruleset | None) -> list[Ruleset]:
    """The ruleset and those it extends, the most general first."""
    chain = []
    while rs is not None:
        chain.append(rs)
        rs = rulesets.get(rs.extends) if rs.extends else None
    return chain[::-1]


def _read_parameters(kb, r: Ruleset, out: _Settings, problems: list) -> None:
    schema = parameter_schema(kb.root, problems)
    for name, spec in (r.raw.get("parameters") or {}).items():
        found = check_entry(schema, name, spec, kb.clauses, f"rulesets/{r.id}.yaml")
        problems += found
        if found:
            continue
        out.params[name], out.param_clauses[name] = spec["value"], spec.get("clause")
        if spec.get("assumption"):
            out.assumptions[name] = dict(spec["assumption"])
        else:
            out.assumptions.pop(name, None)


def parameter_schema(root, problems: list) -> dict:
    schema, schema_problems = load_schema(str(root))
    for p in schema_problems:
        if p not in problems:
            problems.append(p)
    return schema


# The parameters a point term reads (ruling.board_points): a rule naming the term needs them.
TERM_PARAMETERS = {"penalty_coin": ("penalty_coin_points",), "queen": ("queen_value",),
                   "queen_if_held": ("queen_value",), "special": ("special_value",)}


def _terms_without_parameters(rules: list, params: dict, where: str) -> list[Problem]:
    out = []
    for r in rules:
        board = r.then.get("board")
        for term in (board.winner_terms + board.loser_terms) if isinstance(board, Board) else ():
            for name in TERM_PARAMETERS.get(term, ()) if isinstance(term, str) else ():
                if name not in params:
                    out.append(Problem(where, 1, f"{r.id} counts {term}, but the ruleset sets no {name}"))
    return out


def _read_fouls_and_mechanics(kb, r: Ruleset, out: _Settings, problems: list) -> None:
    for foul in r.raw.get("fouls") or []:
        out.fouls[foul["id"]] = foul
        for c in foul.get("clauses", []):
            if c not in kb.clauses:
                problems.append(Problem(f"rulesets/{r.id}.yaml", getattr(foul, "line", 1),
                                        f"foul {foul['id']}: clause {c} points nowhere"))
    for name, clause in (r.raw.get("mechanics") or {}).items():
        if clause not in kb.clauses:
            problems.append(Problem(f"rulesets/{r.id}.yaml", 1, f"mechanic {name}: clause {clause} points nowhere"))
        out.mechanics[name] = clause


def _read_borrows(r: Ruleset, out: _Settings) -> None:
    for entry in r.raw.get("borrows") or []:
        out.borrowed[entry["clause"]] = entry.get("note")
        for own in entry.get("overridden_by") or []:
            out.overridden_by.setdefault(own, []).append(entry["clause"])
        # what the borrowed clause overrides in this ruleset's own text
        out.overridden_by.setdefault(entry["clause"], []).extend(entry.get("exception_to") or [])
        out.borrow_exceptions[entry["clause"]] = tuple(entry.get("exception_to") or ())
    for entry in r.raw.get("disables") or []:
        out.disabled.add(entry["clause"])


def _read_shares(kb, r: Ruleset, out: _Settings, problems: list) -> None:
    """Where this ruleset's text says what a clause of the one it extends says: those rules, cited as its own."""
    for entry in r.raw.get("shares") or []:
        cite = tuple(_as_list(entry.get("as")))
        target = str(entry.get("rules", ""))
        if not cite or target.split("/")[0] not in kb.clauses or any(c not in kb.clauses for c in cite):
            problems.append(Problem(f"rulesets/{r.id}.yaml", getattr(entry, "line", 1),
                                    f"shares: {target or '?'} as {list(cite)}: a clause or rule and "
                                    "the clauses that cite it, all in the rulebook"))
            continue
        out.shared[target] = cite
        if entry.get("note"):
            out.shared_notes[target] = entry["note"]


def _settings(kb, chain: list[Ruleset], problems: list) -> _Settings:
    out = _Settings(root=kb.root)
    for r in chain:
        _read_parameters(kb, r, out, problems)
        _read_fouls_and_mechanics(kb, r, out, problems)
        _read_borrows(r, out)
        _read_shares(kb, r, out, problems)
        out.never_decisive.update(r.raw.get("never_decisive") or {})
        if "allow_empty_side" in r.raw:
            value = r.raw["allow_empty_side"]
            out.allow_empty = dict(value) if isinstance(value, dict) else bool(value)
    # a foul whose every clause this ruleset disables cannot be called under it
    out.fouls = {fid: f for fid, f in out.fouls.items()
                 if not f.get("clauses") or not all(c in out.disabled for c in f["clauses"])}
    return out


def _compile_rule(clause, raw, n: int, index: int, st: _Settings, problems: list) -> Rule | None:
    if not isinstance(raw, dict):
        problems.append(Problem(clause.file, clause.line, f"{clause.id}: a decides entry must be a mapping"))
        return None
    unknown = set(raw) - RULE_KEYS
    if unknown:
        problems.append(Problem(clause.file, entry_line(st.root, clause, "decides", n),
                                f"{clause.id}: unknown rule field(s) {', '.join(sorted(unknown))}"))
    try:
        tests = compile_when(raw.get("when"), st.params, clause.id, set(st.fouls))
        then = _compile_then(raw.get("then"), clause.id)
        priority = _compile_priority(raw.get("priority"), clause.id)
        if priority and priority["reading"] == "note" and not raw.get("note"):
            raise ConditionError(f"{clause.id}: priority.reading: note, but the rule has no note")
        if (raw.get("exception_to") or clause.exception_to) and priority is None:
            # an exception is a choice between two clauses: the text's words, or the project's reading
            raise ConditionError(f"{clause.id}/{raw.get('name') or n}: exception_to needs a priority "
                                 "(`stated`: the text's words; or `reading`)")
    except ConditionError as exc:
        problems.append(Problem(clause.file, entry_line(st.root, clause, "decides", n), str(exc)))
        return None
    exceptions = (tuple(str(x) for x in _as_list(raw.get("exception_to"))) + tuple(clause.exception_to)
                  + tuple(st.overridden_by.get(clause.id, ())))
    rid = f"{clause.id}/{raw.get('name') or n}"
    cite = st.shared.get(rid) or st.shared.get(clause.id) or (clause.id,)
    note = st.shared_notes.get(rid) or st.shared_notes.get(clause.id)
    if note:   # shown with every ruling the shared rule decides
        st.borrowed[rid] = note
    return Rule(id=rid, clause=cite[0], tests=tests, then=then,
                exception_to=exceptions, default=bool(raw.get("default")), note=raw.get("note"), index=index,
                never_decisive=raw.get("never_decisive"), home=clause.id, also=cite[1:], priority=priority)


def _compile_rules(kb, sources: list[str], st: _Settings, problems: list) -> list[Rule]:
    clauses = [c for c in kb.clauses.values()
               if (c.source in sources or c.id in st.borrowed) and c.id not in st.disabled]
    rules = []
    for index, clause in enumerate(clauses):
        for n, raw in enumerate(clause.decides, 1):
            rule = _compile_rule(clause, raw, n, index, st, problems)
            if rule is not None:
                rules.append(rule)
    _link_exceptions(rules, kb, problems)
    own = [r for r in rules if r.clause not in st.borrowed]
    for r in rules:
        targets = set(st.borrow_exceptions.get(r.clause, ()))
        if targets:   # a borrowed rule its `borrows` entry sets over some own rules (engine.resolve)
            r.borrow_named = frozenset(o.id for o in own if targets & {o.id, o.clause, o.home or o.clause})
    return rules


def _compile_only_when(st: _Settings, where: str, problems: list) -> dict:
    only_when = {}
    for fid, foul in st.fouls.items():
        try:
            only_when[fid] = compile_when(foul.get("only_when"), st.params, f"foul {fid}: only_when", set(st.fouls))
        except ConditionError as exc:
            problems.append(Problem(where, getattr(foul, "line", 1), str(exc)))
        if foul.get("timing") and foul["timing"] != foul_timing(foul):
            problems.append(Problem(where, getattr(foul, "line", 1),
                                    f"foul {fid}: {foul['timing']}, but its only_when says otherwise "
                                    f"(a foul between strokes holds {BETWEEN_STROKES})"))
    return only_when


def compile_ruleset(kb: KnowledgeBase, rulesets: dict[str, Ruleset], ruleset_id: str) -> CompiledRuleset:
    rs = rulesets[ruleset_id]
    problems: list[Problem] = []
    where = f"rulesets/{rs.id}.yaml"
    st = _settings(kb, _chain(rulesets, rs), problems)
    problems += missing(parameter_schema(kb.root, problems), st.params, where)
    rules = _compile_rules(kb, rs.all_sources(rulesets), st, problems)
    problems += _terms_without_parameters(rules, st.params, where)
    only_when = _compile_only_when(st, where, problems)
    queen_states = tuple(rs.raw.get("queen_states") or QUEEN_STATES)
    problems += [Problem(where, 1, f"unknown queen state {q!r}") for q in queen_states if q not in QUEEN_STATES]
    if problems:
        raise KnowledgeError(problems)
    return CompiledRuleset(rs, st.params, st.param_clauses, rules, st.fouls, st.mechanics, st.allow_empty,
                           st.borrowed, only_when, queen_states, st.never_decisive, st.assumptions,
                           borrow_exceptions=st.borrow_exceptions)


def _as_list(v):
    return [] if v is None else (list(v) if isinstance(v, (list, tuple)) else [v])


def _link_exceptions(rules: list[Rule], kb: KnowledgeBase, problems: list[Problem]) -> None:
    """Each rule learns every rule it overrides, following exception chains."""
    by_id = {r.id: r for r in rules}
    by_clause: dict[str, list[Rule]] = {}
    for r in rules:
        for c in {r.clause, r.home or r.clause}:
            by_clause.setdefault(c, []).append(r)
    direct: dict[str, set[str]] = {}
    for r in rules:
        targets = set()
        for t in r.exception_to:
            if t in by_id:
                targets.add(t)
            elif t in by_clause:
                targets |= {x.id for x in by_clause[t] if x is not r}
            elif t.split("/")[0] not in kb.clauses:
                home = kb.clauses.get(r.clause)
                problems.append(Problem(home.file if home else "?", home.line if home else 0,
                                        f"{r.id}: exception_to {t} points nowhere"))
            # else: the target exists but its ruleset does not apply it here: nothing to override
        direct[r.id] = targets
    for r in rules:
        seen, stack = set(), list(direct[r.id])
        while stack:
            t = stack.pop()
            if t in seen:
                continue
            seen.add(t)
            stack.extend(direct.get(t, ()))
        if r.id in seen:
            # a rule that is, through exceptions, an exception to itself decides nothing sure
            home = kb.clauses.get(r.clause)
            problems.append(Problem(home.file if home else "?", home.line if home else 0,
                                    f"{r.id}: exceptions form a cycle back to this rule"))
            seen.discard(r.id)
        r.overrides = frozenset(seen)
