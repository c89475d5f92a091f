"use strict";
/**
 * `.corrupt-` copies (docs/locking.md § Corrupt copies): a new file, never an existing one and
 * never through a link, with the mode of the file it copies, fsynced. Every system call goes
 * through the fault-injection seam of ./atomic.cjs.
 */
const fs = require("node:fs");
const path = require("node:path");
const { sys, twice, unlinkQuiet, readMaybe } = require("./atomic.cjs");

const { O_WRONLY, O_CREAT, O_NOFOLLOW } = fs.constants;

/**
 * The permission bits a copy of `original` is made with (docs/locking.md § Corrupt copies):
 * the original's, read with `lstat` (a link is not followed), or 0600 when it is gone or not
 * a regular file.
 */
function copyMode(original) {
  try {
    const stat = original === null ? null : sys.lstatSync(original);
    return stat?.isFile() ? stat.mode & 0o777 : 0o600;
  } catch {
    return 0o600;
  }
}

/** Flags of a new copy: created, never an existing file, never through a link. */
const COPY_FLAGS = O_WRONLY | O_CREAT | fs.constants.O_EXCL | O_NOFOLLOW;

/**
 * Writes `bytes` to a new file `name` or `name-1`, `name-2`, ... (never an existing one, never
 * through a link: `O_CREAT|O_EXCL|O_NOFOLLOW`) with the mode of the file `original` it copies
 * (`copyMode`: set exactly, whatever the umask), fsynced.
 */
const writeCopy = twice(function* (io, name, bytes, original = null) {
  const mode = copyMode(original);
  for (let n = 0; ; n++) {
    const copy = n === 0 ? name : `${name}-${n}`;
    let fd;
    try {
      fd = yield io.open(copy, COPY_FLAGS, mode);
    } catch (error) {
      if (error.code === "EEXIST" || error.code === "ELOOP") continue;
      throw error;
    }
    try {
      try {
        yield io.chmod(fd, mode);
        yield io.writeAll(fd, bytes);
        yield io.flush(fd);
      } finally {
        yield io.close(fd);
      }
    } catch (error) {
      unlinkQuiet(copy); // never a partial copy
      throw error;
    }
    yield io.flushDir(path.dirname(copy));
    return copy;
  }
});

/**
 * Copies the regular file `file` whole to a new file `name` or `name-1`, ... (never an existing
 * one, never through a link), with `file`'s mode, fsynced: a document's `.corrupt-` copy,
 * which a capped read could not hold.
 */
const copyFile = Object.freeze({
  sync: (file, name) => writeCopy.sync(name, readMaybe.sync(file) ?? Buffer.alloc(0), file),
  async: async (file, name) => writeCopy.async(name, (await readMaybe.async(file)) ?? Buffer.alloc(0), file),
});

module.exports = { writeCopy, copyFile };
