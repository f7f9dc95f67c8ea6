"""The installed forms.yaml, for the forms area and the records, which are not yet handed the
knowledge root: loaded once per process (root.Knowledge.forms is the same, for one root).

Apart from clauses.py so that the knowledge root can build FormsData without importing what
loads the knowledge root.
"""
from __future__ import annotations

from functools import lru_cache

from referee_app.core.knowledge.root import Knowledge
from .clauses import FormsData


@lru_cache(maxsize=1)
def forms_data() -> FormsData:
    return Knowledge.load().forms
