"""carrom-referee: a referee and rulebook assistant for carrom."""

__version__ = "0.1.0"
