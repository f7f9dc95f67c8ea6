"""What `check-kb` checks beyond reading each file: the cross-checks of the knowledge base.

This package sits above every layer it checks (knowledge, rules, forms, inspection) and nothing
below imports it, so that core/knowledge reads and validates files without reaching up into the
layers built on it (tests/core/test_layers.py holds that).
"""
