"""The knowledge root: one object for everything read from a knowledge folder, loaded once by
the program that needs it (a command, the window, a test) and passed down, as Anki passes its
collection. Nothing below it falls back on a process-wide copy of its own.

Each part (the knowledge base, from the knowledge cache, cache.py; the rulesets, a ruleset
compiled, the forms, the tournament rules, the equipment specifications) is read when first asked
for, then kept: a command reads only what it uses, and one that uses none (a records command
handed the root for its rulings) reads nothing.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from referee_app.core.errors import BadInput, KnowledgeError

if TYPE_CHECKING:
    from referee_app.core.forms.clauses import FormsData
    from referee_app.core.inspection.spec import Specs
    from referee_app.core.rules.engine import CompiledRuleset
    from referee_app.core.tournament.ffc import FfcRules
    from .model import KnowledgeBase, Ruleset, Source


class Knowledge:
    """The knowledge folder `root`, its knowledge base `kb`, and what is made from them."""

    def __init__(self, kb: KnowledgeBase | None = None, rulesets: dict[str, Ruleset] | None = None, *,
                 root: Path | None = None, strict: bool = True):
        """`kb`, loaded and checked, with `rulesets` when already read from it; or the folder
        `root`, whose knowledge base is read when first asked for (`strict`: a broken one raises
        KnowledgeError then)."""
        if kb is None and root is None:
            raise ValueError("a knowledge root needs its knowledge base or its folder")
        self._kb = kb
        self._from_folder = kb is None   # read from its folder, not handed over (maybe edited in memory)
        self._folder_key = ""   # the knowledge cache's key of the folder as this root reads it (_open)
        self._opened = False
        self.root = Path(kb.root) if kb is not None else Path(root)  # type: ignore[arg-type]
        self._strict = strict
        self.problems: list = []
        self._rulesets = rulesets
        self._compiled: dict[str, CompiledRuleset] = {}
        self._parts: dict = {}

    @classmethod
    def load(cls, root: Path | None = None, strict: bool = True) -> Knowledge:
        """The knowledge folder `root`, or the installed one (loader.knowledge_root, which reads
        $CARROM_REFEREE_KNOWLEDGE): the one place a program chooses its knowledge. Its knowledge
        base is read when first used (`kb`)."""
        from .loader import knowledge_root

        return cls(root=Path(root) if root else knowledge_root(), strict=strict)

    def read(self, *parts: str) -> Knowledge:
        """Reads the named parts (`kb`, `rulesets`, `default_ruleset`, `tournament`...) now rather
        than when first used: the window reads what its first paint needs before Qt is imported."""
        for part in parts:
            getattr(self, part)
        return self

    @property
    def kb_read(self) -> bool:
        """Whether the knowledge base has been read yet: what only needs to know that the files
        are unchanged (the search index's fingerprint) can then avoid reading it."""
        return self._kb is not None

    @property
    def kb(self) -> KnowledgeBase:
        """The knowledge base, loaded and checked (KnowledgeError when broken and strict; else
        its problems are in `problems`)."""
        if self._kb is None:
            from .loader import load_keyed

            self._kb, self.problems, self._folder_key = load_keyed(self.root, strict=self._strict,
                                                                   key=self._folder_key)
            self._opened = True
        return self._kb

    @property
    def sources(self) -> dict[str, Source]:
        """The knowledge base's sources, by id: read from the cache without its clauses while the
        knowledge base itself is unread (the window's first paint names them)."""
        return self._outline()[0]

    def has_clause(self, clause_id) -> bool:
        """Whether the knowledge base has a clause of that id (read as `sources` is)."""
        return clause_id in self._outline()[1]

    def _outline(self) -> tuple[dict[str, Source], frozenset | dict]:
        if self._kb is None and "outline" not in self._parts:
            from .cache import kept_outline

            key = self._open()
            found = kept_outline(self.root, key) if key else None
            if found is not None:
                self._parts["outline"] = (found[0], frozenset(found[1]))
        if self._kb is None and "outline" in self._parts:
            return self._parts["outline"]
        return self.kb.sources, self.kb.clauses

    def _open(self) -> str:
        """The knowledge cache's key of the folder, found with the knowledge base's problems as the
        cache kept them, the knowledge base itself left unread: what the root reads from the cache
        (the rulesets, a ruleset compiled) needs only the key, and the window paints before it
        reads the knowledge base (5 ms). "" for a knowledge base handed over, or not in the cache."""
        if not self._opened and self._from_folder:
            from . import cache

            problems, key = cache.cached_problems(self.root)
            if problems is not None:
                if problems and self._strict:
                    raise KnowledgeError(problems)   # as reading the knowledge base would
                self.problems, self._folder_key = list(problems), key
            self._opened = True
        return self._folder_key

    # --- rulesets -----------------------------------------------------------------------------
    @property
    def rulesets(self) -> dict[str, Ruleset]:
        """Every playable ruleset (knowledge/rulesets/), in the order `rulesets` lists them."""
        if self._rulesets is None:
            self._rulesets = self._read_rulesets()
        return self._rulesets

    def _read_rulesets(self) -> dict[str, Ruleset]:
        """Read and checked from the files, or, for a knowledge base this root read from its
        folder, as the knowledge cache kept them for the same files (a knowledge base handed to
        the root, maybe edited in memory, has its rulesets read and checked against it)."""
        from . import cache

        key = self._open()
        kept = cache.kept(self.root, key, cache.RULESETS) if key else None
        if isinstance(kept, dict):
            return kept
        from .rulesets import load_rulesets

        found = load_rulesets(self.kb)
        key = self._folder_key
        if key:   # kept with every ruleset compiled, in one write: a later start rules without compiling
            cache.keep(self.root, key, {cache.RULESETS: found, **self._compile_all(found)})
        return found

    def _compile_all(self, rulesets: dict[str, Ruleset]) -> dict[str, CompiledRuleset]:
        """Every ruleset that compiles, by the name of its cache entry (one that does not is
        compiled again, and refused, when it is asked for)."""
        from referee_app.core.rules.compile import compile_ruleset
        from .cache import compiled_entry

        out = {}
        for rid in rulesets:
            try:
                self._compiled[rid] = out[compiled_entry(rid)] = compile_ruleset(self.kb, rulesets, rid)
            except KnowledgeError:
                continue
        return out

    def ruleset(self, ruleset_id, field: str = "ruleset") -> Ruleset:
        """The ruleset `ruleset_id`; BadInput naming `field` when there is none of that id."""
        rulesets = self.rulesets
        if not isinstance(ruleset_id, str) or ruleset_id not in rulesets:
            from referee_app.core.validation import shown

            raise BadInput(field, f"unknown ruleset '{shown(ruleset_id)}' (known: {', '.join(rulesets)})")
        return rulesets[ruleset_id]

    @property
    def default_ruleset(self) -> str:
        """The ruleset of whatever names none: forms.yaml's `default_ruleset`."""
        if "default_ruleset" not in self._parts:
            from .files import load_file

            chosen = (load_file(self.root / "forms.yaml", "forms.yaml") or {}).get("default_ruleset")
            self._parts["default_ruleset"] = self.ruleset(chosen, "forms.yaml: default_ruleset").id
        return self._parts["default_ruleset"]

    def compiled(self, ruleset_id: str) -> CompiledRuleset:
        """The ruleset ready to rule: as the knowledge cache kept it compiled from the same files,
        else compiled the first time it is asked for."""
        found = self._compiled.get(ruleset_id)
        if found is None:
            rid = self.ruleset(ruleset_id).id
            found = self._compiled.get(rid) or self._kept_compiled(rid)
            if found is None:
                from referee_app.core.rules.compile import compile_ruleset

                found = compile_ruleset(self.kb, self.rulesets, rid)
            self._compiled[rid] = found
        return found

    def _kept_compiled(self, rid: str) -> CompiledRuleset | None:
        """The ruleset compiled as the cache kept it for the folder's files (None if it did not)."""
        key = self._open()
        if not key:
            return None
        from referee_app.core.rules.engine import CompiledRuleset
        from .cache import compiled_entry, kept

        found = kept(self.root, key, compiled_entry(rid))
        if not isinstance(found, CompiledRuleset):
            return None
        found.ruleset = self.rulesets[rid]   # one object for a ruleset, as compiling it here gives
        return found

    def colours(self, ruleset_id: str) -> dict | None:
        """The ruleset's `colours` entry (its own or the one it extends): how the first coin
        pocketed sets the colours; None where the colours are set from the start."""
        rulesets = self.rulesets
        rs = rulesets.get(ruleset_id)
        while rs is not None:
            if rs.raw.get("colours"):
                return rs.raw["colours"]
            rs = rulesets.get(rs.extends) if rs.extends else None
        return None

    # --- names --------------------------------------------------------------------------------
    def ruleset_name(self, ruleset_id: str, lang: str) -> str:
        """The ruleset's name in `lang`, else in English, else its id (one that is no longer known
        keeps its id: an old record may name it)."""
        from .model import ruleset_name

        return ruleset_name(self.rulesets, ruleset_id, lang)

    def clause_label(self, clause_id: str, lang: str) -> str:
        """A clause as people cite it in `lang` ("ICF 3.12 c"): core/clause_labels.label."""
        from referee_app.core.clause_labels import label

        return label(clause_id, lang, self.kb)

    def foul_name(self, ruleset_id: str, foul_id: str, lang: str) -> str:
        """The foul's name under the ruleset, in `lang`, else in English; a foul the ruleset does
        not list (a stroke recorded under another ruleset) by its name under one that does; its
        id, in words, only when no ruleset knows it."""
        foul = (self.compiled(ruleset_id).fouls.get(foul_id) or {}) if ruleset_id in self.rulesets else {}
        names = foul.get("name") or {}
        if not names:
            names = next((f["name"] for rid in self.rulesets
                          if (f := self.compiled(rid).fouls.get(foul_id) or {}).get("name")), {})
        return names.get(lang) or names.get("en") or foul_id.replace("_", " ")

    def kept(self, key: tuple, make):
        """What `make()` makes from this knowledge, made once and kept with it (a quiz's
        situation space, a ruleset's examples): never kept for the process, so an edited copy
        of the knowledge base never sees what was made from another."""
        if key not in self._parts:
            self._parts[key] = make()
        return self._parts[key]

    # --- the other parts, each read when first asked for -----------------------------------------
    @property
    def forms(self) -> FormsData:
        """forms.yaml: what each ruleset says about protests and disqualifications."""
        if "forms" not in self._parts:
            from referee_app.core.forms.clauses import FormsData

            self._parts["forms"] = FormsData(self.kb, self.rulesets)
        return self._parts["forms"]

    @property
    def tournament(self) -> dict:
        """tournament.yaml, as read: the match clock, the FFC's Swiss system."""
        if "tournament" not in self._parts:
            from .files import load_file

            self._parts["tournament"] = load_file(self.root / "tournament.yaml", "tournament.yaml")
        return self._parts["tournament"]

    @property
    def ffc(self) -> FfcRules:
        """The FFC's Swiss system of tournament.yaml: what the tournament model, pairing,
        standings and the desk go by."""
        if "ffc" not in self._parts:
            from referee_app.core.tournament.ffc import rules_of

            self._parts["ffc"] = rules_of(self.tournament)
        return self._parts["ffc"]

    @property
    def equipment(self) -> Specs:
        """The equipment specifications (equipment/)."""
        if "equipment" not in self._parts:
            from referee_app.core.inspection.spec import load_specs

            self._parts["equipment"] = load_specs(self.root / "equipment")[0]
        return self._parts["equipment"]
