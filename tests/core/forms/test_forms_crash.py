"""A form typed field by field survives a SIGKILL: after the restart it is there, minus at most the
keystroke being saved when the process died."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap

from support.kbcopy import installed

# Field by field, key by key, as the window's autosave does; "ack" is printed once a keystroke's
# write has returned, i.e. committed.
TYPIST = textwrap.dedent("""
    import json, sys, time
    from referee_app.core.storage import db
    from referee_app.core.forms.store import FormsStore
    from referee_app.core.knowledge.root import Knowledge

    store = FormsStore(Knowledge.load(), db.connect(sys.argv[1]))
    fields = json.loads(sys.argv[2])
    form = store.create("protest")
    print(json.dumps({"id": form.id}), flush=True)
    for name, text in fields:
        for i in range(1, len(text) + 1):
            store.set_field(form.id, name, text[:i])
            print(json.dumps({"ack": [name, i]}), flush=True)
            time.sleep(0.004)
""")

FIELDS = [
    ["tournament", "Coupe de Fréjus"],
    ["referee", "Cécile Bérard"],
    ["decision", "La reine a été replacée au centre après le tir de confirmation"],
    ["facts", "Le joueur affirme que la reine était déjà confirmée ; l'arbitre n'a rien vu. " * 3],
]


def test_a_killed_autosave_loses_at_most_the_last_keystroke(tmp_path):
    path = tmp_path / "records.sqlite3"
    total = sum(len(text) for _name, text in FIELDS)
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    proc = subprocess.Popen([sys.executable, "-c", TYPIST, str(path), json.dumps(FIELDS)],
                            stdout=subprocess.PIPE, text=True, encoding="utf-8", env=env)
    try:
        form_id = json.loads(proc.stdout.readline())["id"]
        acked, count = None, 0
        # kill it in the middle of the third field, between two acknowledgements
        while count < len(FIELDS[0][1]) + len(FIELDS[1][1]) + 20:
            line = proc.stdout.readline()
            assert line, "the typist stopped before it was killed"
            acked = json.loads(line)["ack"]
            count += 1
        proc.send_signal(signal.SIGKILL)
        # what it acknowledged after our last read is committed too: read everything it printed
        for line in proc.stdout:
            acked = json.loads(line)["ack"]
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGKILL
    assert count < total, "the typist finished before it was killed: nothing was tested"

    from referee_app.core.storage import db
    from referee_app.core.forms.store import FormsStore

    store = FormsStore(installed(), db.connect(path))
    form = store.get(form_id)
    name, typed = acked
    order = [n for n, _t in FIELDS]
    position = order.index(name)
    for field_name, text in FIELDS[:position]:
        assert form.fields[field_name] == text            # finished fields: whole
    text = dict(FIELDS)[name]
    saved = form.fields.get(name, "")
    # everything acknowledged is there; at most the keystroke being written when it died is extra
    # (values are stored without trailing spaces, as `normalize` keeps them)
    assert saved in (text[:typed].strip(), text[:typed + 1].strip()), (saved, typed)
    if len(text) == typed and position + 1 < len(FIELDS):
        assert form.fields.get(order[position + 1], "") in ("", FIELDS[position + 1][1][:1])
    else:
        assert not set(order[position + 1:]) & set(form.fields)
    # the history was written in the same transaction as the value
    assert [h["new"] for h in store.history(form_id) if h["field"] == name][-1] == saved
    store.close()
