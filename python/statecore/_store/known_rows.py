"""The rows a ``PostgresStore`` last read or wrote (docs/store.md § Updates): an update first
tries its compare-and-swap on the text kept for its key, without reading the row. The etag
names the text, so a row that changed meanwhile is simply not written (and its text comes back
in the same statement). The npm twin is ``npm/lib/store/known-rows.cjs``."""

from __future__ import annotations

from collections import OrderedDict

from statecore._generated.tables import STORE_KNOWN_CHARS


class Known:
    """The text and etag of the rows a store last read or wrote, by key, the most recently used
    kept up to ``STORE_KNOWN_CHARS`` characters in all (a text over a quarter is not kept), and
    whether each is trusted: while no other writer was seen to change the row (after a missed
    swap, the next update reads the row first, and trusts the kept text again once the row is
    still the one it wrote: a contended row costs no core call in vain)."""

    __slots__ = ("_chars", "_rows")

    def __init__(self) -> None:
        self._rows: OrderedDict[str, tuple[str, str, bool]] = OrderedDict()
        self._chars = 0

    def recall(self, key: str) -> tuple[str, str, bool] | None:
        """``(text, etag, trusted)`` of the row last seen at ``key``, or None."""
        row = self._rows.get(key)
        if row is not None:
            self._rows.move_to_end(key)
        return row

    def remember(self, key: str, text: str, etag: str, trusted: bool) -> None:
        """Keeps ``(text, etag)`` as the row at ``key``, the least recently used dropped past
        the bound."""
        self.forget(key)
        if len(text) > STORE_KNOWN_CHARS // 4:
            return
        self._rows[key] = (text, etag, trusted)
        self._chars += len(text)
        while self._chars > STORE_KNOWN_CHARS:
            _old, (old_text, _etag, _trusted) = self._rows.popitem(last=False)
            self._chars -= len(old_text)

    def forget(self, key: str) -> None:
        """Forgets the row at ``key``."""
        row = self._rows.pop(key, None)
        if row is not None:
            self._chars -= len(row[0])
