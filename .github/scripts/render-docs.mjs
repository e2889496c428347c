// Writes the service's rule catalog and error reference pages, as the built package renders them, into OUT_DIR for a
// static site at BASE_URL: OUT_DIR/docs/rules/index.html answers BASE_URL/docs/rules, the address SARIF help links
// name (with the package's default --docs-base-url), and likewise for docs/errors.
// Usage: node .github/scripts/render-docs.mjs OUT_DIR BASE_URL (after make build)
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { errorsPage, rulesPage } from "../../dist/runtime/http/docs.js";
import { PATHS } from "../../dist/runtime/api/definition.js";

const [outDir, baseUrl] = process.argv.slice(2);
if (outDir === undefined || baseUrl === undefined) {
  console.error("usage: render-docs.mjs OUT_DIR BASE_URL");
  process.exit(2);
}
const base = baseUrl.replace(/\/+$/, "");
const pages = [
  [PATHS.rules, rulesPage(base)],
  [PATHS.errors, errorsPage(base)],
  // SARIF's informationUri is the base itself.
  ["/", `<!doctype html>\n<meta charset="utf-8"><title>oscal-validator</title>\n<ul><li><a href="${base}${PATHS.rules}">Rule catalog</a></li><li><a href="${base}${PATHS.errors}">Error reference</a></li></ul>\n`],
];
for (const [route, html] of pages) {
  const dir = path.join(outDir, route);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "index.html"), html);
}
console.log(`${pages.length} pages in ${outDir} for ${base}`);
