"use strict";
/**
 * `statecore-js/specify`: the specify workflow (docs/specify.md) over a feature's directory,
 * `specs/<feature>/` with its `.workflow/index.md`.
 *
 * The index's helpers (`readIndex`, `applyStateUpdates`, `addGaps`, `setGapStatus`,
 * `startClarifying`, `endIteration`, `start`, `resumePoint`, ...) come from the table
 * (lib/host/helpers.cjs): each writer is one locked update of index.md that rewrites only the cells
 * it changes. Written here: `applyArtifacts` (an agent's files, checked as a batch, each
 * written atomically). Each exists as `name` (a Promise) and `nameSync`. The Python twin is
 * `statecore.specify`.
 */
const path = require("node:path");
const { define, attempt } = require("./steps.cjs");
const documents = require("./documents.cjs");
const { HELPERS } = require("../binding/tables.cjs");
const { resolvePath } = require("./paths.cjs");
const ops = require("./helpers.cjs").helpers("specify");

/** The document kind of `index.md`. */
ops.KIND = HELPERS.specify.files[0][1];

/** `E_PATH_UNSAFE` (or `E_FILE_TYPE`) for an artifact whose way holds a link or a non-directory. */
function refused(C, index, artifact, reason, message) {
  const Class = reason === "file_type" ? C.FileTypeError : C.PathUnsafeError;
  const code = reason === "file_type" ? "E_FILE_TYPE" : "E_PATH_UNSAFE";
  return new Class(`refused artifact path ${JSON.stringify(artifact.path)}: ${message}; nothing was written`, {
    code,
    path: `/${index}/path`,
    details: { path: artifact.path, reason },
  });
}

/** What is at `file` without following a link: "missing", "link", "dir", "file" or "other". */
function* kindOf(io, file) {
  const stat = yield* attempt(() => io.lstat(file), (error) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
  if (stat === null) return "missing";
  if (stat.isSymbolicLink()) return "link";
  if (stat.isDirectory()) return "dir";
  return stat.isFile() ? "file" : "other";
}

/**
 * applyArtifacts(featureDir, artifacts, featureId): an agent's artifacts
 * (`{operation: "create" | "update" | "delete", path, content}`) applied in the feature's
 * directory. The core checks every path first (`specify.checkArtifacts`: relative, inside the
 * directory, portable, not `.workflow`); then every path is checked on disk (no symbolic link
 * on the way or at the file, no file where a directory must be); a refusal refuses the whole
 * batch before anything is written. Each file is then written atomically (a crash leaves it
 * old or new) or deleted. Returns the artifacts applied, each with `result`: `written`,
 * `deleted` or `absent` (a delete of a missing file).
 */
define(ops, "applyArtifacts", function* (io, featureDir, artifacts, featureId = null) {
  const C = documents.core();
  const checked = C.specify.checkArtifacts(artifacts, featureId ?? null);
  const root = resolvePath(featureDir, "featureDir");
  if ((yield* kindOf(io, root)) !== "dir") {
    const stat = yield io.stat(root); // ENOENT and friends surface as they are
    if (!stat.isDirectory()) throw new C.FileTypeError(`${root} is not a directory`, { code: "E_FILE_TYPE", details: { path: root, type: "file" } });
  }
  for (const [i, artifact] of checked.entries()) {
    const names = artifact.path.split("/");
    let here = root;
    for (const [j, name] of names.entries()) {
      here = path.join(here, name);
      const last = j === names.length - 1;
      const kind = yield* kindOf(io, here);
      if (kind === "missing") break;
      if (kind === "link") throw refused(C, i, artifact, "symlink", `${here} is a symbolic link`);
      if (!last && kind !== "dir") throw refused(C, i, artifact, "file_type", `${here} is not a directory`);
      if (last && kind !== "file") throw refused(C, i, artifact, "file_type", `${here} is not a regular file`);
    }
  }
  const applied = [];
  for (const artifact of checked) {
    const file = path.join(root, ...artifact.path.split("/"));
    let result;
    if (artifact.operation === "delete") {
      result = yield* attempt(
        () => io.unlink(file),
        (error) => {
          if (error.code === "ENOENT") return "absent";
          throw error;
        },
      );
      result = result === "absent" ? "absent" : "deleted";
    } else {
      yield io.mkdir(path.dirname(file));
      yield io.write(file, artifact.content);
      result = "written";
    }
    applied.push({ ...artifact, result });
  }
  return applied;
});

module.exports = ops;
