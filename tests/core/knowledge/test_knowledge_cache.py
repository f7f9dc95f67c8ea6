"""The knowledge base is read once into the user's cache folder and taken from there while its
files are unchanged; a change, a damaged cache or an unwritable folder never gives a wrong answer."""
from __future__ import annotations

import pickle
import shutil

import pytest

from referee_app.core.knowledge import cache, loader
from referee_app.core.knowledge.loader import knowledge_root


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """An empty cache folder, a copy of the knowledge base, and no folder remembered in memory."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(cache, "_folders", {})
    root = tmp_path / "knowledge"
    shutil.copytree(knowledge_root(), root)
    return root


def new_process(monkeypatch):
    """What a new start sees: the cache folder, and nothing in memory."""
    monkeypatch.setattr(cache, "_folders", {})


def cache_files(tmp_path):
    return sorted((tmp_path / "cache").rglob("knowledge-*"))


def test_a_second_start_takes_the_knowledge_base_from_the_cache(fresh, tmp_path, monkeypatch):
    first, _ = loader.load(fresh)
    assert [f.name.startswith("knowledge-") and f.suffix == ".pickle" for f in cache_files(tmp_path)] == [True]
    new_process(monkeypatch)
    monkeypatch.setattr(loader, "_read", lambda root: pytest.fail("read the YAML again"))
    again, _ = loader.load(fresh)
    assert [c.record() for c in again.clauses.values()] == [c.record() for c in first.clauses.values()]
    assert again.root == fresh and again.stamp == first.stamp


def test_an_edited_file_is_read_again_in_the_same_process_and_the_next(fresh, monkeypatch):
    kb, _ = loader.load(fresh)
    clause = kb.clauses["icf-fr:3.12.a"]
    path = fresh / clause.file
    path.write_text(path.read_text(encoding="utf-8").replace(clause.text.split()[0], "MODIFIÉ", 1), encoding="utf-8")
    assert loader.load(fresh)[0].clauses["icf-fr:3.12.a"].text.startswith("MODIFIÉ")
    new_process(monkeypatch)
    assert loader.load(fresh)[0].clauses["icf-fr:3.12.a"].text.startswith("MODIFIÉ")


def test_a_yaml_file_read_twice_is_two_objects_and_an_edit_is_seen(fresh):
    from referee_app.core.knowledge.files import load_file

    path = fresh / "rulesets" / "icf.yaml"
    one, two = load_file(path), load_file(path)
    assert one == two and one is not two  # a caller changing its copy changes nobody else's
    path.write_text(path.read_text(encoding="utf-8") + "\nextra_key_for_the_test: 1\n", encoding="utf-8")
    assert load_file(path)["extra_key_for_the_test"] == 1


def test_a_broken_file_is_reported_as_without_the_cache(fresh, monkeypatch):
    from referee_app.core.errors import KnowledgeError

    (fresh / "icf-fr" / "01-preface.yaml").write_text("clauses: [\n", encoding="utf-8")
    with pytest.raises(KnowledgeError) as caught:
        loader.load(fresh)
    assert str(caught.value.problems[0]).startswith("icf-fr/01-preface.yaml:")
    assert "not valid YAML" in str(caught.value.problems[0])


@pytest.mark.parametrize("damage", [b"", b"not a pickle at all", b"\x80\x05garbage",
                                    pickle.dumps({"x": 1})[:-3]])
def test_a_damaged_cache_is_rebuilt_silently(fresh, tmp_path, monkeypatch, damage):
    expected = [c.record() for c in loader.load(fresh)[0].clauses.values()]
    [written] = cache_files(tmp_path)
    written.write_bytes(damage)
    new_process(monkeypatch)
    assert [c.record() for c in loader.load(fresh)[0].clauses.values()] == expected
    new_process(monkeypatch)
    assert cache.cached_knowledge(fresh)[0] is not None, "rewritten whole"


class Trap:
    def __reduce__(self):
        return (shutil.rmtree, ("/nonexistent-folder-of-the-test",))


def _with_trap_entry():
    from referee_app.core.knowledge.cache_entries import layout

    return layout({"knowledge base": pickle.dumps(Trap())})


def _with_trap_index():
    index = pickle.dumps(Trap())
    return len(index).to_bytes(8, "little") + index


@pytest.mark.parametrize("written_as", [_with_trap_entry, _with_trap_index,
                                        lambda: pickle.dumps({"knowledge base": pickle.dumps(Trap())})])
def test_a_cache_naming_other_code_builds_nothing(fresh, tmp_path, monkeypatch, written_as):
    loader.load(fresh)
    [written] = cache_files(tmp_path)
    written.write_bytes(written_as())
    new_process(monkeypatch)
    called = []
    monkeypatch.setattr(shutil, "rmtree", lambda *a, **k: called.append(a))
    assert loader.load(fresh)[0].clauses
    assert not called


def test_an_unwritable_cache_folder_only_costs_time(fresh, tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder would be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    kb, _ = loader.load(fresh)
    assert "icf-fr:3.12.a" in kb.clauses


def test_the_cache_is_written_whole_or_not_at_all(fresh, tmp_path):
    loader.load(fresh)
    leftovers = [p.name for p in (tmp_path / "cache").rglob("*") if p.is_file() and not p.name.endswith(".pickle")]
    assert leftovers == []


def test_a_changed_folder_gets_a_new_cache_and_old_ones_are_pruned(fresh, tmp_path, monkeypatch):
    for n in range(cache.KEEP + 2):
        (fresh / "glossary.yaml").write_text((fresh / "glossary.yaml").read_text(encoding="utf-8") + f"\n# edit {n}\n",
                                             encoding="utf-8")
        new_process(monkeypatch)
        loader.load(fresh)
    assert len(cache_files(tmp_path)) == cache.KEEP


@pytest.mark.skipif(not cache.STAMPS_TRUSTED, reason="no change time (ctime) to trust a stamp by")
def test_a_settled_folder_is_known_by_its_stamp_without_reading_its_files(fresh, monkeypatch):
    monkeypatch.setattr(cache, "SETTLED_NS", 0)   # the copy counts as left alone long enough
    first, _ = loader.load(fresh)
    new_process(monkeypatch)
    monkeypatch.setattr(cache, "_contents", lambda root: pytest.fail("read and hashed every file again"))
    again, _ = loader.load(fresh)
    assert [c.record() for c in again.clauses.values()] == [c.record() for c in first.clauses.values()]


@pytest.mark.skipif(not cache.STAMPS_TRUSTED, reason="no change time (ctime) to trust a stamp by")
def test_a_settled_folder_s_files_are_found_by_their_path_and_an_edit_is_seen_at_once(fresh, monkeypatch):
    from referee_app.core.knowledge.files import load_file
    from referee_app.core.knowledge.yamlio import load_text

    monkeypatch.setattr(cache, "SETTLED_NS", 0)
    loader.load(fresh)
    new_process(monkeypatch)
    hashed, hash_ = [], cache._hash
    monkeypatch.setattr(cache, "_hash", lambda data: hashed.append(data) or hash_(data))
    assert loader.load(fresh)[0].clauses
    path = fresh / "rulesets" / "icf.yaml"
    text = path.read_text(encoding="utf-8")
    assert load_file(path) == load_text(text, str(path)) and hashed == []
    path.write_text(text.replace("id: icf", "id: icf-edited", 1), encoding="utf-8")
    assert load_file(path)["id"] == "icf-edited" and hashed


@pytest.mark.parametrize("damage", [b"not a pickle", pickle.dumps([("stamp", "../../elsewhere")]), pickle.dumps(Trap())])
def test_a_damaged_stamps_file_only_costs_reading_the_files(fresh, tmp_path, monkeypatch, damage):
    monkeypatch.setattr(cache, "SETTLED_NS", 0)
    expected = [c.record() for c in loader.load(fresh)[0].clauses.values()]
    (tmp_path / "cache" / "carrom-referee" / cache._STAMPS).write_bytes(damage)
    new_process(monkeypatch)
    called = []
    monkeypatch.setattr(shutil, "rmtree", lambda *a, **k: called.append(a))
    assert [c.record() for c in loader.load(fresh)[0].clauses.values()] == expected and not called


def test_the_stamps_text_file_of_earlier_versions_goes_when_the_stamps_are_next_kept(fresh, tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "SETTLED_NS", 0)
    folder = tmp_path / "cache" / "carrom-referee"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "knowledge.stamps").write_text("0123 abcd\n", encoding="ascii")
    loader.load(fresh)
    assert (folder / cache._STAMPS).is_file() and not (folder / "knowledge.stamps").exists()


def test_an_edit_keeping_the_size_and_the_modification_time_is_seen(fresh, monkeypatch):
    import os

    monkeypatch.setattr(cache, "SETTLED_NS", 0)   # where stamps are trusted at all
    kb, _ = loader.load(fresh)
    clause = kb.clauses["icf-fr:3.12.a"]
    path = fresh / clause.file
    before = os.stat(path)
    text = path.read_text(encoding="utf-8")
    word = clause.text.split()[0]
    path.write_text(text.replace(word, "X" * len(word), 1), encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert os.stat(path).st_size == before.st_size and os.stat(path).st_mtime_ns == before.st_mtime_ns
    assert loader.load(fresh)[0].clauses["icf-fr:3.12.a"].text.startswith("X" * len(word))
    new_process(monkeypatch)
    assert loader.load(fresh)[0].clauses["icf-fr:3.12.a"].text.startswith("X" * len(word))


def test_a_file_written_moments_ago_is_read_not_trusted_by_its_stamp(fresh, monkeypatch):
    loader.load(fresh)   # the copy was just made: its stamp is not settled
    new_process(monkeypatch)
    hashed = []
    contents = cache._contents
    monkeypatch.setattr(cache, "_contents", lambda root: hashed.append(root) or contents(root))
    loader.load(fresh)
    assert hashed


def test_a_broken_rule_and_example_name_their_own_line_when_the_knowledge_base_comes_from_the_cache(fresh, monkeypatch):
    from referee_app.core.errors import KnowledgeError
    from referee_app.core.checks.knowledge_base import example_problems
    from referee_app.core.knowledge.rulesets import load_rulesets
    from referee_app.core.rules.compile import compile_ruleset

    def from_the_cache(text: str):
        path.write_text(text, encoding="utf-8")
        loader.load(fresh, strict=False)
        new_process(monkeypatch)
        kb, _ = loader.load(fresh, strict=False)
        assert type(kb.clauses["icf-fr:3.5.c"].decides[0]) is dict, "from the cache, without line numbers"
        return kb

    path = fresh / "icf-fr" / "03.05-coup-d-envoi.yaml"
    original = path.read_text(encoding="utf-8")
    lines = original.splitlines()
    rule_line = lines.index("      - name: break-made") + 1
    example_line = next(i for i, line in enumerate(lines, 1) if "the break touches the coins but pockets nothing" in line)
    # a broken rule: the ruleset does not compile, and says where
    kb = from_the_cache(original.replace("        then: {break_made: true}\n",
                                         "        then: {break_made: true}\n        sometimes: yes\n", 1))
    with pytest.raises(KnowledgeError) as caught:
        compile_ruleset(kb, load_rulesets(kb), "icf")
    assert [(p.file, p.line) for p in caught.value.problems if "sometimes" in p.message] == [
        ("icf-fr/03.05-coup-d-envoi.yaml", rule_line)]
    # an example the copy's own rules contradict (ruled with the copy, never the installed rules)
    kb = from_the_cache(original.replace("expect: {break_made: true, turn: passes,",
                                         "expect: {break_made: false, turn: passes,", 1))
    said = [p for p in example_problems(kb, load_rulesets(kb)) if "pockets nothing" in p.message]
    assert [(p.file, p.line) for p in said] == [("icf-fr/03.05-coup-d-envoi.yaml", example_line)]


def test_a_cache_file_cut_short_is_rebuilt_silently(fresh, tmp_path, monkeypatch):
    expected = [c.record() for c in loader.load(fresh)[0].clauses.values()]
    [written] = cache_files(tmp_path)
    whole = written.read_bytes()
    for cut in (4, 100, len(whole) // 2, len(whole) - 1):
        written.write_bytes(whole[:cut])
        new_process(monkeypatch)
        assert [c.record() for c in loader.load(fresh)[0].clauses.values()] == expected
        new_process(monkeypatch)
        assert cache.cached_knowledge(fresh)[0] is not None, "rewritten whole"
        whole = written.read_bytes()


def test_an_entry_is_read_only_from_the_file_whose_index_was_read(tmp_path):
    import os

    from referee_app.core.knowledge.cache_entries import EntryFile, layout

    path = tmp_path / "entries"
    path.write_bytes(layout({"a": b"one", "b": b"two"}))
    entries = EntryFile(path, pickle.loads)
    assert sorted(entries) == ["a", "b"] and entries["a"] == b"one" and entries.get("c") is None
    (tmp_path / "new").write_bytes(layout({"b": b"TWO!", "a": b"ONE"}))
    os.replace(tmp_path / "new", path)   # another start rebuilt it: same names, other offsets
    assert entries.get("b") is None, "not read at the old offsets of the new file"
    assert entries["a"] == b"one", "what was read stays"
    assert EntryFile(path, pickle.loads)["b"] == b"TWO!"


def test_a_second_start_takes_the_rulesets_compiled_from_the_cache_and_an_edit_is_read_again(fresh, monkeypatch):
    from referee_app.core.knowledge import rulesets
    from referee_app.core.knowledge.root import Knowledge
    from referee_app.core.rules import compile as compiler

    first = Knowledge.load(fresh)
    ruled = {rid: first.compiled(rid) for rid in first.rulesets}
    new_process(monkeypatch)
    with monkeypatch.context() as m:
        m.setattr(rulesets, "load_rulesets", lambda kb: pytest.fail("read and checked the rulesets again"))
        m.setattr(compiler, "compile_ruleset", lambda *a: pytest.fail("compiled a ruleset again"))
        again = Knowledge.load(fresh)
        kept = {rid: again.compiled(rid) for rid in again.rulesets}
    assert {i: (r.name, r.sources, r.extends, r.raw) for i, r in again.rulesets.items()} == \
        {i: (r.name, r.sources, r.extends, r.raw) for i, r in first.rulesets.items()}
    assert again.rulesets["icf"].raw["borrows"][0].line == 9, "kept with their lines, which a broken entry names"
    for rid, compiled in kept.items():
        assert compiled.ruleset is again.rulesets[rid]
        assert [(r.id, r.clause, r.tests, r.then, r.exception_to) for r in compiled.rules] == \
            [(r.id, r.clause, r.tests, r.then, r.exception_to) for r in ruled[rid].rules]
        assert (compiled.params, compiled.fouls, compiled.borrowed) == (ruled[rid].params, ruled[rid].fouls,
                                                                        ruled[rid].borrowed)
    path = fresh / "rulesets" / "icf.yaml"
    text = path.read_text(encoding="utf-8")
    assert "fr: Règles internationales (ICF)," in text and "board_cap: {value: 12," in text
    path.write_text(text.replace("fr: Règles internationales (ICF),", "fr: Édité,", 1)
                    .replace("board_cap: {value: 12,", "board_cap: {value: 11,", 1), encoding="utf-8")
    for _ in range(2):   # the same process, then the next one
        edited = Knowledge.load(fresh)
        assert edited.ruleset_name("icf", "fr") == "Édité" and edited.compiled("icf").params["board_cap"] == 11
        new_process(monkeypatch)


def test_a_ruleset_that_does_not_compile_is_refused_from_a_warm_cache_too(fresh, monkeypatch):
    from referee_app.core.errors import KnowledgeError
    from referee_app.core.knowledge.root import Knowledge

    path = fresh / "rulesets" / "icf.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("board_cap: {value: 12,", "board_cap: {value: many,", 1),
                    encoding="utf-8")
    for _ in range(2):   # the start that fills the cache, then one that finds it
        knowledge = Knowledge.load(fresh)
        assert knowledge.compiled("it").ruleset.id == "it"
        with pytest.raises(KnowledgeError, match="board_cap"):
            knowledge.compiled("icf")
        new_process(monkeypatch)


def test_the_cache_key_covers_every_module_that_reads_or_makes_what_it_keeps():
    from support.imports import MODULES, closure, import_graph

    graph = import_graph()
    makers = ("referee_app.core.knowledge.loader", "referee_app.core.knowledge.rulesets", "referee_app.core.rules.compile")
    needed = {MODULES[m].resolve() for maker in makers for m in closure(graph, maker)}
    covered = {cache._code_path(name).resolve() for name in cache._CODE}
    assert sorted(map(str, needed - covered)) == []
    assert all(path.is_file() for path in covered)


def test_a_knowledge_base_handed_to_the_root_has_its_rulesets_checked_against_it(fresh, monkeypatch):
    from referee_app.core.errors import KnowledgeError
    from referee_app.core.knowledge.root import Knowledge

    Knowledge.load(fresh).read("rulesets")   # kept in the cache
    kb, _ = loader.load(fresh)
    del kb.sources["icf-fr"]          # edited in memory: the cached rulesets do not fit it
    with pytest.raises(KnowledgeError, match="unknown source 'icf-fr'"):
        Knowledge(kb).read("rulesets")


def test_a_warm_root_rules_and_names_its_sources_without_reading_the_knowledge_base(fresh, monkeypatch):
    from referee_app.core.knowledge.root import Knowledge

    first = Knowledge.load(fresh)
    sources, ids = dict(first.kb.sources), set(first.kb.clauses)
    first.read("rulesets")
    new_process(monkeypatch)
    monkeypatch.setattr(loader, "_read", lambda root: pytest.fail("read the YAML again"))
    warm = Knowledge.load(fresh)
    assert "icf" in warm.rulesets and warm.compiled("icf").params["board_cap"] == 12
    assert warm.sources == sources and warm.has_clause("icf-fr:3.12.a") and not warm.has_clause("icf-fr:99")
    assert not warm.kb_read and warm.problems == []
    assert set(warm.kb.clauses) == ids and warm.kb_read   # read when first used, from the same files


def test_a_broken_knowledge_base_is_refused_from_a_warm_cache_as_from_its_files(fresh, monkeypatch):
    from referee_app.core.errors import KnowledgeError
    from referee_app.core.knowledge.root import Knowledge

    (fresh / "glossary.yaml").write_text("terms: not a list\n", encoding="utf-8")
    for _ in range(2):   # the start that reads the files, then one that finds them in the cache
        with pytest.raises(KnowledgeError) as caught:
            Knowledge.load(fresh).read("rulesets")
        lenient = Knowledge.load(fresh, strict=False).read("rulesets")
        assert lenient.problems == caught.value.problems != []
        new_process(monkeypatch)
