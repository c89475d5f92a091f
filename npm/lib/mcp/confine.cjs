"use strict";
/**
 * Confinement to DIR without a window between the check and the use (docs/mcp.md § Confined
 * to DIR): each directory on a path is opened with `O_DIRECTORY | O_NOFOLLOW` relative to the
 * one before it, from DIR's own descriptor, so the check is the open; the library is then given
 * the path through the last directory's descriptor (`/proc/self/fd/N/...`), which names the
 * directory that was opened even if a link is put in place of one of its names afterwards. A
 * file read is opened `O_NOFOLLOW` in the pinned directory and read from that descriptor. Where
 * the system has no `/proc/self/fd` (not Linux), the names are checked with `lstat` and used
 * as they are. The npm twin of python/statecore/_mcp/confine.py.
 */
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;
/** The directory of this process's descriptors, when the system has one to open through. */
const FD_DIR = (() => {
  try {
    return process.platform === "linux" && fs.statSync("/proc/self/fd").isDirectory() ? "/proc/self/fd" : null;
  } catch {
    return null;
  }
})();

/** Test seam: called after the path is pinned and before it is used (a test swaps a link in). */
const seams = { afterCheck: null };

/**
 * The directories of `names` below `root` pinned: `{at, real, rest, close}` where `at` is the
 * path through the deepest existing directory's descriptor, `real` that directory's own path,
 * and `rest` the names below it that do not exist yet (a write creates them). `check(stat, i)` is the caller's test of the entry at
 * `names[i]` (a link or a special file refused), given its `lstat` when it is not a directory
 * that could be opened. Without `/proc/self/fd`: `at` is the plain path, nothing is open.
 */
function pinDirs(root, names, check) {
  if (FD_DIR === null) return { at: root, real: root, rest: names, close: () => undefined };
  const fds = [fs.openSync(root, O_RDONLY | O_DIRECTORY)];
  const close = () => {
    for (const fd of fds.splice(0)) fs.closeSync(fd);
  };
  try {
    for (let i = 0; i < names.length; i += 1) {
      const parent = `${FD_DIR}/${fds[fds.length - 1]}`;
      try {
        fds.push(fs.openSync(`${parent}/${names[i]}`, O_RDONLY | O_DIRECTORY | O_NOFOLLOW));
      } catch (error) {
        if (error.code === "ENOENT") {
          return { at: parent, real: path.join(root, ...names.slice(0, i)), rest: names.slice(i), close };
        }
        if (error.code !== "ELOOP" && error.code !== "ENOTDIR") throw error;
        check(fs.lstatSync(`${parent}/${names[i]}`), i);
        throw error; // `check` refuses every entry that is not a directory
      }
    }
    return { at: `${FD_DIR}/${fds[fds.length - 1]}`, real: path.join(root, ...names), rest: [], close };
  } catch (error) {
    close();
    throw error;
  }
}

/**
 * A protocol helper's directory pinned, for a helper that names its own folders `sub` below
 * it (`.fctry`, `.agency/state`; none: `pinDirs` of `dirNames`): `{at, real, rest, maps,
 * close}` where `at` is a private directory of this call in which `sub` leads, through a link
 * of the server's own, to the pinned folder (`/proc/self/fd/N`), so the helper's every open,
 * lock and rename below `at` happens in the folder that was checked. A `write` creates the
 * folders first, as the helper would; a read of a folder that does not exist finds an empty
 * one (no file, as it was checked).
 */
function pinHelper(root, dirNames, sub, write, check) {
  if (FD_DIR === null || sub.length === 0) return pinDirs(root, dirNames, check);
  const names = [...dirNames, ...sub];
  let pinned = pinDirs(root, names, check);
  while (write && pinned.rest.length > 0) {
    try {
      fs.mkdirSync(`${pinned.at}/${pinned.rest[0]}`);
    } catch (error) {
      if (error.code !== "EEXIST") {
        pinned.close();
        throw error;
      }
    }
    pinned.close();
    pinned = pinDirs(root, names, check);
  }
  let farm;
  try {
    farm = pinned.rest.length === 0 ? farms.take(sub, pinned.at) : farms.empty(sub);
  } catch (error) {
    pinned.close();
    throw error;
  }
  const real = path.join(root, ...dirNames);
  return {
    at: farm.dir,
    real,
    rest: [],
    maps: [[farm.dir, real], [pinned.at, pinned.real]],
    close: () => {
      farm.release();
      pinned.close();
    },
  };
}

/** The text of the pid namespace's link (`/proc/self/ns/pid`), or null. */
const NS_LINK = (() => {
  try {
    return fs.readlinkSync("/proc/self/ns/pid");
  } catch {
    return null;
  }
})();

/**
 * The core's reading of the temp directory's `names` (the private directories' names: this
 * process's prefix, and the others' of its pid namespace that may be stale).
 */
function farmNames(names) {
  return require("../generated/core-node.cjs").mcpFarms(names, NS_LINK, process.pid);
}

/**
 * Removes the private directories that processes gone without cleaning up left (killed): ours
 * (this user's, real directories, not links) whose process no longer exists.
 */
function sweepFarms() {
  let names;
  try {
    names = fs.readdirSync(os.tmpdir());
  } catch {
    return;
  }
  for (const { name, pid } of farmNames(names).stale) {
    const full = path.join(os.tmpdir(), name);
    try {
      const info = fs.lstatSync(full);
      if (!info.isDirectory() || info.uid !== process.geteuid()) continue;
      process.kill(pid, 0);
    } catch (error) {
      if (error.code === "ESRCH") fs.rmSync(full, { recursive: true, force: true });
    }
  }
}

/**
 * The private directories of helper calls (`pinHelper`): a directory of this process's own
 * (`statecore-mcp-call-*`, mode 0700) in which `sub` is a link to the call's pinned folder. A
 * call's directory is kept for the next call with the same `sub`, its link pointed anew (a new
 * link renamed over the old), so a call makes two system calls, not a directory tree; they are
 * removed when the process exits, and those of a process killed by the next server's first call
 * (`sweepFarms`). A read of a folder that does not exist gets a directory of
 * its own with an empty `sub`, removed after the call.
 */
const farms = {
  free: new Map(),
  all: new Set(),
  make(sub) {
    if (this.all.size === 0) sweepFarms();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), farmNames([]).prefix));
    if (this.all.size === 0) process.once("exit", () => this.all.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
    this.all.add(dir);
    try {
      fs.mkdirSync(path.dirname(path.join(dir, ...sub)), { recursive: true });
    } catch (error) {
      this.drop(dir);
      throw error;
    }
    return dir;
  },
  drop(dir) {
    this.all.delete(dir);
    fs.rmSync(dir, { recursive: true, force: true });
  },
  /** A directory whose `sub` links to `target`; `release()` keeps it for the next call. */
  take(sub, target) {
    const key = sub.join("/");
    const kept = this.free.get(key)?.pop();
    const dir = kept ?? this.make(sub);
    const link = path.join(dir, ...sub);
    try {
      fs.symlinkSync(target, `${link}.next`);
      fs.renameSync(`${link}.next`, link);
    } catch (error) {
      this.drop(dir);
      if (error.code === "ENOENT" && kept !== undefined) return this.take(sub, target); // removed by someone else: a new one
      throw error;
    }
    return {
      dir,
      release: () => {
        if (!this.free.has(key)) this.free.set(key, []);
        this.free.get(key).push(dir);
      },
    };
  },
  /** A directory with an empty `sub`, removed on `release()`. */
  empty(sub) {
    const dir = this.make(sub);
    try {
      fs.mkdirSync(path.join(dir, ...sub));
    } catch (error) {
      this.drop(dir);
      throw error;
    }
    return { dir, release: () => this.drop(dir) };
  },
};

/**
 * Runs `use(file)` with the path `file` of `names` below `root` through pinned directories
 * (`pinDirs`; the last name not opened: the library writes it by rename, never through a
 * link). `check` as for `pinDirs`; the descriptors are closed once `use` settles.
 */
async function withPinned(root, names, check, use) {
  const pinned = pinDirs(root, names.slice(0, -1), check);
  return usePinned(root, names, pinned, () => use(path.posix.join(pinned.at, ...pinned.rest, names[names.length - 1])));
}

/**
 * Runs `run()` with the directories `pinned` (of `names` below `root`), then closes them; a
 * message or a `corruptCopy` naming the pinned path names the real one (as without pinning).
 */
async function usePinned(root, names, pinned, run) {
  const maps = (pinned.maps ?? [[pinned.at, pinned.real]]).filter(([at, real]) => at !== real);
  const unpin = (text) => maps.reduce((out, [at, real]) => out.split(at).join(real), text);
  try {
    if (seams.afterCheck !== null) await seams.afterCheck(names);
    const result = await run();
    if (result !== null && typeof result === "object" && typeof result.corruptCopy === "string") {
      result.corruptCopy = unpin(result.corruptCopy);
    }
    return result;
  } catch (error) {
    if (typeof error?.message === "string") error.message = unpin(error.message);
    throw error;
  } finally {
    pinned.close();
  }
}

/**
 * Runs `run()` with every directory of `pins` pinned (a host routine's paths, each of
 * `namesList`), then closes them all; every string of the result, and a message, naming a
 * pinned path names the real one (a routine may answer with the paths it made).
 */
async function usePinnedAll(pins, namesList, run) {
  const maps = pins
    .flatMap((p) => p.maps ?? [[p.at, p.real]])
    .filter(([at, real]) => at !== real)
    .sort((a, b) => b[0].length - a[0].length);
  const unpin = (text) => maps.reduce((out, [at, real]) => out.split(at).join(real), text);
  const deep = (value) => {
    if (typeof value === "string") return unpin(value);
    if (Array.isArray(value)) return value.map(deep);
    if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, deep(item)]));
    }
    return value;
  };
  try {
    for (const names of namesList) if (seams.afterCheck !== null) await seams.afterCheck(names);
    return deep(await run());
  } catch (error) {
    if (typeof error?.message === "string") error.message = unpin(error.message);
    throw error;
  } finally {
    for (const pinned of pins) pinned.close();
  }
}

/**
 * The bytes of the regular file `file` (a path through pinned directories), opened without
 * following a link and without blocking: null when it does not exist. `check(stat)` refuses
 * a link or a special file (given its `lstat`); at most `limit` bytes are read.
 */
function readPinned(file, check, limit) {
  let fd;
  try {
    fd = fs.openSync(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    if (error.code === "ENOENT") return null;
    if (error.code === "ELOOP") check(fs.lstatSync(file));
    throw error;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) check(stat);
    const chunks = [];
    let total = 0;
    const buffer = Buffer.alloc(64 * 1024);
    for (;;) {
      const got = fs.readSync(fd, buffer, 0, Math.min(buffer.length, limit - total), null);
      if (got === 0) break;
      chunks.push(Buffer.from(buffer.subarray(0, got)));
      total += got;
      if (total >= limit) break;
    }
    return Buffer.concat(chunks);
  } finally {
    fs.closeSync(fd);
  }
}

module.exports = { pinDirs, pinHelper, withPinned, usePinned, usePinnedAll, readPinned, seams, FD_DIR };
