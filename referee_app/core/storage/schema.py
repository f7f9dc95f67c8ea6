"""Every table of the records database at this version's schema (the migrations' head), as one
SQLAlchemy MetaData: for copying records between databases, counting rows and checking that the
migrations build what the stores use (tests/core/storage/test_migrations.py compares the two).

`version` is on the rows two machines may edit: a writer gives the version it read.
"""
from __future__ import annotations

from sqlalchemy import Column, ForeignKey, Index, Integer, BigInteger, MetaData, Table, Text, text

metadata = MetaData()


def _id() -> Column:
    return Column("id", Integer, primary_key=True)


def _version() -> Column:
    return Column("version", Integer, nullable=False, server_default=text("1"))


def _text(name: str, default: str | None = None, nullable: bool = False) -> Column:
    return Column(name, Text, nullable=nullable,
                  server_default=text(f"'{default}'") if default is not None else None)


matches = Table(
    "matches", metadata, _id(), _text("created_at"), _text("ruleset"),
    Column("doubles", Integer, nullable=False, server_default=text("0")),
    *(_text(c, "") for c in ("first_name", "second_name", "tournament", "round", "table_no", "referee")),
    _version())

strokes = Table(
    "strokes", metadata, _id(), Column("match_id", Integer, ForeignKey("matches.id"), nullable=False),
    Column("seq", Integer, nullable=False), _text("stroke"), _text("ruling"), _text("entered_at"),
    _text("superseded_at", nullable=True), _text("client_id", nullable=True), _text("state", nullable=True),
    Index("strokes_by_match", "match_id", "seq"), Index("strokes_by_client_id", "client_id", unique=True))

match_events = Table(
    "match_events", metadata, _id(), Column("match_id", Integer, ForeignKey("matches.id"), nullable=False),
    _text("at"), _text("kind"), _text("detail"))

forms = Table(
    "forms", metadata, _id(), _text("kind"), _text("status"), _text("fields", "{}"),
    _text("outcome", nullable=True), _text("created_at"), _text("updated_at"), _text("decided_at", nullable=True),
    _version(), sqlite_autoincrement=True)

form_history = Table(
    "form_history", metadata, _id(), Column("form_id", Integer, ForeignKey("forms.id"), nullable=False),
    _text("at"), _text("field"), _text("old", nullable=True), _text("new", nullable=True),
    Index("form_history_by_form", "form_id", "id"), sqlite_autoincrement=True)

incidents = Table(
    "incidents", metadata, _id(), *(_text(c) for c in ("tournament", "round", "table", "player", "kind", "at")),
    _text("referee", nullable=True), _text("note", nullable=True),
    Index("incidents_by_match", "tournament", "round", "table", "player"), sqlite_autoincrement=True)

inspections = Table(
    "inspections", metadata, _id(), _text("inspected_at"), _text("inspector"), _text("item"), _text("label"),
    _text("tournament", ""), _text("readings"), _text("result"), Column("compliant", Integer, nullable=False),
    _text("notes", ""), _text("photo", ""), Column("previous_id", Integer, ForeignKey("inspections.id")),
    _text("carried_over", "[]"), _text("spec", ""), _version(), sqlite_autoincrement=True)

# The ruleset's 'icf' default is the first migration's (r0001), kept so that this description
# matches the databases it made; no code relies on it: the store always writes the ruleset its
# caller chose (the knowledge's default_ruleset when the user named none).
tournaments = Table(
    "tournaments", metadata, _id(), _text("name"), _text("ruleset", "icf"), _text("created_at"),
    Column("seed", BigInteger), _text("choices", nullable=True))

tournament_entries = Table(
    "tournament_entries", metadata,
    Column("tournament_id", Integer, ForeignKey("tournaments.id"), primary_key=True),
    Column("seq", Integer, nullable=False), Column("name", Text, primary_key=True),
    Column("checked_in", Integer, nullable=False, server_default=text("0")),
    Column("first_round", Integer), Column("withdrawn_after", Integer))

tournament_games = Table(
    "tournament_games", metadata, _id(), Column("tournament_id", Integer, ForeignKey("tournaments.id"), nullable=False),
    Column("round", Integer, nullable=False), Column("final", Integer, nullable=False, server_default=text("0")),
    Column("table_no", Integer, nullable=False), _text("first", nullable=True), _text("second", nullable=True),
    Column("score_first", Integer), Column("score_second", Integer), Column("match_id", Integer),
    _text("entered_at"), _text("superseded_at", nullable=True), _version(),
    Index("tournament_games_by_round", "tournament_id", "round", "table_no"),
    # one row in force per game: a round paired twice at once cannot be written (migration 0004)
    Index("tournament_games_by_match", "match_id"),
    Index("tournament_games_one_live_row", "tournament_id", "final", "round", "table_no", unique=True,
          sqlite_where=text("superseded_at IS NULL"), postgresql_where=text("superseded_at IS NULL")))

tournament_corrections = Table(
    "tournament_corrections", metadata, _id(),
    Column("tournament_id", Integer, ForeignKey("tournaments.id"), nullable=False),
    _text("round"), Column("table_no", Integer, nullable=False), _text("before", nullable=True), _text("after"),
    _text("reason"), _text("at"))

# Every change to a tournament: who (the server's login), when, what. Written in the transaction of
# the change it records; never updated nor deleted by the stores.
tournament_journal = Table(
    "tournament_journal", metadata, Column("id", Integer, primary_key=True),
    Column("tournament_id", Integer, ForeignKey("tournaments.id"), nullable=False),
    _text("at"), _text("login", ""), _text("action"), _text("round", nullable=True), Column("table_no", Integer),
    _text("detail", "{}"), Index("tournament_journal_by_tournament", "tournament_id", "id"),
    sqlite_autoincrement=True)

learn_cards = Table(
    "learn_cards", metadata, Column("learner", Text, primary_key=True), Column("question", Text, primary_key=True),
    *(_text(c) for c in ("ruleset", "clause", "situation", "card", "due")),
    Column("reviews", Integer, nullable=False, server_default=text("0")),
    Column("lapses", Integer, nullable=False, server_default=text("0")),
    Index("learn_cards_due", "learner", "due"))

learn_answers = Table(
    "learn_answers", metadata, _id(), _text("learner"), _text("question"), _text("answered_at"),
    Column("correct", Integer, nullable=False))

# In the order a copy writes them: a table after those its rows point at.
TABLES = [t.name for t in metadata.sorted_tables]
