"use strict";
/**
 * File primitives of the Node host layer (ARCHITECTURE §5), each sync and async: reads that
 * treat a missing file as null, atomic replaces (temp file, fsync, rename, fsync of the
 * directory), `.corrupt-` copies that never overwrite, single-write appends. System calls only:
 * every decision is the core's (lib/documents.cjs, lib/logs.cjs call these).
 */
const fs = require("node:fs");
const fsp = require("node:fs/promises");
const path = require("node:path");
const crypto = require("node:crypto");

/** Directory fsync errors of platforms that cannot fsync a directory. */
const DIR_FSYNC_UNSUPPORTED = new Set(["EINVAL", "EISDIR", "EPERM", "ENOTSUP", "EBADF"]);

/** 32 hex digits from the platform's cryptographic random source. */
function randomToken() {
  return crypto.randomBytes(16).toString("hex");
}

function unlinkQuiet(file) {
  try {
    fs.unlinkSync(file);
  } catch (error) {
    if (error.code !== "ENOENT") throw error;
  }
}

function fsyncDirSync(dir) {
  let fd;
  try {
    fd = fs.openSync(dir, "r");
  } catch (error) {
    if (DIR_FSYNC_UNSUPPORTED.has(error.code)) return;
    throw error;
  }
  try {
    fs.fsyncSync(fd);
  } catch (error) {
    if (!DIR_FSYNC_UNSUPPORTED.has(error.code)) throw error;
  } finally {
    fs.closeSync(fd);
  }
}

async function fsyncDir(dir) {
  let handle;
  try {
    handle = await fsp.open(dir, "r");
  } catch (error) {
    if (DIR_FSYNC_UNSUPPORTED.has(error.code)) return;
    throw error;
  }
  try {
    await handle.sync();
  } catch (error) {
    if (!DIR_FSYNC_UNSUPPORTED.has(error.code)) throw error;
  } finally {
    await handle.close();
  }
}

/** The temp file name of an atomic write: `<dir>/.<name>.tmp-<token>`. */
function tempPath(file) {
  return path.join(path.dirname(file), `.${path.basename(file)}.tmp-${randomToken()}`);
}

/** The mode to give a replacement: the target's if it exists, else null (umask decides). */
function existingMode(stat) {
  return stat ? Number(stat.mode) & 0o7777 : null;
}

/** The file's bytes, or null when it does not exist. */
const readMaybe = {
  sync(file) {
    try {
      return fs.readFileSync(file);
    } catch (error) {
      if (error.code === "ENOENT") return null;
      throw error;
    }
  },
  async async(file) {
    try {
      return await fsp.readFile(file);
    } catch (error) {
      if (error.code === "ENOENT") return null;
      throw error;
    }
  },
};

/** Atomic replace: temp file, fsync, rename over `file`, fsync the directory. */
const writeAtomic = {
  sync(file, text) {
    let stat = null;
    try {
      stat = fs.statSync(file);
    } catch (error) {
      if (error.code !== "ENOENT") throw error;
    }
    const mode = existingMode(stat);
    const tmp = tempPath(file);
    const fd = fs.openSync(tmp, "wx", 0o666);
    try {
      try {
        if (mode !== null) fs.fchmodSync(fd, mode);
        fs.writeFileSync(fd, text);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      fs.renameSync(tmp, file);
    } catch (error) {
      unlinkQuiet(tmp);
      throw error;
    }
    fsyncDirSync(path.dirname(file));
  },
  async async(file, text) {
    let stat = null;
    try {
      stat = await fsp.stat(file);
    } catch (error) {
      if (error.code !== "ENOENT") throw error;
    }
    const mode = existingMode(stat);
    const tmp = tempPath(file);
    const handle = await fsp.open(tmp, "wx", 0o666);
    try {
      try {
        if (mode !== null) await handle.chmod(mode);
        await handle.writeFile(text);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fsp.rename(tmp, file);
    } catch (error) {
      unlinkQuiet(tmp);
      throw error;
    }
    await fsyncDir(path.dirname(file));
  },
};

/** Writes `bytes` to a new file `name` or `name-1`, `name-2`, ... (never an existing one). */
const writeCopy = {
  sync(name, bytes) {
    for (let n = 0; ; n++) {
      const copy = n === 0 ? name : `${name}-${n}`;
      let fd;
      try {
        fd = fs.openSync(copy, "wx", 0o644);
      } catch (error) {
        if (error.code === "EEXIST") continue;
        throw error;
      }
      try {
        fs.writeFileSync(fd, bytes);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      fsyncDirSync(path.dirname(copy));
      return copy;
    }
  },
  async async(name, bytes) {
    for (let n = 0; ; n++) {
      const copy = n === 0 ? name : `${name}-${n}`;
      let handle;
      try {
        handle = await fsp.open(copy, "wx", 0o644);
      } catch (error) {
        if (error.code === "EEXIST") continue;
        throw error;
      }
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fsyncDir(path.dirname(copy));
      return copy;
    }
  },
};

/** One O_APPEND write() of `text`, fsync; fsyncs the directory when the file is new. */
const appendOnce = {
  sync(file, text, created) {
    const fd = fs.openSync(file, "a", 0o666);
    try {
      const buffer = Buffer.from(text, "utf8");
      let done = fs.writeSync(fd, buffer);
      // A short write only happens on a full disk or similar; finish it (or fail) honestly.
      while (done < buffer.length) done += fs.writeSync(fd, buffer, done);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    if (created) fsyncDirSync(path.dirname(file));
  },
  async async(file, text, created) {
    const handle = await fsp.open(file, "a", 0o666);
    try {
      const buffer = Buffer.from(text, "utf8");
      let done = (await handle.write(buffer)).bytesWritten;
      while (done < buffer.length) done += (await handle.write(buffer, done)).bytesWritten;
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (created) await fsyncDir(path.dirname(file));
  },
};

/** Creates `file` (never an existing one: EEXIST) holding `text`, fsynced. */
const writeNew = {
  sync(file, text) {
    const fd = fs.openSync(file, "wx", 0o666);
    try {
      fs.writeFileSync(fd, text);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  },
  async async(file, text) {
    const handle = await fsp.open(file, "wx", 0o666);
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
};

/** `{data, mtime}` of one open file (mtime in whole ms), so both describe the same file. */
const readStamped = {
  sync(file) {
    const fd = fs.openSync(file, "r");
    try {
      return { mtime: Math.floor(fs.fstatSync(fd).mtimeMs), data: fs.readFileSync(fd) };
    } finally {
      fs.closeSync(fd);
    }
  },
  async async(file) {
    const handle = await fsp.open(file, "r");
    try {
      return { mtime: Math.floor((await handle.stat()).mtimeMs), data: await handle.readFile() };
    } finally {
      await handle.close();
    }
  },
};

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
  randomToken,
  unlinkQuiet,
  readMaybe,
  writeAtomic,
  writeCopy,
  appendOnce,
  writeNew,
  readStamped,
  sleep,
};
