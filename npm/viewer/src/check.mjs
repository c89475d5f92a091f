// The check of one file sent by the server: the core's `viewFile(path, data)` gives its
// check exactly as `statecore validate --json` prints it (verdict, problems with their line
// and column) with the parsed document in `check.document` (a log: its records; null when it
// does not parse). The spec has no check: its text is the document. No rule is
// re-implemented here.
import { viewFile } from "../../lib/generated/web.mjs";

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The bytes of a base64 string. */
export function fromBase64(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** UTF-8 text of bytes, or null when they are not UTF-8. */
export function decodeText(bytes) {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/** What the viewer knows of a file's bytes: `{check, document, text}`. */
export function checkFile(file, bytes) {
  const text = decodeText(bytes);
  let view;
  try {
    view = viewFile(file.path, bytes);
  } catch (error) {
    // Refused by the core as a whole (a limit, say): its error stands as the file's problem.
    const issue = { code: error?.code ?? "E_VIEW", path: error?.path ?? "", message: error?.message ?? String(error), line: null, column: null };
    return { check: { file: file.path, kind: file.kind, valid: false, errors: [issue], warnings: [] }, document: null, text };
  }
  const check = view?.check ?? null;
  const document = file.role === "fctry.spec" ? text : check?.document ?? null;
  return { check, document, text };
}

/** `valid`, `invalid`, `warnings`, `removed` or `refused` (the server did not read it). */
export function verdictOf(file) {
  if (file.removed) return "removed";
  if (file.refused) return "refused";
  const check = file.check;
  if (!check) return "valid";
  if (!check.valid || (check.errors && check.errors.length)) return "invalid";
  if (check.warnings && check.warnings.length) return "warnings";
  return "valid";
}
