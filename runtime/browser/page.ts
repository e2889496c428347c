// The validation page: reads a document from a file, a drop or the text box, validates it in a worker (the default,
// nothing leaves the machine) or through the service's API, and shows the report: verdict, counts, every finding
// with its rule, pointer and position, and the source with the findings' lines marked.
import { ruleIdList, type ValidationIssue, type ValidationReport } from "../core/report.js";
import type { InputError, ValidationRequest, WorkerMessage } from "./worker-protocol.js";

const SEMANTIC_RULE_ID = /^[A-Z]+-\d{3}\.[a-z]+$/;
/**
 * The rules page's section on schema rule ids (rule-catalog.ts's SCHEMA_RULE_IDS_ANCHOR, which the page does not import:
 * that module would bring the rule manifest into the page's bundle).
 */
const SCHEMA_RULES_ANCHOR = "schema-rule-ids";
/** Larger opened files are validated as opened but not put in the text box, which would make the page sluggish. */
const EDITABLE_BYTES = 1024 * 1024;
const RATE_HEADERS = ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "RateLimit-Policy", "Retry-After"];

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`missing #${id}`);
  return found as T;
}

const form = element<HTMLFormElement>("validate-form");
const fileInput = element<HTMLInputElement>("file");
const textInput = element<HTMLTextAreaElement>("text");
const apiKeyField = element<HTMLElement>("api-key-field");
const apiKeyInput = element<HTMLInputElement>("api-key");
const status = element<HTMLElement>("status");
const progress = element<HTMLProgressElement>("progress");
const results = element<HTMLElement>("results");
const submit = element<HTMLButtonElement>("submit");
const { workerUrl, validateUrl, rulesUrl } = document.body.dataset as { workerUrl: string; validateUrl: string; rulesUrl: string };

/** The document as opened or dropped: its bytes exactly, until the text box is edited. */
let opened: { name: string; bytes: Uint8Array } | undefined;
let worker: Worker | undefined;

const radioValue = (name: string): string => (form.elements.namedItem(name) as RadioNodeList).value;
const selectedMode = (): "browser" | "api" => (radioValue("mode") === "api" ? "api" : "browser");

function showApiKeyField(): void {
  apiKeyField.hidden = selectedMode() !== "api";
}

async function openFile(file: File): Promise<void> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  opened = { name: file.name, bytes };
  textInput.value = bytes.length <= EDITABLE_BYTES ? new TextDecoder().decode(bytes) : "";
  if (/\.ya?ml$/i.test(file.name)) (form.elements.namedItem("format") as RadioNodeList).value = "yaml";
  else if (/\.json$/i.test(file.name)) (form.elements.namedItem("format") as RadioNodeList).value = "json";
  const shown = bytes.length <= EDITABLE_BYTES ? "" : " It is too large to show in the text box, and is validated as opened.";
  setStatus(`Opened ${file.name} (${bytes.length.toLocaleString("en")} bytes).${shown}`);
}

function documentBytes(): Uint8Array {
  return opened?.bytes ?? new TextEncoder().encode(textInput.value);
}

function setStatus(text: string, busy = false): void {
  status.textContent = text;
  progress.hidden = !busy;
  submit.disabled = busy;
}

// --- Running a validation -------------------------------------------------------------------------------------------

type Answer =
  | { kind: "report"; report: ValidationReport }
  | { kind: "error"; error: InputError }
  | { kind: "problem"; status: number; body: string }
  | { kind: "failure"; message: string };

function validateHere(request: ValidationRequest): Promise<Answer> {
  worker ??= new Worker(workerUrl, { type: "module" });
  const current = worker;
  return new Promise((resolve) => {
    current.onmessage = (event: MessageEvent<WorkerMessage>) => {
      const message = event.data;
      if (message.kind === "progress") setStatus(message.stage, true);
      else resolve(message);
    };
    current.onerror = (event) => {
      event.preventDefault();
      worker = undefined;
      resolve({ kind: "failure", message: event.message || "The validation worker failed to start." });
    };
    current.postMessage(request, [request.bytes]);
  });
}

async function validateThroughApi(request: ValidationRequest, rateLimits: HTMLElement): Promise<Answer> {
  const query = new URLSearchParams({ level: request.level });
  if (request.rules.length > 0) query.set("rules", request.rules.join(","));
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (apiKeyInput.value.trim() !== "") headers.Authorization = `Bearer ${apiKeyInput.value.trim()}`;
  setStatus("Sending the document to the service…", true);
  const response = await fetch(`${validateUrl}?${query}`, { method: "POST", headers, body: request.bytes });
  showRateHeaders(response.headers, rateLimits);
  const body = await response.text();
  if (response.status !== 200) return { kind: "problem", status: response.status, body };
  return { kind: "report", report: JSON.parse(body) as ValidationReport };
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  void run();
});

async function run(): Promise<void> {
  const bytes = documentBytes();
  if (bytes.length === 0) {
    setStatus("Open, drop or paste a document first.");
    textInput.focus();
    return;
  }
  const format = radioValue("format") === "yaml" ? "yaml" : "json";
  const level = radioValue("level") === "full" ? "full" : "schema";
  // A checked rule pack is named among the rules: its name enables all of its rules, in the worker and in the API. A
  // pack on by default (its box fixed) needs no naming.
  const packs = [...document.querySelectorAll<HTMLInputElement>('input[name="pack"]:checked:not(:disabled)')].map((box) => box.value);
  const rules = [...ruleIdList(element<HTMLInputElement>("rules").value), ...packs];
  const mode = selectedMode();
  const text = new TextDecoder().decode(bytes);
  // The worker takes the bytes over; the page keeps its own copy for the API and for a second run.
  const request: ValidationRequest = { bytes: bytes.slice().buffer, format, level, rules };
  results.replaceChildren();
  const rateLimits = document.createElement("dl");
  rateLimits.id = "rate-limits";
  let answer: Answer;
  if (mode === "api" && format === "yaml") {
    answer = { kind: "failure", message: "The service reads JSON only; validate YAML in this browser." };
  } else {
    try {
      answer = mode === "api" ? await validateThroughApi(request, rateLimits) : await validateHere(request);
    } catch (error) {
      answer = { kind: "failure", message: error instanceof Error ? error.message : String(error) };
    }
  }
  setStatus(answer.kind === "report" ? "Done." : "Not validated.");
  renderAnswer(answer, text, mode === "api" ? rateLimits : undefined);
}

// --- Showing the answer ---------------------------------------------------------------------------------------------

function add<K extends keyof HTMLElementTagNameMap>(parent: HTMLElement, tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const child = document.createElement(tag);
  if (text !== undefined) child.textContent = text;
  if (className !== undefined) child.className = className;
  parent.append(child);
  return child;
}

function showRateHeaders(headers: Headers, list: HTMLElement): void {
  for (const name of RATE_HEADERS) {
    const value = headers.get(name);
    if (value === null) continue;
    add(list, "dt", name);
    add(list, "dd", value);
  }
}

function renderAnswer(answer: Answer, text: string, rateLimits: HTMLElement | undefined): void {
  const verdict = add(results, "h2", undefined, "verdict");
  verdict.id = "verdict";
  verdict.tabIndex = -1;
  if (rateLimits !== undefined && rateLimits.childElementCount > 0) {
    add(results, "h3", "Rate limit");
    results.append(rateLimits);
  }
  if (answer.kind === "report") renderReport(answer.report, text, verdict);
  else if (answer.kind === "problem") {
    verdict.textContent = `The service answered ${answer.status}`;
    verdict.classList.add("invalid");
    const problem = add(results, "pre", answer.body, "problem");
    problem.id = "problem";
  } else if (answer.kind === "error") {
    verdict.textContent = `Not validated: ${answer.error.code}`;
    verdict.classList.add("invalid");
    add(results, "p", answer.error.detail).id = "input-error";
    if (answer.error.resolution !== undefined) add(results, "p", answer.error.resolution);
    if (answer.error.line !== undefined) renderSource(text, new Map([[answer.error.line, [answer.error.detail]]]));
  } else {
    verdict.textContent = "Not validated";
    verdict.classList.add("invalid");
    add(results, "p", answer.message).id = "failure";
  }
  verdict.focus();
}

function renderReport(report: ValidationReport, text: string, verdict: HTMLElement): void {
  verdict.textContent = report.valid ? "Valid" : "Not valid";
  verdict.classList.add(report.valid ? "valid" : "invalid");
  const summary = add(results, "p");
  summary.id = "summary";
  summary.textContent = `${report.model}, OSCAL ${report.oscalVersion}, level ${report.level}${report.complete ? "" : " (incomplete)"}, ${report.meta.durationMs} ms.`;
  if (report.meta.release.note !== undefined) add(results, "p", report.meta.release.note).id = "release-note";
  const counts = add(results, "p");
  counts.id = "counts";
  const errors = report.issues.filter((issue) => issue.severity === "error").length;
  const warnings = report.issues.length - errors;
  counts.textContent = `${report.issueCount} finding${report.issueCount === 1 ? "" : "s"}: ${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}${report.truncated ? ` (the first ${report.issues.length} are listed)` : ""}.`;

  if (report.issues.length > 0) {
    add(results, "h3", "Findings");
    const list = add(results, "ol");
    list.id = "findings";
    report.issues.forEach((issue) => list.append(findingItem(issue)));
  }
  const byLine = new Map<number, string[]>();
  for (const issue of report.issues) if (issue.line !== undefined) byLine.set(issue.line, [...(byLine.get(issue.line) ?? []), `${shortRule(issue).text}: ${issue.message}`]);
  renderSource(text, byLine);

  const raw = add(results, "details");
  add(raw, "summary", "Report as JSON");
  add(raw, "pre", JSON.stringify(report, null, 2)).id = "report-json";
}

/**
 * What a finding's rule is shown as, and where on the rules page it is documented: a semantic rule by its id and its
 * own entry; a schema rule, whose id runs to 150 characters, by its keyword and the section on schema rule ids (the
 * link's title carries the full id, and the report's JSON holds it).
 */
function shortRule(issue: ValidationIssue): { text: string; anchor: string } {
  if (SEMANTIC_RULE_ID.test(issue.ruleId)) return { text: issue.ruleId, anchor: encodeURIComponent(issue.ruleId) };
  return { text: `schema ${issue.keyword}`, anchor: SCHEMA_RULES_ANCHOR };
}

function findingItem(issue: ValidationIssue): HTMLLIElement {
  const item = document.createElement("li");
  item.className = `finding ${issue.severity}`;
  const head = add(item, "p");
  add(head, "span", issue.severity, "severity");
  head.append(" ");
  const rule = shortRule(issue);
  const link = add(head, "a", rule.text, "rule");
  link.href = `${rulesUrl}#${rule.anchor}`;
  link.title = issue.ruleId;
  add(item, "p", issue.message, "message");
  const where = add(item, "p", undefined, "where");
  add(where, "code", issue.path === "" ? "/" : issue.path, "path");
  if (issue.line !== undefined) {
    where.append(" at ");
    const jump = add(where, "button", `${issue.line}:${issue.column ?? 1}`, "position");
    jump.type = "button";
    jump.setAttribute("aria-label", `Show line ${issue.line}, column ${issue.column ?? 1} in the source`);
    jump.addEventListener("click", () => {
      const line = document.getElementById(`line-${issue.line}`);
      line?.scrollIntoView({ block: "center" });
      line?.focus({ preventScroll: true });
    });
  }
  return item;
}

/** Longer sources are shown around their marked lines only: laying out megabytes of text stalls the page for seconds. */
const FULL_SOURCE_LINES = 5000;
const FULL_SOURCE_CHARACTERS = 512 * 1024;
const CONTEXT_LINES = 3;
/** In a shortened source, longer lines (minified JSON is one line) are cut here. */
const SHOWN_LINE_CHARACTERS = 1000;

/**
 * The source with each marked line as its own element and everything between as plain text, so a document costs a
 * few nodes rather than one per line.
 */
function renderSource(text: string, marks: Map<number, string[]>): void {
  const lines = text.split(/\r\n|\r|\n/);
  const whole = lines.length <= FULL_SOURCE_LINES && text.length <= FULL_SOURCE_CHARACTERS;
  const shown = (line: string): string => (whole || line.length <= SHOWN_LINE_CHARACTERS ? line : `${line.slice(0, SHOWN_LINE_CHARACTERS)}…`);
  if (!whole && marks.size === 0) return;
  add(results, "h3", whole ? "Source" : `Source (${lines.length.toLocaleString("en")} lines; shown around the findings)`);
  const source = add(results, "pre", undefined, "source");
  source.id = "source";
  source.tabIndex = 0;
  source.setAttribute("aria-label", "Document source");
  const near = new Set<number>();
  if (!whole) for (const line of marks.keys()) for (let n = line - CONTEXT_LINES; n <= line + CONTEXT_LINES; n++) near.add(n);
  // Runs of plain lines and runs of left-out lines alternate; each run is written out when the other kind begins.
  let plain: string[] = [];
  let skipped = 0;
  const writePlain = (): void => {
    if (plain.length > 0) source.append(`${plain.join("\n")}\n`);
    plain = [];
  };
  const writeGap = (): void => {
    if (skipped > 0) add(source, "span", `… ${skipped.toLocaleString("en")} lines …\n`, "gap");
    skipped = 0;
  };
  lines.forEach((line, index) => {
    const number = index + 1;
    const notes = marks.get(number);
    if (notes !== undefined) {
      writePlain();
      writeGap();
      const mark = add(source, "mark", `${shown(line)}\n`);
      mark.id = `line-${number}`;
      mark.tabIndex = -1;
      mark.dataset.line = String(number);
      mark.title = notes.join("\n");
    } else if (whole || near.has(number)) {
      writeGap();
      plain.push(shown(line));
    } else {
      writePlain();
      skipped++;
    }
  });
  writePlain();
  writeGap();
}

// --- Input: file, drop, paste ---------------------------------------------------------------------------------------

fileInput.addEventListener("change", () => {
  const file = fileInput.files?.[0];
  if (file !== undefined) void openFile(file);
});
textInput.addEventListener("input", () => (opened = undefined));
for (const target of [textInput, element<HTMLElement>("drop-zone")]) {
  target.addEventListener("dragover", (event) => {
    event.preventDefault();
    form.classList.add("dragging");
  });
  target.addEventListener("dragleave", () => form.classList.remove("dragging"));
  target.addEventListener("drop", (event) => {
    event.preventDefault();
    form.classList.remove("dragging");
    const file = event.dataTransfer?.files[0];
    if (file !== undefined) void openFile(file);
  });
}
for (const radio of form.querySelectorAll<HTMLInputElement>('input[name="mode"]')) radio.addEventListener("change", showApiKeyField);
showApiKeyField();
