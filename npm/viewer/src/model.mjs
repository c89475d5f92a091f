// Groups the store's files into panels: one per (protocol, root, group) for fctry, Hivemind,
// hive and specify; agency's runs per root of their meta.json files (agency.mjs joins each
// run with its worktree's status file); one Files panel per root.
import { agencyPanels } from "./agency-model.mjs";

const encoder = new TextEncoder();

/** Compares two strings in the byte order of their UTF-8 encodings. */
export function byteCompare(a, b) {
  if (a === b) return 0;
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

/** The protocol of a role (`fctry.state` -> `fctry`). */
export function protocolOf(role) {
  return String(role ?? "").split(".")[0];
}

/** The panels grouped by protocol, each sorted by root then group. */
export function panelsOf(store) {
  const files = [...store.files.values()];
  const live = files.filter((f) => !f.removed);
  const groups = new Map();
  for (const file of live) {
    const protocol = protocolOf(file.role);
    if (!["fctry", "hivemind", "hive", "specify"].includes(protocol)) continue;
    const key = `${protocol}:${file.root}:${file.group}`;
    let panel = groups.get(key);
    if (!panel) {
      panel = { key, protocol, root: file.root, group: file.group, files: [] };
      groups.set(key, panel);
    }
    panel.files.push(file);
  }
  const order = (a, b) => byteCompare(a.root, b.root) || byteCompare(a.group, b.group);
  const of = (protocol) => [...groups.values()].filter((p) => p.protocol === protocol).sort(order);
  for (const panel of groups.values()) panel.files.sort((a, b) => byteCompare(a.path, b.path));

  const roots = new Map();
  for (const file of files) {
    if (!roots.has(file.root)) roots.set(file.root, []);
    roots.get(file.root).push(file);
  }
  const filePanels = [...roots.entries()]
    .sort(([a], [b]) => (a === "dir" ? -1 : b === "dir" ? 1 : byteCompare(a, b)))
    .map(([root, list]) => ({
      key: `files:${root}:`,
      protocol: "files",
      root,
      group: "",
      files: list.sort((a, b) => byteCompare(a.path, b.path)),
    }));

  return {
    fctry: of("fctry"),
    hivemind: of("hivemind"),
    hive: of("hive"),
    specify: of("specify"),
    agency: agencyPanels(live, store.hello),
    files: filePanels,
  };
}

/** A project's name: its group's last component, else the root directory's. */
export function groupName(store, panel) {
  const parts = panel.group.split("/").filter(Boolean);
  if (parts.length) return parts[parts.length - 1];
  const rootPath = panel.root === "data" ? store.hello?.data_dir : store.hello?.root;
  const rootParts = String(rootPath ?? "").split("/").filter(Boolean);
  return rootParts[rootParts.length - 1] ?? panel.root;
}

/** The file of a role in a panel (the first, when several). */
export function fileOf(panel, role) {
  return panel.files.find((f) => f.role === role) ?? null;
}
