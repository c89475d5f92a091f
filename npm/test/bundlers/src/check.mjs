// What every bundled page does with statecore once its wasm is loaded: validate a valid and
// an invalid fctry state, and put the outcome on the page for the test to read.
export function check({ validate }) {
  const good = validate("fctry.state", { workflowStep: "interviewer", scenarioCount: 3 });
  const bad = validate("fctry.state", { workflowStep: 3 });
  document.body.dataset.result = JSON.stringify({
    good: good.valid,
    bad: bad.valid,
    code: bad.errors[0]?.code ?? null,
  });
}

/** Puts a failure on the page (the test prints it). */
export function fail(error) {
  document.body.dataset.result = JSON.stringify({ error: String(error?.stack ?? error) });
}
