#!/usr/bin/env bash
# The docs inside the packages, so the `docs/NAME.md § Section` references of docstrings, type
# declarations and READMEs resolve offline: the Markdown pages as docs/NAME.md and the built
# site (MkDocs, `make docs`) as docs/site/ (open docs/site/index.html), copied into npm/docs/
# (shipped in the npm tarball) and python/docs/ (shipped in the sdist). Both copies are
# git-ignored build outputs; run by `make build` and checked by scripts/test-packaging.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
log() { printf '[package-docs] %s\n' "$*"; }

[ -x .venv/bin/mkdocs ] || bash scripts/setup.sh
.venv/bin/mkdocs build --quiet
for dest in npm/docs python/docs; do
  rm -rf "$dest"
  mkdir -p "$dest"
  cp docs/*.md "$dest/"
  cp -R target/site "$dest/site"
  # MkDocs' search (its index is fetched by a worker, which a page opened from disk cannot
  # do), sitemap and source maps are for a served site; the offline copy needs none of them.
  rm -rf "$dest/site/search" "$dest/site/sitemap.xml" "$dest/site/sitemap.xml.gz"
  find "$dest/site" -name '*.map' -delete
done
log "ok: $(ls npm/docs/*.md | wc -l) pages and the built site in npm/docs and python/docs ($(du -sh npm/docs | cut -f1) each)"
