"use strict";
/**
 * The rows a `PostgresStore` last read or wrote (docs/store.md § Updates): an update first
 * tries its compare-and-swap on the text kept for its key, without reading the row. The etag
 * names the text, so a row that changed meanwhile is simply not written (and its text comes
 * back in the same statement). The Python twin is python/statecore/_store/known_rows.py.
 */

const { CONSTANTS } = require("../binding/tables.cjs");

/** How many characters of row text a store keeps, in all; a text over a quarter is not kept. */
const KNOWN_CHARS = CONSTANTS.storeKnownChars;

/**
 * The text and etag of the rows this store last read or wrote, by key, the most recently used
 * kept up to `KNOWN_CHARS` characters in all; `trusted` while no other writer was seen to change
 * the row (after a missed swap, the next update reads the row first, and trusts the kept text
 * again once the row is still the one it wrote: a contended row costs no core call in vain).
 */
class Known {
  #rows = new Map();
  #chars = 0;

  /** The row last seen at `key` (`{text, etag, trusted}`), or undefined. */
  recall(key) {
    const row = this.#rows.get(key);
    if (row) {
      this.#rows.delete(key);
      this.#rows.set(key, row);
    }
    return row;
  }

  /** Keeps `{text, etag}` as the row at `key`, the least recently used dropped past the bound. */
  remember(key, { text, etag }, trusted) {
    this.forget(key);
    if (text.length > KNOWN_CHARS / 4) return;
    this.#rows.set(key, { text, etag, trusted });
    this.#chars += text.length;
    for (const [old, row] of this.#rows) {
      if (this.#chars <= KNOWN_CHARS) break;
      this.#rows.delete(old);
      this.#chars -= row.text.length;
    }
  }

  /** Forgets the row at `key`. */
  forget(key) {
    const row = this.#rows.get(key);
    if (row) {
      this.#rows.delete(key);
      this.#chars -= row.text.length;
    }
  }
}

module.exports = { Known, KNOWN_CHARS };
