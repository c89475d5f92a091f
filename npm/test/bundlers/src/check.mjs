// What every bundled page does with statecore once its wasm is loaded: validate a valid and
// an invalid fctry state, and check that every error class keeps its `name` in the minified
// bundle (users compare `error.name`; a minifier renames the classes themselves), then put the
// outcome on the page for the test to read.
export function check(statecore) {
  const { validate } = statecore;
  const good = validate("fctry.state", { workflowStep: "interviewer", scenarioCount: 3 });
  const bad = validate("fctry.state", { workflowStep: 3 });
  // The error classes by their export names (a namespace's keys survive minifying).
  const classes = Object.keys(statecore).filter((k) => /^[A-Z]\w*Error$/.test(k) && typeof statecore[k] === "function");
  const wrongNames = classes.filter((k) => {
    const error = new statecore[k]("x", { code: "E_X" });
    return error.name !== k || !(error instanceof statecore.StatecoreError);
  });
  // How many classes the minifier renamed: none would mean the bundle proves nothing.
  const renamed = classes.filter((k) => statecore[k].name !== k).length;
  let thrown = null;
  try {
    statecore.parse("{");
  } catch (error) {
    thrown = { name: error.name, isParseError: error instanceof statecore.ParseError, code: error.code };
  }
  document.body.dataset.result = JSON.stringify({
    good: good.valid,
    bad: bad.valid,
    code: bad.errors[0]?.code ?? null,
    classes: classes.length,
    wrongNames,
    renamed: renamed > 0,
    thrown,
  });
}

/** Puts a failure on the page (the test prints it). */
export function fail(error) {
  document.body.dataset.result = JSON.stringify({ error: String(error?.stack ?? error) });
}
