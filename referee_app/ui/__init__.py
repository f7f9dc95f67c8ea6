"""PySide6 widgets, thin over the core."""
