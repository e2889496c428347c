// The validation page (/validate) and its browser bundle (/validate/assets/…). The bundle is a build output
// (scripts/build-browser.mjs, into dist/browser/); this module only reads it, once, at start-up. Bundle files are
// served as built, gzip-compressed to clients that accept it, and cached for good (their names change with their
// content). The page itself is one small HTML document under a Content-Security-Policy that allows only this origin.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { MEDIA_TYPES, PATHS, SERVICE_NAME } from "../api/definition.js";
import { escapeHtml } from "./docs.js";
import { RULE_CATALOG } from "../core/rule-catalog.js";
import { RULE_PACKS } from "../core/semantic.js";
import { immutableResponse, staticResponse } from "./responses.js";
import type { StaticResource } from "./static-content.js";

const BUNDLE_DIRECTORY = fileURLToPath(new URL("../../browser/", import.meta.url));

/** What scripts/build-browser.mjs writes to bundle.json. */
interface BundleIndex {
  page: string;
  worker: string;
  style: string;
  files: string[];
}

const PLAYGROUND_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; worker-src 'self'; img-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const ASSET_TYPES: Readonly<Record<string, string>> = { js: "text/javascript; charset=utf-8", css: "text/css; charset=utf-8" };

/** Path → resource: the page, and each bundle file when the bundle has been built. */
export function playgroundResources(baseUrl: string): [string, StaticResource][] {
  // Root-relative links (behind the base URL's path): the page must work from whichever host name reached it.
  const prefix = new URL(baseUrl).pathname.replace(/\/$/, "");
  const indexFile = `${BUNDLE_DIRECTORY}bundle.json`;
  const bundle = existsSync(indexFile) ? (JSON.parse(readFileSync(indexFile, "utf8")) as BundleIndex) : undefined;
  const page = staticResponse(MEDIA_TYPES.html, playgroundPage(prefix, bundle), ["Content-Security-Policy", PLAYGROUND_CSP]);
  const resources: [string, StaticResource][] = [[PATHS.playground, page]];
  for (const file of bundle?.files ?? []) {
    const contentType = ASSET_TYPES[file.slice(file.lastIndexOf(".") + 1)] ?? "application/octet-stream";
    const identity = immutableResponse(contentType, readFileSync(`${BUNDLE_DIRECTORY}${file}`), ["Vary", "Accept-Encoding"]);
    const gzip = immutableResponse(contentType, readFileSync(`${BUNDLE_DIRECTORY}${file}.gz`), ["Vary", "Accept-Encoding", "Content-Encoding", "gzip"]);
    resources.push([`${PATHS.playgroundAssets}${file}`, { ...identity, gzip }]);
  }
  return resources;
}

function playgroundPage(prefix: string, bundle: BundleIndex | undefined): string {
  const asset = (file: string): string => `${prefix}${PATHS.playgroundAssets}${file}`;
  const head = bundle === undefined ? "" : `<link rel="stylesheet" href="${asset(bundle.style)}">
<script type="module" src="${asset(bundle.page)}"></script>`;
  const nav = `<nav aria-label="Service"><a href="${prefix}${PATHS.docs}">API</a><a href="${prefix}${PATHS.rules}">Rules</a><a href="${prefix}${PATHS.errors}">Errors</a></nav>`;
  const main =
    bundle === undefined
      ? `<p>This page's scripts were not built with the service (run <code>make build</code>); the API works without them.</p>`
      : PLAYGROUND_FORM;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Validate a document · ${SERVICE_NAME}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
${head}
</head><body data-worker-url="${bundle === undefined ? "" : asset(bundle.worker)}" data-validate-url="${prefix}${PATHS.validate}" data-rules-url="${prefix}${PATHS.rules}">
${nav}
<main><h1>Validate an OSCAL document</h1>
${main}
</main></body></html>
`;
}

const PLAYGROUND_FORM = `<p class="privacy" id="privacy">In this browser (the default), your document is checked on your machine by the same
validators the service runs: it is never uploaded. Through the API, it is sent to this service, which checks it and keeps nothing.</p>
<form id="validate-form" novalidate>
<div id="drop-zone">
<label for="file">Open a JSON or YAML file</label><br><input type="file" id="file" accept=".json,.yaml,.yml,application/json,application/yaml">
<p class="hint">or drop a file here or on the text box.</p>
</div>
<div><label for="text">Or paste the document</label>
<textarea id="text" spellcheck="false" autocomplete="off" aria-describedby="text-hint"></textarea>
<p class="hint" id="text-hint">Opened files are checked byte for byte; editing the text checks the text instead.</p></div>
<div class="choices">
<fieldset><legend>Format</legend>
<label><input type="radio" name="format" value="json" checked> JSON</label>
<label><input type="radio" name="format" value="yaml"> YAML</label></fieldset>
<fieldset><legend>Level</legend>
<label><input type="radio" name="level" value="schema" checked> schema</label>
<label><input type="radio" name="level" value="full"> full (schema and semantic rules)</label></fieldset>
<fieldset><legend>Where</legend>
<label><input type="radio" name="mode" value="browser" checked> In this browser</label>
<label><input type="radio" name="mode" value="api"> Through the API</label></fieldset>
${packChoices()}</div>
<div><label for="rules">Extra rules (default-off rule ids, comma-separated; level full)</label><br>
<input type="text" id="rules" autocomplete="off" spellcheck="false"></div>
<div id="api-key-field" hidden><label for="api-key">API key (optional; kept in this page only)</label><br>
<input type="password" id="api-key" autocomplete="off" spellcheck="false"></div>
<button type="submit" id="submit">Validate</button>
</form>
<div id="status-line"><progress id="progress" hidden aria-label="Validating"></progress><p id="status" role="status" aria-live="polite"></p></div>
<section id="results" aria-label="Results"></section>`;

/**
 * A box per rule pack: checking it enables all of the pack's rules (the page adds its name to the rules). A pack on by
 * default is shown checked and fixed: the contract's `rules` only enables.
 */
function packChoices(): string {
  if (RULE_PACKS.length === 0) return "";
  const boxes = RULE_PACKS.map((name) => {
    const rules = RULE_CATALOG.filter((rule) => rule.set === name);
    const defaultOn = rules.every((rule) => rule.defaultOn);
    const state = defaultOn ? " checked disabled" : "";
    return `<label><input type="checkbox" name="pack" value="${escapeHtml(name)}"${state}> ${escapeHtml(name)} (${rules.length} rules${defaultOn ? ", on by default" : ""})</label>`;
  });
  return `<fieldset><legend>Rule packs (level full)</legend>\n${boxes.join("\n")}</fieldset>`;
}
