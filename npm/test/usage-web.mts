// Type-checks the browser entry "statecore-js/web" from an ES module (tsc --noEmit). Never run.
import init, { init as namedInit, load, loaded, PROTOCOLS, KIND_PROTOCOL, parse, merge, machine, StatecoreError, DataError, fctry, cliRun, updateFile } from "statecore-js/web";
import type { Json, Report, InitInput, Protocol } from "statecore-js/web";

export async function webUsage(input?: InitInput): Promise<Json> {
  await init();
  await namedInit(input);
  await init(new URL("https://example.invalid/statecore_bg.wasm"));
  await init(new Uint8Array(8));
  const report: Report = machine.check({ name: "m", initial: "a", states: [{ name: "a" }], transitions: [] });
  try {
    return merge(parse("{}"), { ok: report.valid });
  } catch (e) {
    if (e instanceof DataError || e instanceof StatecoreError) return e.code;
    throw e;
  }
}

// Only the operations of the browser's module are values of this entry (lib/generated/web.d.mts): a
// reader or a derivation type-checks, a writer, the command line or a file update does not.
export function browsersModule(state: Parameters<typeof fctry.statusLine>[0]): number[] {
  const ready: number[] = fctry.readyChunks(state);
  // @ts-expect-error the writers are Node's: not in the browser's module
  fctry.startStep(state, "build");
  // @ts-expect-error the command line is not in the browser's module
  cliRun({ argv: [], env: {}, facts: {} });
  // @ts-expect-error nor are the file updates
  updateFile("fctry.state", "", null, []);
  return ready;
}

// The browser's modules per protocol: `init({ protocols })` and `load(protocol)` take the
// protocols' names only (generated from the table), `loaded()` says what is in.
export async function perProtocol(bytes: Uint8Array): Promise<string[]> {
  await init({ protocols: ["agency", "hive"] });
  await init({ protocols: ["fctry"], input: { fctry: bytes } });
  await load("specify");
  await load("hivemind", new URL("https://example.invalid/x.wasm"));
  const protocol: Protocol = PROTOCOLS[0];
  const kindProtocol: Protocol | undefined = KIND_PROTOCOL["agency.runner_status"];
  // @ts-expect-error not a protocol
  await load("agnecy");
  // (a misspelt option or protocol of init's options object is caught at run time: a
  // WebAssembly.Module, which init also takes, is an empty interface to TypeScript)
  return [...loaded(), protocol, kindProtocol ?? ""];
}
