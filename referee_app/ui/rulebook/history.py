"""Back/forward history of the clauses read, as in a web browser."""
from __future__ import annotations


class History:
    def __init__(self, limit: int = 200):
        self._items: list[str] = []
        self._pos = -1
        self._limit = limit

    def visit(self, item: str) -> None:
        """A new page: the forward list is dropped, and revisiting the current page adds nothing."""
        if self._pos >= 0 and self._items[self._pos] == item:
            return
        del self._items[self._pos + 1:]
        self._items.append(item)
        if len(self._items) > self._limit:
            del self._items[0]
        self._pos = len(self._items) - 1

    def current(self) -> str | None:
        return self._items[self._pos] if self._pos >= 0 else None

    def can_back(self) -> bool:
        return self._pos > 0

    def can_forward(self) -> bool:
        return self._pos < len(self._items) - 1

    def back(self) -> str | None:
        if self.can_back():
            self._pos -= 1
        return self.current()

    def forward(self) -> str | None:
        if self.can_forward():
            self._pos += 1
        return self.current()
