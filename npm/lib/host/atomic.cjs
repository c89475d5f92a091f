"use strict";
/**
 * File primitives of the Node host layer (docs/locking.md), each written once over a table of
 * descriptor calls (`FD`) and run sync or async (lib/host/drive.cjs): reads that treat a
 * missing file as null, single-write appends, truncation, create-only writes. System calls
 * only: every decision is the core's (lib/host/documents.cjs, lib/host/logs.cjs call these).
 */
const fs = require("node:fs");
const path = require("node:path");
const { both } = require("./drive.cjs");

/**
 * The fault-injection seam (docs/locking.md § Fault injection): every system call of the host
 * layer goes through `sys` / `sysp`, which first report the step (`open`, `write`, `fsync`,
 * `close`, `rename`, `link`, `unlink`, `truncate`, `chmod`, `utime`, `stat`, `read`) to the injector set
 * by `setFaultInjector(fn)`; `fn(step)` may throw (an `ENOSPC` error, say) to fail that call.
 * Tests use it to fail every step of an update and an append; `null` (the default) injects
 * nothing.
 */
let injector = null;

/** Sets (or with null clears) the fault injector: `fn(step)` runs before each system call. */
function setFaultInjector(fn) {
  injector = typeof fn === "function" ? fn : null;
}

const STEP_NAMES = { writeFile: "write", sync: "fsync", ftruncate: "truncate", fchmod: "chmod", fstat: "stat", lstat: "stat", readFile: "read", futimes: "utime", utimes: "utime" };

/** The step a system call `name` (`openSync`, `writeFile`, ...) reports. */
function stepOf(name) {
  const bare = name.endsWith("Sync") ? name.slice(0, -4) : name;
  return STEP_NAMES[bare] ?? bare;
}

/** `target`'s functions, each reporting its step to the injector first (a FileHandle too). */
function faulty(target) {
  return new Proxy(target, {
    get(object, key) {
      const value = object[key];
      if (typeof value !== "function" || typeof key !== "string") return value;
      return (...args) => {
        if (injector !== null) injector(stepOf(key));
        const result = value.apply(object, args);
        return key === "open" && result instanceof Promise ? result.then(faulty) : result;
      };
    },
  });
}

/**
 * The synchronous and promise-based file systems of the host layer, behind the seam. The
 * promise-based one (and `node:crypto`, below) loads on first use: a status-line script that
 * reads one file synchronously does not pay for them at start (bench Node (4)).
 */
const sys = faulty(fs);
let promised = null;
const sysp = () => (promised ??= faulty(fs.promises));

/** Directory fsync errors of platforms that cannot fsync a directory. */
const DIR_FSYNC_UNSUPPORTED = new Set(["EINVAL", "EISDIR", "EPERM", "ENOTSUP", "EBADF"]);

const RANDOM_POOL_BYTES = 4096;
let randomPool = null;
let randomAt = RANDOM_POOL_BYTES;
/**
 * `n` (≤ 4096) bytes from the platform's cryptographic random source, drawn from a pool filled
 * 4 KB at a time: a lock token and a temp file name each cost a call of their own otherwise
 * (about 5 % of an uncontended locked update's time). Bytes are never handed out twice.
 */
function randomBytes(n) {
  if (randomAt + n > RANDOM_POOL_BYTES) {
    randomPool = require("node:crypto").randomBytes(RANDOM_POOL_BYTES);
    randomAt = 0;
  }
  randomAt += n;
  return randomPool.subarray(randomAt - n, randomAt);
}

/** 32 hex digits from the platform's cryptographic random source. */
function randomToken() {
  return randomBytes(16).toString("hex");
}

function unlinkQuiet(file) {
  try {
    sys.unlinkSync(file);
  } catch (error) {
    if (error.code !== "ENOENT") throw error;
  }
}

/**
 * Opens the directory `dir` and flushes it with `flush(fd)`, then closes it; a platform that
 * cannot fsync a directory is passed over. A `flush` that returns a promise makes the result one.
 */
function flushDir(dir, flush) {
  let fd;
  try {
    fd = sys.openSync(dir, "r");
  } catch (error) {
    if (DIR_FSYNC_UNSUPPORTED.has(error.code)) return undefined;
    throw error;
  }
  const finish = (error) => {
    sys.closeSync(fd);
    if (error !== null && !DIR_FSYNC_UNSUPPORTED.has(error.code)) throw error;
  };
  let pending;
  try {
    pending = flush(fd);
  } catch (error) {
    return finish(error);
  }
  return pending instanceof Promise ? pending.then(() => finish(null), finish) : finish(null);
}

/** fsync of the directory `dir`, blocking. */
function fsyncDirSync(dir) {
  flushDir(dir, (fd) => sys.fsyncSync(fd));
}

/** fsync of the open file `fd` on libuv's thread pool (the event loop goes on meanwhile). */
function fsyncOnPool(fd) {
  return new Promise((resolve, reject) => sys.fsync(fd, (error) => (error ? reject(error) : resolve())));
}

/** {@link fsyncDirSync} with the flush itself on libuv's thread pool. */
function fsyncDirOnPool(dir) {
  return Promise.resolve(flushDir(dir, fsyncOnPool));
}

/** fsync of the directory `dir` for an async routine: a promise (the flush on the pool). */
const fsyncDir = fsyncDirOnPool;

/**
 * The descriptor calls the file primitives below are written over, once: `sync` on numbers,
 * `async` on FileHandles (promises), both behind the fault seam ({@link both} runs a
 * primitive on either).
 */
const FD = Object.freeze({
  sync: Object.freeze({
    open: (file, flags, mode) => sys.openSync(file, flags, mode),
    stat: (fd, options) => sys.fstatSync(fd, options),
    read: (fd, buffer, at, length, position) => sys.readSync(fd, buffer, at, length, position),
    write: (fd, buffer, at) => sys.writeSync(fd, buffer, at),
    writeAll: (fd, data) => sys.writeFileSync(fd, data),
    readAll: (fd) => sys.readFileSync(fd),
    chmod: (fd, mode) => sys.fchmodSync(fd, mode),
    truncate: (fd, length) => sys.ftruncateSync(fd, length),
    flush: (fd) => sys.fsyncSync(fd),
    close: (fd) => sys.closeSync(fd),
    flushDir: (dir) => fsyncDirSync(dir),
    backdate: (fd, atime, mtime) => sys.futimesSync(fd, atime, mtime),
    statFile: (file) => sys.statSync(file),
    lstatFile: (file) => sys.lstatSync(file),
    rename: (from, to) => sys.renameSync(from, to),
  }),
  async: Object.freeze({
    open: (file, flags, mode) => sysp().open(file, flags, mode),
    stat: (handle, options) => handle.stat(options),
    read: async (handle, buffer, at, length, position) =>
      (await handle.read(buffer, at, length, position)).bytesRead,
    write: async (handle, buffer, at) => (await handle.write(buffer, at)).bytesWritten,
    writeAll: (handle, data) => handle.writeFile(data),
    readAll: (handle) => handle.readFile(),
    chmod: (handle, mode) => handle.chmod(mode),
    truncate: (handle, length) => handle.truncate(length),
    flush: (handle) => handle.sync(),
    close: (handle) => handle.close(),
    flushDir: (dir) => fsyncDirOnPool(dir),
    backdate: (handle, atime, mtime) => handle.utimes(atime, mtime),
    statFile: (file) => sysp().stat(file),
    lstatFile: (file) => sysp().lstat(file),
    rename: (from, to) => sysp().rename(from, to),
  }),
});

/**
 * {@link FD}'s synchronous calls with the two flushes on libuv's thread pool (promises): a
 * write that makes two trips to the pool, not one per call (the Hivemind watcher's).
 */
const POOLED = Object.freeze({ ...FD.sync, flush: fsyncOnPool, flushDir: fsyncDirOnPool });

/** `{sync, async}` of a primitive written once over {@link FD}. */
const twice = (routine) => both(routine, FD);

/** The temp file name of an atomic write: `<dir>/.<name>.tmp-<token>`. */
function tempPath(file) {
  return path.join(path.dirname(file), `.${path.basename(file)}.tmp-${randomToken()}`);
}

/** The mode to give a replacement: the target's if it exists, else null (umask decides). */
function existingMode(stat) {
  return stat ? Number(stat.mode) & 0o7777 : null;
}

const { O_RDONLY, O_WRONLY, O_APPEND, O_CREAT, O_NONBLOCK, O_NOFOLLOW } = fs.constants;

/** What a file that is not a regular file is, for `E_FILE_TYPE` (null: a regular file). */
function fileType(stat) {
  if (stat.isFile()) return null;
  if (stat.isFIFO()) return "fifo";
  if (stat.isCharacterDevice()) return "character device";
  if (stat.isBlockDevice()) return "block device";
  if (stat.isDirectory()) return "directory";
  if (stat.isSocket()) return "socket";
  return stat.isSymbolicLink() ? "symbolic link" : "special file";
}

/** Raises the core's `E_FILE_TYPE` for `file` when `stat` is not a regular file. */
function requireRegular(file, stat) {
  const what = fileType(stat);
  if (what !== null) require("../generated/core-node.cjs").fileTypeError(file, what);
}

/** `open()` flags of a read: never blocks on a FIFO; `noFollow` refuses a symbolic link. */
function readFlags(noFollow) {
  return O_RDONLY | O_NONBLOCK | (noFollow ? O_NOFOLLOW : 0);
}

/** ELOOP of an O_NOFOLLOW open: the core's `E_FILE_TYPE` for a symbolic link. */
function refuseLink(file, error) {
  if (error.code === "ELOOP") require("../generated/core-node.cjs").fileTypeError(file, "symbolic link");
  throw error;
}

/**
 * How many bytes to ask for next (at most `limit` in all), reading from byte `from`: the size
 * left and one byte, then 64 KiB chunks.
 */
function nextChunk(stat, total, limit, from = 0) {
  // The expected size and one more byte (which shows the end), then chunks while it grows.
  const size = Math.max(0, Number(stat.size) - from);
  return Math.min(total <= size ? size + 1 - total : 65536, limit - total);
}

/** The chunks read, as one Buffer. */
function joined(chunks, total) {
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total);
}

const BIG = Object.freeze({ bigint: true });

/**
 * A file's identity as a writer compares it (docs/locking.md § Files people edit): device,
 * inode, size and modification time to the nanosecond, from a `{bigint: true}` stat; null for
 * no file. Two stamps are equal exactly when nothing wrote the file between (the change time
 * is left out: the writer's own hard link changes it).
 */
function stampOf(stat) {
  return stat === null ? null : `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}`;
}

/** A stamped read of a missing file. */
const ABSENT = Object.freeze({ bytes: null, stamp: null, ageMs: null });

/** `{bytes, stamp, ageMs}`: the bytes, the file's stamp, and how long ago it last changed (ms). */
function withStamp(bytes, stat) {
  const ageMs = Number(BigInt(Date.now()) * 1000000n - stat.mtimeNs) / 1e6;
  return { bytes, stamp: stampOf(stat), ageMs };
}

/**
 * The bytes of the regular file `file` (at most `cap` + 1 of them when `cap` is a number, so a
 * reader never holds more than the limit), or null when it does not exist; from byte `from`
 * on when given (a page of a log). A FIFO, device or directory is `E_FILE_TYPE` at once: it is
 * opened without blocking and checked with fstat; `noFollow` refuses a symbolic link.
 * `stamped`: `{bytes, stamp, ageMs}` instead (`bytes` null for a missing file): the file's
 * identity read with the bytes ({@link stampOf}), for a writer's check before its replace.
 */
const readMaybe = twice(function* (io, file, cap = null, noFollow = false, stamped = false, from = 0) {
  let fd;
  try {
    fd = yield io.open(file, readFlags(noFollow));
  } catch (error) {
    if (error.code === "ENOENT") return stamped ? ABSENT : null;
    return refuseLink(file, error);
  }
  try {
    const stat = yield io.stat(fd, stamped ? BIG : undefined);
    requireRegular(file, stat);
    const limit = cap === null ? Infinity : cap + 1;
    const chunks = [];
    let total = 0;
    for (let want; (want = nextChunk(stat, total, limit, from)) > 0; ) {
      const chunk = Buffer.allocUnsafe(want);
      const got = yield io.read(fd, chunk, 0, want, from === 0 ? null : from + total);
      if (got === 0) break;
      chunks.push(chunk.subarray(0, got));
      total += got;
    }
    return stamped ? withStamp(joined(chunks, total), stat) : joined(chunks, total);
  } finally {
    yield io.close(fd);
  }
});

/** `file` opened with `flags` (never through a symbolic link: `E_FILE_TYPE`), for writing. */
function* openWriting(io, file, flags, mode) {
  try {
    return yield io.open(file, flags | O_NOFOLLOW, mode);
  } catch (error) {
    return refuseLink(file, error);
  }
}

/** One O_APPEND write() of `text`, fsync; fsyncs the directory when the file is new. */
const appendOnce = twice(function* (io, file, text, created) {
  const fd = yield* openWriting(io, file, O_WRONLY | O_APPEND | O_CREAT, 0o666);
  try {
    const buffer = Buffer.from(text, "utf8");
    let done = yield io.write(fd, buffer);
    // A short write only happens on a full disk or similar; finish it (or fail) honestly.
    while (done < buffer.length) done += yield io.write(fd, buffer, done);
    yield io.flush(fd);
  } finally {
    yield io.close(fd);
  }
  if (created) yield io.flushDir(path.dirname(file));
});

/** Cuts `file` to `length` bytes through a descriptor that never follows a symbolic link. */
const truncate = twice(function* (io, file, length) {
  const fd = yield* openWriting(io, file, O_WRONLY);
  try {
    yield io.truncate(fd, length);
    yield io.flush(fd);
  } finally {
    yield io.close(fd);
  }
});

/** Creates `file` (never an existing one: EEXIST) holding `text`, fsynced. */
const writeNew = twice(function* (io, file, text) {
  const fd = yield io.open(file, "wx", 0o666);
  try {
    yield io.writeAll(fd, text);
    yield io.flush(fd);
  } finally {
    yield io.close(fd);
  }
});

/**
 * `{data, mtime}` of one open file (mtime in whole ms), so both describe the same file. It is
 * opened without blocking; anything but a regular file is the core's `E_FILE_TYPE`.
 */
const readStamped = twice(function* (io, file) {
  const fd = yield io.open(file, readFlags(false));
  try {
    const stat = yield io.stat(fd);
    requireRegular(file, stat);
    return { mtime: Math.floor(stat.mtimeMs), data: yield io.readAll(fd) };
  } finally {
    yield io.close(fd);
  }
});

const sleepCell = new Int32Array(new SharedArrayBuffer(4));

/** Waits `ms` milliseconds (sync: blocks the thread; async: a timer). */
const sleep = {
  sync(ms) {
    Atomics.wait(sleepCell, 0, 0, ms);
  },
  async(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
  },
};

module.exports = {
  sys,
  FD,
  POOLED,
  twice,
  tempPath,
  existingMode,
  BIG,
  fsyncOnPool,
  fsyncDirOnPool,
  fsyncDir,
  fsyncDirSync,
  sysp,
  setFaultInjector,
  randomBytes,
  randomToken,
  unlinkQuiet,
  fileType,
  requireRegular,
  refuseLink,
  readFlags,
  readMaybe,
  truncate,
  appendOnce,
  writeNew,
  readStamped,
  stampOf,
  sleep,
};
