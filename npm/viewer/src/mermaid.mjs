// Mermaid, loaded only when a diagram is drawn (it is big: a dynamic import, its own chunks),
// with `securityLevel: "strict"`; renders run one at a time and are cached by their text.
let loading = null;
let queue = Promise.resolve();
let counter = 0;
const cache = new Map();

/** The Mermaid module, initialized once. */
function load() {
  if (!loading) {
    loading = import("mermaid").then(({ default: mermaid }) => {
      mermaid.initialize({
        startOnLoad: false,
        securityLevel: "strict",
        theme: "neutral",
        fontFamily: "system-ui, -apple-system, 'Segoe UI', sans-serif",
        htmlLabels: false,
        flowchart: { htmlLabels: false },
        state: { useMaxWidth: true },
      });
      return mermaid;
    });
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}

/** The SVG text of a Mermaid diagram. */
export function renderMermaid(text) {
  if (cache.has(text)) return Promise.resolve(cache.get(text));
  const job = queue.then(async () => {
    const mermaid = await load();
    counter += 1;
    const { svg } = await mermaid.render(`statecore-mermaid-${counter}`, text);
    if (cache.size > 32) cache.clear();
    cache.set(text, svg);
    return svg;
  });
  queue = job.catch(() => undefined);
  return job;
}
