// HTTP benchmark (`npx tsx bench/http.ts`, after `make build`): requests per second and p50/p99 latency of the real
// service (dist/runtime/http/main.js) on loopback, with a bare uWebSockets.js handler measured in the same run as the
// baseline, for a small valid document, the FedRAMP SSP template (230 KB, validated on the worker threads) and the
// gzip-compressed SP 800-53 catalog. It prints the goals as ratios, met or not:
// - the small document at concurrency 64 over uWebSockets.js at least 0.5x the bare handler (the service as deployed
//   behind its proxy: TRUST_PROXY=1, each request carrying the X-Forwarded-For line the proxy adds; and, for reference,
//   without a proxy);
//   The bare handler answering the validation core's report (no access control, rate limit, memory budget or
//   contract headers) is measured too: the floor of any service that validates on the HTTP thread;
// - the SSP template at level=schema at concurrency 8 at least 1.6x the service's own concurrency-1 figure (WORKERS=2).
// The load generator is wrk (one thread) when it is installed, else autocannon, which costs more CPU per request than
// the service and so measures itself. Rate limits are raised by settings.
// Settings: OSCAL_BENCH_CATALOG (catalog path), BENCH_SECONDS (per measurement, default 5).
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { repoRoot } from "../compiler/paths.js";
import { corpusDir } from "../test/helpers/corpus.js";
import { VALIDATE, VALID_CATALOG } from "../test/http/support/documents.js";
import { startService, type TransportName } from "../test/http/support/service.js";

interface Load {
  url: string;
  body: Buffer;
  headers: Record<string, string>;
  connections: number;
  seconds: number;
}
interface Measured {
  rps: number;
  p50: number;
  p99: number;
  failures: number;
}

const catalogPath = process.env.OSCAL_BENCH_CATALOG ?? path.join(corpusDir(), "catalog/nist-sp800-53-rev5.0.1-catalog-2021.json");
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const json = { "Content-Type": "application/json" };
const gzipJson = { ...json, "Content-Encoding": "gzip" };
const proxied = { ...json, "X-Forwarded-For": "203.0.113.7" };
const smallDocument = Buffer.from(VALID_CATALOG);
const sspTemplate = readFileSync(path.join(corpusDir(), "system-security-plan/fedramp-rev5-ssp-template.json"));
const catalogGzip = gzipSync(readFileSync(catalogPath));

const wrkInstalled = (() => {
  try {
    execFileSync("wrk", ["--version"], { stdio: "ignore" });
    return true;
  } catch (error) {
    // wrk --version prints its version and exits 1.
    return (error as { status?: number }).status === 1;
  }
})();
const scratch = mkdtempSync(path.join(tmpdir(), "oscal-bench-http-"));

/** wrk's Lua script for one POST, the body read from a file (a JSON string literal could not hold gzip bytes). */
function wrkScript(load: Load): string {
  const bodyFile = path.join(scratch, `body-${load.body.length}`);
  writeFileSync(bodyFile, load.body);
  const headers = Object.entries(load.headers).map(([name, value]) => `wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}`);
  const script = path.join(scratch, `${load.body.length}-${Object.keys(load.headers).length}.lua`);
  writeFileSync(script, [`wrk.method = "POST"`, `local f = io.open(${JSON.stringify(bodyFile)}, "rb")`, "wrk.body = f:read('*a')", "f:close()", ...headers].join("\n"));
  return script;
}

/** wrk's duration in its own units: "812.00us", "1.20ms", "2.00s". */
function milliseconds(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text)!;
  const factor = { us: 0.001, ms: 1, s: 1000, m: 60_000 }[match[2] as "us" | "ms" | "s" | "m"];
  return Number(match[1]) * factor;
}

function runWrk(load: Load): Measured {
  const output = execFileSync("wrk", ["-t1", `-c${load.connections}`, `-d${load.seconds}s`, "--latency", "-s", wrkScript(load), load.url], { encoding: "utf8" });
  const percentile = (p: string): number => milliseconds(new RegExp(`^\\s+${p}%\\s+(\\S+)`, "m").exec(output)![1]!);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0);
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const socketErrors = errors === null ? 0 : errors.slice(1).reduce((sum, count) => sum + Number(count), 0);
  return { rps: Math.round(Number(/Requests\/sec:\s+([\d.]+)/.exec(output)![1])), p50: percentile("50"), p99: percentile("99"), failures: non2xx + socketErrors };
}

type Autocannon = (options: { url: string; method: string; headers: Record<string, string>; body: Buffer; connections: number; duration: number }) => Promise<{
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}>;

async function runAutocannon(load: Load): Promise<Measured> {
  const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;
  const result = await autocannon({ url: load.url, method: "POST", headers: load.headers, body: load.body, connections: load.connections, duration: load.seconds });
  return { rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, failures: result.non2xx + result.errors + result.timeouts };
}

/** A short warm-up (JIT, the workers' validators), then the measurement. */
async function measure(load: Load): Promise<Measured> {
  const run = wrkInstalled ? (l: Load) => Promise.resolve(runWrk(l)) : runAutocannon;
  await run({ ...load, seconds: 1 });
  return run(load);
}

interface Row extends Measured {
  subject: string;
  payload: string;
  connections: number;
}
const rows: Row[] = [];
async function record(subject: string, payload: string, load: Load): Promise<Row> {
  const row = { subject, payload, connections: load.connections, ...(await measure(load)) };
  rows.push(row);
  process.stderr.write(`${JSON.stringify(row)}\n`);
  return row;
}

/** A bare handler (bench/bare-uws.cjs), plain or answering the validation core's report of each body. */
async function bareHandler(validating: boolean): Promise<Row> {
  const port = 19_000 + Math.floor(Math.random() * 1000);
  const args = [path.join(repoRoot, "bench/bare-uws.cjs"), String(port), ...(validating ? ["validate"] : [])];
  const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`the bare handler exited with ${code}`)));
  });
  try {
    const subject = validating ? "bare uWebSockets.js handler + validation core" : "bare uWebSockets.js handler";
    return await record(subject, "small document", { url: `http://127.0.0.1:${port}${VALIDATE}`, body: smallDocument, headers: json, connections: 64, seconds });
  } finally {
    child.kill();
  }
}

const generous = { ANON_RATE_PER_MINUTE: "1000000000", ANON_RATE_PER_DAY: "1000000000", MAX_INFLIGHT_BODY_BYTES: String(4 * 1024 ** 3), WORKERS: "2" };

async function withService<T>(transport: TransportName, env: Record<string, string>, work: (url: string) => Promise<T>): Promise<T> {
  const service = await startService(transport, { ...generous, ...env });
  try {
    return await work(service.url(VALIDATE));
  } finally {
    await service.stop();
  }
}

const bare = await bareHandler(false);
const floor = await bareHandler(true);
const proxiedSmall = await withService("uws", { TRUST_PROXY: "1" }, (url) =>
  record("service, uws behind its proxy", "small document", { url, body: smallDocument, headers: proxied, connections: 64, seconds }),
);
const sspScaling = await withService("uws", {}, async (url) => {
  const small: Row[] = [];
  for (const connections of [1, 8, 64]) small.push(await record("service, uws", "small document", { url, body: smallDocument, headers: json, connections, seconds }));
  const ssp = [];
  for (const connections of [1, 8]) ssp.push(await record("service, uws", "SSP template, schema", { url, body: sspTemplate, headers: json, connections, seconds }));
  for (const connections of [1, 8]) {
    await record("service, uws", "SP 800-53 catalog (gzip), schema", { url, body: catalogGzip, headers: gzipJson, connections, seconds });
    await record("service, uws", "SP 800-53 catalog (gzip), full", { url: `${url}?level=full`, body: catalogGzip, headers: gzipJson, connections, seconds });
  }
  return { direct: small[2]!, ssp };
});
const nodeSmall = await withService("node", {}, (url) => record("service, node", "small document", { url, body: smallDocument, headers: json, connections: 64, seconds }));

const header = ["subject", "payload", "conc.", "req/s", "p50 ms", "p99 ms", "failures"];
const lines = rows.map((row) => [row.subject, row.payload, String(row.connections), String(row.rps), row.p50.toFixed(2), row.p99.toFixed(2), String(row.failures)]);
const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)));
const format = (cells: string[]): string => `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(" | ")} |`;
process.stdout.write(`\nHTTP benchmark: ${wrkInstalled ? "wrk, one thread" : "autocannon (wrk not installed)"}, ${seconds} s per measurement\n`);
process.stdout.write(`${[format(header), format(widths.map((width) => "-".repeat(width))), ...lines.map(format)].join("\n")}\n\n`);

const goal = (name: string, ratio: number, target: number): string => `${name}: ${ratio.toFixed(2)}x (goal at least ${target}x) ${ratio >= target ? "met" : "NOT met"}`;
process.stdout.write(`${goal("small document, c=64, uws behind its proxy / bare uWebSockets.js", proxiedSmall.rps / bare.rps, 0.5)}\n`);
process.stdout.write(`floor: the bare handler answering the validation core's report / bare: ${(floor.rps / bare.rps).toFixed(2)}x\n`);
process.stdout.write(`reference: small document, c=64, uws without a proxy / bare: ${(sspScaling.direct.rps / bare.rps).toFixed(2)}x; node / bare: ${(nodeSmall.rps / bare.rps).toFixed(2)}x\n`);
process.stdout.write(`${goal("SSP template, schema, c=8 / c=1 (WORKERS=2)", sspScaling.ssp[1]!.rps / sspScaling.ssp[0]!.rps, 1.6)}\n`);
