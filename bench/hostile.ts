// Hostile-load benchmark (`npx tsx bench/hostile.ts`, after `tsc`): the real service on loopback, both transports.
// 1. Small-request latency (p50/p99) while 64 clients keep sending the gzip SP 800-53 catalog, against the same
//    service idle.
// 2. Peak resident memory (VmHWM) of the service under a deep-nesting attack (10,000 levels at level=full) and a
//    huge-names attack (a catalog with thousands of long unknown property names) and two deep-names attacks (250 levels
//    of 450-character member names, a repeated name and a list of 28,000 strings, or 14,000 strings each holding a
//    control character: about 230 KB, 1.5 KB gzipped, once quadratic in the exact text pass), each sent by 8 clients at
//    once, with the statuses and the slowest answer. All clients share one loopback address: in phase 1 the per-client
//    memory share is raised to the whole budget (they stand for 64 different clients); in phase 2 it keeps its default,
//    as for an attacker on one address.
// Settings: OSCAL_BENCH_CATALOG (catalog path), BENCH_SECONDS (load phase, default 10), WORKERS (default 2).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { corpusDir } from "../test/helpers/corpus.js";
import { deeplyNestedCatalog, VALIDATE, VALID_CATALOG } from "../test/http/support/documents.js";
import { deepNamesDocument } from "../test/helpers/deep-names.js";
import { startService, TRANSPORTS, type TestService } from "../test/http/support/service.js";

interface AutocannonInstance extends Promise<{ requests: { total: number }; non2xx: number; errors: number }> {
  stop(): void;
}
type Autocannon = (options: { url: string; method: string; headers: Record<string, string>; body: Buffer; connections: number; duration: number }) => AutocannonInstance;

const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;
const catalogPath = process.env.OSCAL_BENCH_CATALOG ?? path.join(corpusDir(), "catalog/nist-sp800-53-rev5.0.1-catalog-2021.json");
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const catalogGzip = gzipSync(readFileSync(catalogPath));
const OPEN_LIMITS = { ANON_RATE_PER_MINUTE: "1000000000", ANON_RATE_PER_DAY: "1000000000", WORKERS: process.env.WORKERS ?? "2" };

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Sequential small requests for `durationMs`: p50 and p99 latency in milliseconds. */
async function smallLatency(service: TestService, durationMs: number): Promise<{ p50: number; p99: number; count: number; failures: number }> {
  const latencies: number[] = [];
  let failures = 0;
  const end = performance.now() + durationMs;
  while (performance.now() < end) {
    const started = performance.now();
    const response = await fetch(service.url(VALIDATE), { method: "POST", headers: { "Content-Type": "application/json" }, body: VALID_CATALOG });
    await response.arrayBuffer();
    latencies.push(performance.now() - started);
    if (response.status !== 200) failures++;
  }
  latencies.sort((a, b) => a - b);
  const round = (value: number): number => Math.round(value * 10) / 10;
  return { p50: round(percentile(latencies, 50)), p99: round(percentile(latencies, 99)), count: latencies.length, failures };
}

function peakResidentMiB(pid: number): number {
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024);
}

/** A catalog whose metadata carries `count` unknown properties with `length`-character names. */
function hugeNamesCatalog(count: number, length: number): string {
  const document = JSON.parse(VALID_CATALOG) as { catalog: { metadata: Record<string, unknown> } };
  for (let i = 0; i < count; i++) document.catalog.metadata[`${String(i).padStart(8, "0")}${"n".repeat(length)}`] = i;
  return JSON.stringify(document);
}

const attacks = [
  { name: "deep nesting (10,000 levels, level=full)", query: "?level=full", body: gzipSync(deeplyNestedCatalog(10_000)) },
  { name: "huge names (20,000 × 1 KiB names)", query: "", body: gzipSync(hugeNamesCatalog(20_000, 1_024)) },
  { name: "deep names, one repeated (250 levels × 450 characters, 28,000 strings)", query: "", body: gzipSync(deepNamesDocument(250, 450, new Array<string>(28_000).fill('"a"')).text) },
  { name: "deep names, a finding per string (250 levels × 450 characters, 14,000 strings)", query: "", body: gzipSync(deepNamesDocument(250, 450, new Array<string>(14_000).fill('"\\u0001"')).text) },
];

const lines: string[] = [];
for (const transport of TRANSPORTS) {
  const service = await startService(transport, { ...OPEN_LIMITS, MAX_CLIENT_INFLIGHT_BYTES: String(256 * 1024 * 1024) });
  try {
    const idle = await smallLatency(service, 3_000);
    const load = autocannon({ url: service.url(VALIDATE), method: "POST", headers: { "Content-Type": "application/json", "Content-Encoding": "gzip" }, body: catalogGzip, connections: 64, duration: seconds + 2 });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const loaded = await smallLatency(service, seconds * 1000);
    load.stop();
    const catalogs = await load;
    lines.push(
      `${transport}: small request idle p50 ${idle.p50} ms, p99 ${idle.p99} ms; with 64 clients sending the catalog p50 ${loaded.p50} ms, ` +
        `p99 ${loaded.p99} ms (${loaded.count} requests, ${loaded.failures} not 200; ${catalogs.requests.total} catalogs sent, ${catalogs.non2xx + catalogs.errors} not 200)`,
    );
  } finally {
    await service.stop();
  }
  for (const attack of attacks) {
    const attacked = await startService(transport, OPEN_LIMITS);
    try {
      const baseline = peakResidentMiB(attacked.child.pid!);
      const started = performance.now();
      const answers = await Promise.all(
        Array.from({ length: 8 }, async () => {
          const response = await fetch(attacked.url(`${VALIDATE}${attack.query}`), { method: "POST", headers: { "Content-Type": "application/json", "Content-Encoding": "gzip" }, body: attack.body });
          await response.arrayBuffer();
          return { status: response.status, ms: performance.now() - started };
        }),
      );
      const statuses = [...new Set(answers.map((answer) => answer.status))].join("/");
      const slowest = Math.round(Math.max(...answers.map((answer) => answer.ms)));
      lines.push(`${transport}: ${attack.name} × 8: peak RSS ${peakResidentMiB(attacked.child.pid!)} MiB (idle ${baseline} MiB), statuses ${statuses}, slowest answer ${slowest} ms`);
    } finally {
      await attacked.stop();
    }
  }
}
process.stdout.write(`\nHostile-load benchmark (WORKERS=${OPEN_LIMITS.WORKERS}, catalog ${catalogGzip.length} bytes gzipped, ${seconds} s under load)\n${lines.join("\n")}\n`);
