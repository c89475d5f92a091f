// Type-checks the browser entry "statecore-js/web" from an ES module (tsc --noEmit). Never run.
import init, { init as namedInit, parse, merge, machine, StatecoreError, DataError } from "statecore-js/web";
import type { Json, Report, InitInput } from "statecore-js/web";

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
