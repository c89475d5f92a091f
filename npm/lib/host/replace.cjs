"use strict";
/**
 * The atomic replace of the Node host layer (docs/locking.md): temp file, fsync, rename over
 * the file, fsync of the directory, and the guarded replace of a file people edit. System
 * calls only, through lib/host/atomic.cjs's fault seam.
 */
const path = require("node:path");
const { sys, sysp, tempPath, existingMode, unlinkQuiet, fsyncDirSync, fsyncDir, fsyncOnPool, fsyncDirOnPool, stampOf, BIG } = require("./atomic.cjs");

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

/** Sets the modification time of the open file `fd` `ms` in the past (docs/locking.md). */
function backdate(fd, ms) {
  const now = Date.now();
  sys.futimesSync(fd, now / 1000, (now - ms) / 1000);
}

/**
 * The steps of {@link writeAtomic}'s replace, every one synchronous but the two flushes, which
 * it yields: first the temp file's open descriptor (a number), then the directory (a string).
 * A flush's failure is thrown back into it. Returns what `writeAtomic` returns.
 */
function* replaceSteps(file, text, guard) {
  let stat = null;
  try {
    stat = sys.statSync(file);
  } catch (error) {
    if (error.code !== "ENOENT") throw error;
  }
  const mode = existingMode(stat);
  const tmp = tempPath(file);
  const fd = sys.openSync(tmp, "wx", 0o666);
  try {
    try {
      if (mode !== null) sys.fchmodSync(fd, mode);
      sys.writeFileSync(fd, text);
      if (guard?.edited) backdate(fd, guard.backdateMs);
      yield fd;
    } finally {
      sys.closeSync(fd);
    }
    if (guard === undefined) sys.renameSync(tmp, file);
    else if (!replaceGuarded(file, tmp, guard)) {
      unlinkQuiet(tmp);
      return false;
    }
  } catch (error) {
    unlinkQuiet(tmp);
    throw error;
  }
  yield path.dirname(file);
  return true;
}

/** Flushes one step of {@link replaceSteps}: a descriptor (a number) or a directory. */
function flushSync(step) {
  if (typeof step === "number") sys.fsyncSync(step);
  else fsyncDirSync(step);
}

/** {@link flushSync} on libuv's thread pool: a promise. */
function flushOnPool(step) {
  return typeof step === "number" ? fsyncOnPool(step) : fsyncDirOnPool(step);
}

/**
 * Runs the generator `steps`, flushing each step it yields with `flush` and throwing a flush's
 * failure back into it; returns its result. A `flush` that returns a promise makes the result
 * a promise (the steps between the flushes still run synchronously).
 */
function driveSteps(steps, flush) {
  const advance = (step) => {
    while (!step.done) {
      let pending;
      try {
        pending = flush(step.value);
      } catch (error) {
        step = steps.throw(error);
        continue;
      }
      if (pending instanceof Promise) {
        return pending.then(
          () => advance(steps.next()),
          (error) => advance(steps.throw(error)),
        );
      }
      step = steps.next();
    }
    return step.value;
  };
  return advance(steps.next());
}

/**
 * Atomic replace: temp file, fsync, rename over `file`, fsync the directory. With `guard`
 * (`{stamp, edited, backdateMs}`: the write of an update, docs/locking.md § Files people
 * edit), the file is checked around the rename ({@link replaceGuarded}) and `false` returned,
 * nothing replaced, when it is no longer the one read; a file people edit is stamped
 * `backdateMs` in the past. Else (and without `guard`) `true`. `flushing`: the steps of `sync`
 * with only the two flushes awaited on libuv's thread pool (two trips, not one per call).
 */
const writeAtomic = {
  sync(file, text, guard) {
    return driveSteps(replaceSteps(file, text, guard), flushSync);
  },
  async flushing(file, text, guard) {
    return driveSteps(replaceSteps(file, text, guard), flushOnPool);
  },
  async async(file, text, guard) {
    let stat = null;
    try {
      stat = await sysp().stat(file);
    } catch (error) {
      if (error.code !== "ENOENT") throw error;
    }
    const mode = existingMode(stat);
    const tmp = tempPath(file);
    const handle = await sysp().open(tmp, "wx", 0o666);
    try {
      try {
        if (mode !== null) await handle.chmod(mode);
        await handle.writeFile(text);
        if (guard?.edited) backdate(handle.fd, guard.backdateMs);
        await handle.sync();
      } finally {
        await handle.close();
      }
      if (guard === undefined) await sysp().rename(tmp, file);
      else if (!replaceGuarded(file, tmp, guard)) {
        unlinkQuiet(tmp);
        return false;
      }
    } catch (error) {
      unlinkQuiet(tmp);
      throw error;
    }
    await fsyncDir(path.dirname(file));
    return true;
  },
};

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
