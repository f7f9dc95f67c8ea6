"""Cheap marks of what has changed in the records, for a window that polls a shared database every
few seconds: each is one small query over indexed columns, and any write another machine makes
to what the mark covers changes it (a new row, or an edit, which adds one to its row's `version`).
The window compares two marks and reloads only on a change.
"""
from __future__ import annotations


def _mark(store, sql: str, params=None) -> tuple:
    return tuple(store.first(sql, params or {}).values())


def tournament_mark(store, tid) -> tuple:
    """The tournaments listed, and one tournament's entries, pairings, results, sheets and corrections,
    and the strokes on its sheets (a table starting to play, or undoing a stroke, changes what the
    desk shows of its sheet: sheet_status)."""
    return _mark(store, """
        SELECT (SELECT COUNT(*) FROM tournaments) AS tournaments,
               (SELECT COALESCE(MAX(id), 0) FROM tournaments) AS last_tournament,
               (SELECT COALESCE(MAX(id), 0) FROM tournament_games WHERE tournament_id = :t) AS last_game,
               (SELECT COALESCE(SUM(version), 0) FROM tournament_games WHERE tournament_id = :t) AS game_edits,
               (SELECT COUNT(*) FROM tournament_entries WHERE tournament_id = :t) AS entries,
               (SELECT COALESCE(SUM(checked_in), 0) FROM tournament_entries WHERE tournament_id = :t) AS present,
               (SELECT COUNT(withdrawn_after) FROM tournament_entries WHERE tournament_id = :t) AS withdrawn,
               (SELECT COUNT(*) FROM tournament_corrections WHERE tournament_id = :t) AS corrections,
               (SELECT COALESCE(MAX(s.id), 0) FROM strokes s JOIN tournament_games g ON g.match_id = s.match_id
                  WHERE g.tournament_id = :t AND g.superseded_at IS NULL) AS last_stroke,
               (SELECT COUNT(s.superseded_at) FROM strokes s JOIN tournament_games g ON g.match_id = s.match_id
                  WHERE g.tournament_id = :t AND g.superseded_at IS NULL) AS strokes_taken_back
        """, {"t": tid})


def forms_mark(store) -> tuple:
    """Every form and incident: a new one, a change of a field, a filing, a decision, a deletion."""
    return _mark(store, """
        SELECT (SELECT COUNT(*) FROM forms) AS forms, (SELECT COALESCE(MAX(id), 0) FROM forms) AS last_form,
               (SELECT COALESCE(SUM(version), 0) FROM forms) AS form_edits,
               (SELECT COALESCE(MAX(id), 0) FROM incidents) AS last_incident
        """)
