"""What the tests share that is not a fixture: the command line, knowledge-base copies, the
source texts, a throwaway PostgreSQL server, GUI helpers. `pythonpath = ["tests"]` (pyproject)
makes `support` importable from every folder of tests."""
