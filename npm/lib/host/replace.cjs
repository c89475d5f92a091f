"use strict";
/**
 * The atomic replace of the Node host layer (docs/locking.md): temp file, fsync, rename over
 * the file, fsync of the directory, and the guarded replace of a file people edit. System
 * calls only, through lib/host/atomic.cjs's fault seam.
 */
const path = require("node:path");
const { sys, FD, POOLED, tempPath, existingMode, unlinkQuiet, stampOf, BIG } = require("./atomic.cjs");
const { runSync, runAsync } = require("./drive.cjs");

/** `link()` errors of file systems without hard links: the check after the replace is skipped. */
const LINK_UNSUPPORTED = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "EXDEV", "EMLINK", "ENOSYS"]);

/**
 * The replace of a guarded write (docs/locking.md § Files people edit), synchronous so that
 * nothing runs between its checks: `file` must still be the one read (`guard.stamp`), else
 * false (nothing replaced). For a file people edit (`guard.edited`) the old file is held by a
 * hard link, checked again once held (a save during the link: nothing replaced, false), and
 * again after the rename: when it changed in between (a person's editor wrote it in place), it
 * is put back and false returned.
 */
function replaceGuarded(file, tmp, guard) {
  if (stampNow.sync(file) !== guard.stamp) return false;
  if (!guard.edited || guard.stamp === null) {
    sys.renameSync(tmp, file);
    return true;
  }
  const held = tempPath(file); // a lock holder's sweep removes it after a crash
  try {
    sys.linkSync(file, held);
  } catch (error) {
    if (error.code === "ENOENT") return false;
    if (!LINK_UNSUPPORTED.has(error.code)) throw error;
    sys.renameSync(tmp, file);
    return true;
  }
  try {
    if (stampNow.sync(held) !== guard.stamp) return false;
    sys.renameSync(tmp, file);
    if (stampNow.sync(held) === guard.stamp) return true;
    sys.renameSync(held, file); // the person's file, back in place
    return false;
  } finally {
    unlinkQuiet(held);
  }
}

/**
 * The steps of {@link writeAtomic} over the I/O table `io` (lib/host/atomic.cjs `FD`): temp
 * file, its mode, the text, fsync, rename (or the guarded replace), fsync of the directory.
 */
function* replaceSteps(io, file, text, guard) {
  let stat = null;
  try {
    stat = yield io.statFile(file);
  } catch (error) {
    if (error.code !== "ENOENT") throw error;
  }
  const mode = existingMode(stat);
  const tmp = tempPath(file);
  const fd = yield io.open(tmp, "wx", 0o666);
  try {
    try {
      if (mode !== null) yield io.chmod(fd, mode);
      yield io.writeAll(fd, text);
      if (guard?.edited) {
        // A file people edit is stamped in the past (docs/locking.md § Files people edit).
        const now = Date.now();
        yield io.backdate(fd, now / 1000, (now - guard.backdateMs) / 1000);
      }
      yield io.flush(fd);
    } finally {
      yield io.close(fd);
    }
    if (guard === undefined) yield io.rename(tmp, file);
    else if (!replaceGuarded(file, tmp, guard)) {
      unlinkQuiet(tmp);
      return false;
    }
  } catch (error) {
    unlinkQuiet(tmp);
    throw error;
  }
  yield io.flushDir(path.dirname(file));
  return true;
}

/**
 * Atomic replace: temp file, fsync, rename over `file`, fsync the directory. With `guard`
 * (`{stamp, edited, backdateMs}`: the write of an update, docs/locking.md § Files people
 * edit), the file is checked around the rename ({@link replaceGuarded}) and `false` returned,
 * nothing replaced, when it is no longer the one read; a file people edit is stamped
 * `backdateMs` in the past. Else (and without `guard`) `true`. `flushing`: the steps of `sync`
 * with only the two flushes awaited on libuv's thread pool (two trips, not one per call).
 */
const writeAtomic = Object.freeze({
  sync: (file, text, guard) => runSync(replaceSteps(FD.sync, file, text, guard)),
  async: (file, text, guard) => runAsync(replaceSteps(FD.async, file, text, guard)),
  flushing: (file, text, guard) => runAsync(replaceSteps(POOLED, file, text, guard)),
});

/** The stamp of `file` as it is now, as a read opens it (null: no file). */
const stampNow = {
  sync(file) {
    try {
      return stampOf(sys.statSync(file, BIG));
    } catch (error) {
      if (error.code === "ENOENT") return null;
      throw error;
    }
  },
};

module.exports = { writeAtomic, stampNow };
