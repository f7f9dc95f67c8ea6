"""Which module adds each command: read by the start (cli/__init__) and by the parser
(parsers.py), which therefore need not import each other."""

# The module of each command, so that a run imports and builds only its own command's parser
# (start-up time, benchmarks/bench_startup.py). A command missing here still works: the whole
# parser is built, as for --help; tests/cli/test_cli_parser.py keeps the table true.
MODULES = {"rule": "cmd_rulings", "fouls": "cmd_rulings", "rulesets": "cmd_rulings", "verify": "cmd_rulings",
           "replay": "cmd_replay", "matches": "cmd_matches", "search": "cmd_search", "inspect": "cmd_inspect",
           "inspections": "cmd_inspect_records", "forms": "cmd_forms", "tournament": "cmd_tournament",
           "quiz": "cmd_quiz", "records": "cmd_records", "db": "cmd_db",
           "rulebook": "cmd_knowledge", "show": "cmd_knowledge", "check-kb": "cmd_knowledge"}
