// The fctry spec (`.fctry/spec.md`, written by agents: never trusted) as HTML: marked, then
// DOMPurify (HTML profile only, no images, media, forms, styles or ids: nothing loads from
// anywhere), and the state's active section highlighted and scrolled into view when it
// changes. A heading matches the state's `activeSection` alias by its `{#alias}`, by its
// slug, or through the table of contents (`- 2.2 [Core Flow](#22-core-flow) `#core-flow``);
// else `activeSectionNumber` matches a heading that starts with that number.
import { Marked } from "marked";
import DOMPurify from "dompurify";
import { useLayoutEffect, useMemo, useRef } from "preact/hooks";
import { html } from "./ui.mjs";

const marked = new Marked({ gfm: true, async: false });
marked.use({
  renderer: {
    // Images are not loaded: their alt text stands in.
    image({ text }) {
      return `<span class="md-image">[image: ${escapeHtml(text ?? "")}]</span>`;
    },
  },
});

const FORBID_TAGS = ["img", "audio", "video", "source", "track", "picture", "style", "form", "input", "button", "textarea", "select", "iframe", "object", "embed", "link", "meta", "base"];
const FORBID_ATTR = ["style", "id", "name", "class", "srcset", "background", "poster"];

let hooked = false;
/** DOMPurify, with links opened outside the page (in-document anchors excepted). */
function purifier() {
  if (!hooked) {
    DOMPurify.addHook("afterSanitizeAttributes", (node) => {
      if (node.tagName === "A") {
        const href = node.getAttribute("href") ?? "";
        if (!href.startsWith("#")) {
          node.setAttribute("target", "_blank");
          node.setAttribute("rel", "noopener noreferrer");
        }
      }
    });
    hooked = true;
  }
  return DOMPurify;
}

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A heading's slug as GitHub makes it (`2.2 Core Flow` -> `22-core-flow`). */
export function slug(text) {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The spec split into its frontmatter (the block between the first `---` lines) and body. */
function splitFrontmatter(text) {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!match) return { front: null, body: text };
  return { front: match[1], body: text.slice(match[0].length) };
}

/** The table of contents' aliases: alias -> the anchor its line links to. */
function tocAliases(text) {
  const map = new Map();
  for (const line of text.split("\n")) {
    const link = /\]\(#([^)\s]+)\)(.*)$/.exec(line);
    if (!link) continue;
    for (const alias of link[2].matchAll(/`#([^`\s]+)`/g)) map.set(alias[1], link[1]);
  }
  return map;
}

/** Sanitized HTML of the spec's body, its frontmatter and table of contents' aliases. */
export function renderSpec(text) {
  const { front, body } = splitFrontmatter(text);
  let raw;
  try {
    raw = marked.parse(body);
  } catch (error) {
    raw = `<pre>${escapeHtml(body)}</pre>`;
  }
  const clean = purifier().sanitize(raw, {
    USE_PROFILES: { html: true },
    FORBID_TAGS,
    FORBID_ATTR,
  });
  return { html: clean, front, toc: tocAliases(body) };
}

/** Reads each heading's `{#alias}` (removed from its text), slug and number into data. */
function annotate(root) {
  for (const heading of root.querySelectorAll("h1,h2,h3,h4,h5,h6")) {
    let text = heading.textContent ?? "";
    const alias = /\s*\{#([^}\s]+)\}\s*$/.exec(text);
    if (alias) {
      // Take the `{#alias}` off the last text node holding it.
      const walker = document.createTreeWalker(heading, NodeFilter.SHOW_TEXT);
      let last = null;
      for (let n = walker.nextNode(); n; n = walker.nextNode()) if (n.textContent.includes("{#")) last = n;
      if (last) last.textContent = last.textContent.replace(/\s*\{#[^}\s]+\}\s*$/, "");
      heading.dataset.alias = alias[1];
      text = text.slice(0, alias.index);
    }
    heading.dataset.slug = slug(text);
    const number = /^\s*§?\s*(\d+(?:\.\d+)*)\.?(\s|$)/.exec(text);
    if (number) heading.dataset.number = number[1];
  }
}

/** The heading the state's active section names, or null. */
function findActive(root, toc, section, number) {
  const headings = [...root.querySelectorAll("h1,h2,h3,h4,h5,h6")];
  const alias = typeof section === "string" ? section.replace(/^#/, "").trim() : "";
  if (alias) {
    const target = toc.get(alias);
    const found =
      headings.find((h) => h.dataset.alias === alias) ??
      headings.find((h) => h.dataset.slug === alias) ??
      (target ? headings.find((h) => h.dataset.slug === target || h.dataset.alias === target) : undefined);
    if (found) return found;
  }
  const num = typeof number === "string" || typeof number === "number" ? String(number).trim() : "";
  if (num) return headings.find((h) => h.dataset.number === num) ?? null;
  return null;
}

/** The spec, rendered, with its active section. */
export function Spec({ text, section, number }) {
  const rendered = useMemo(() => renderSpec(text ?? ""), [text]);
  const box = useRef(null);
  const shown = useRef({ html: null, active: null });
  useLayoutEffect(() => {
    const root = box.current;
    if (!root) return;
    if (shown.current.html !== rendered.html) {
      annotate(root);
      shown.current.html = rendered.html;
      shown.current.active = null;
    }
    for (const old of root.querySelectorAll("[data-testid=active-section]")) {
      old.removeAttribute("data-testid");
      old.classList.remove("active-section");
    }
    const active = findActive(root, rendered.toc, section, number);
    const id = active ? `${section ?? ""}|${number ?? ""}|${active.dataset.slug}` : null;
    if (active) {
      active.classList.add("active-section");
      active.setAttribute("data-testid", "active-section");
      if (shown.current.active !== id) {
        // Scroll the spec's own box, not the page.
        root.scrollTop = Math.max(0, active.offsetTop - 12); // .markdown is position: relative
      }
    }
    shown.current.active = id;
  });
  const onClick = (event) => {
    const link = event.target.closest?.("a[href^='#']");
    if (!link || !box.current) return;
    event.preventDefault();
    const name = decodeURIComponent(link.getAttribute("href").slice(1));
    const heading = [...box.current.querySelectorAll("h1,h2,h3,h4,h5,h6")].find(
      (h) => h.dataset.slug === name || h.dataset.alias === name,
    );
    if (heading) box.current.scrollTop = Math.max(0, heading.offsetTop - 12);
  };
  return html`<div>
    ${rendered.front !== null ? html`<pre class="frontmatter">${rendered.front}</pre>` : null}
    <div class="markdown" ref=${box} onClick=${onClick} dangerouslySetInnerHTML=${{ __html: rendered.html }}></div>
  </div>`;
}
