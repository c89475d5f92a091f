// Type-checks the host routines and the types they give (tsc --noEmit -p tsconfig.json), all
// generated from the core's host-routine table (lib/generated/host-api.d.ts, each protocol's lib/*.d.ts).
// Never executed. Each `@ts-expect-error` line must fail to type-check: a misspelt option, a
// field in the other language's spelling, a document of the wrong kind are compile errors.
import {
  readDocumentSync, updateDocument, updateDocumentSync, appendLine, appendLineSync, repairLog,
  repairLogSync, readLogSync, acquireLockSync, watch,
} from "statecore-js";
import type {
  AppendLineResult, RepairLogResult, ReadLogResult, DocumentFile, FileResult, LoggedResult,
  FctryState, HiveState, HiveStep, Json, Lock, RunSnapshot, Watcher,
} from "statecore-js";
import * as hive from "statecore-js/hive";
import * as specify from "statecore-js/specify";
import type { AppliedArtifact } from "statecore-js/specify";
import * as agency from "statecore-js/agency";
import { FileStore, PostgresStore } from "statecore-js/store";
import type { DocumentStore, StoreAppend } from "statecore-js/store";

export async function hostUsage(): Promise<void> {
  // A document's type follows its kind (DocumentOf<K> survives the generation).
  const read: DocumentFile<FctryState> = readDocumentSync("/tmp/s.json", "fctry.state");
  const state: FctryState = read.document;
  // @ts-expect-error: a fctry state's specVersion is not a number
  const wrong: number = readDocumentSync("/tmp/s.json", "fctry.state").document.specVersion;
  // @ts-expect-error: a misspelt read option (it is `bigint`)
  readDocumentSync("/tmp/s.json", "json", { bigInt: true });

  const updated: FileResult<FctryState> = updateDocumentSync("/tmp/s.json", "fctry.state", (d) => ({ ...d, specVersion: "2" }));
  // @ts-expect-error: a misspelt kind
  updateDocumentSync("/tmp/s.json", "fctry.stat", {});
  // @ts-expect-error: merge options apply to a patch only
  updateDocumentSync("/tmp/s.json", "json", (d) => d, { strategy: "deep" });
  // @ts-expect-error: a misspelt host option of an update (it is `ifMatch`)
  await updateDocument("/tmp/s.json", "json", { a: 1 }, null, { ifmatch: null });
  // @ts-expect-error: a plain update has no operation result
  updated.result;
  const copy: string | null = updated.corruptCopy;
  // @ts-expect-error: the Python spelling of a field is not the JS one
  updated.corrupt_copy;

  const appended: AppendLineResult = appendLineSync("/tmp/l.jsonl", { type: "x" }, { timeout: 10 });
  // @ts-expect-error: a misspelt append option (it is `timeout`)
  await appendLine("/tmp/l.jsonl", { type: "x" }, { timout: 10 });
  const repaired: RepairLogResult = await repairLog("/tmp/l.jsonl");
  const torn: number | null = repaired.tornLine ?? repairLogSync("/tmp/l.jsonl").tornLine;
  const log: ReadLogResult = readLogSync("/tmp/l.jsonl");
  const records: Json[] = log.records;
  const lock: Lock = acquireLockSync("/tmp/s.json", null);
  const watcher: Watcher = watch("/tmp", "fctry.state", (change) => void change.kind, { initial: false });

  // The protocols' host parts.
  const created: LoggedResult<HiveState, HiveStep> = hive.createSessionDirSync("/tmp/s", "id", "task");
  const step: HiveStep = created.result;
  const recovered: number | undefined = created.recovered?.events;
  // @ts-expect-error: the recovery's state is left out of a logged result
  created.recovered?.state;
  // @ts-expect-error: a misspelt session option (SessionOptions, generated)
  hive.createSessionDirSync("/tmp/s", "id", "task", { timout: 1000 });
  // @ts-expect-error: a reader helper takes a store only (ReaderOptions, generated)
  await hive.checkWorkerHealth("/tmp/s/id", null, { timeout: 1 });
  const health = await hive.checkSessions("/tmp/s", { timeoutMs: 1000 });
  const applied: AppliedArtifact[] = specify.applyArtifactsSync("/tmp/f", [{ operation: "create", path: "a.md", content: "x" }]);
  // @ts-expect-error: an applied artifact's result is written, deleted or absent
  const overwritten: AppliedArtifact["result"] = "overwritten";
  const snap: RunSnapshot = await agency.snapshot("/tmp/w", null, { tmuxActive: true });
  const made: "created" | "exists" = agency.writeProtocolDocumentSync("/tmp/r");
  void [appended, state, wrong, copy, torn, records, lock, watcher, step, recovered, health, applied, overwritten, snap, made];

  // The stores (lib/generated/store.d.ts, from the core's table of the stores' API).
  const files: DocumentStore = new FileStore("/tmp/root");
  const doc: FctryState = (await files.read("a/.fctry/state.json", "fctry.state")).document;
  const put: FileResult<FctryState> = await files.update("a/.fctry/state.json", "fctry.state", (d) => ({ ...d, specVersion: "3" }));
  // @ts-expect-error: merge options apply to a patch only
  await files.update("a/.fctry/state.json", "fctry.state", (d) => d, { strategy: "deep" });
  // @ts-expect-error: a misspelt host option of a store's update (it is `ifMatch`)
  await files.update("a.json", "json", { a: 1 }, null, { ifmatch: null });
  const line: AppendLineResult = await new FileStore().append("e.jsonl", "hive.event", { type: "x" }, { timeout: 5 });
  const rows = await PostgresStore.connect({ connectionString: "postgresql://x", max: 2 });
  const once: StoreAppend = await rows.append("e", "hive.event", {}, { id: "w-1" });
  // @ts-expect-error: a misspelt option of a log read (it is `after`)
  await rows.readLog("e", { afer: 1 });
  const stop = await rows.watch("a/", null, (change) => void change.kind, { initial: false, onError: () => {} });
  await stop.close();
  void [doc, put, line, once];
}
