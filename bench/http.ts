// HTTP benchmark (`npx tsx bench/http.ts`, after `tsc`): requests per second and p50/p99 latency of the real service
// (dist/runtime/http/main.js) on loopback, uWebSockets.js against node:http, for a small valid document and for the
// gzip-compressed SP 800-53 catalog at level schema and at level full, at concurrency 1, 8 and 64. Rate limits are
// raised by settings.
// Settings: OSCAL_BENCH_CATALOG (catalog path), BENCH_SECONDS (per measurement, default 5), WORKERS (service threads,
// default 2).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { corpusDir } from "../test/helpers/corpus.js";
import { VALIDATE, VALID_CATALOG } from "../test/http/support/documents.js";
import { startService, TRANSPORTS } from "../test/http/support/service.js";

interface AutocannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (options: {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: Buffer;
  connections: number;
  duration: number;
}) => Promise<AutocannonResult>;

const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;
const catalogPath = process.env.OSCAL_BENCH_CATALOG ?? path.join(corpusDir(), "catalog/nist-sp800-53-rev5.0.1-catalog-2021.json");
const seconds = Number(process.env.BENCH_SECONDS ?? 5);

const smallDocument = Buffer.from(VALID_CATALOG);
const catalogGzip = gzipSync(readFileSync(catalogPath));

const gzipJson = { "Content-Type": "application/json", "Content-Encoding": "gzip" };
const payloads: { name: string; query: string; body: Buffer; headers: Record<string, string> }[] = [
  { name: "small document", query: "", body: smallDocument, headers: { "Content-Type": "application/json" } },
  { name: "SP 800-53 catalog (gzip)", query: "", body: catalogGzip, headers: gzipJson },
  { name: "SP 800-53 catalog (gzip), level=full", query: "?level=full", body: catalogGzip, headers: gzipJson },
];
const concurrencies = [1, 8, 64];

interface Row {
  transport: string;
  payload: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  failures: number;
}

const rows: Row[] = [];
for (const transport of TRANSPORTS) {
  const service = await startService(transport, {
    WORKERS: process.env.WORKERS ?? "2",
    ANON_RATE_PER_MINUTE: "1000000000",
    ANON_RATE_PER_DAY: "1000000000",
    MAX_INFLIGHT_BODY_BYTES: String(4 * 1024 ** 3),
  });
  const output = service.output();
  process.stderr.write(`${transport}: ${/"transport":"([^"]+)"/.exec(output)?.[1]}, ${/"workers":(\d+)/.exec(output)?.[1]} workers\n`);
  try {
    for (const payload of payloads) {
      for (const connections of concurrencies) {
        const url = service.url(`${VALIDATE}${payload.query}`);
        // A short warm-up so the JIT and the workers' validators are hot.
        await autocannon({ url, method: "POST", headers: payload.headers, body: payload.body, connections, duration: 1 });
        const result = await autocannon({ url, method: "POST", headers: payload.headers, body: payload.body, connections, duration: seconds });
        const row = {
          transport,
          payload: payload.name,
          connections,
          rps: Math.round(result.requests.average),
          p50: result.latency.p50,
          p99: result.latency.p99,
          failures: result.non2xx + result.errors + result.timeouts,
        };
        rows.push(row);
        process.stderr.write(`${JSON.stringify(row)}\n`);
      }
    }
  } finally {
    await service.stop();
  }
}

const header = ["transport", "payload", "conc.", "req/s", "p50 ms", "p99 ms", "failures"];
const lines = rows.map((row) => [row.transport, row.payload, String(row.connections), String(row.rps), String(row.p50), String(row.p99), String(row.failures)]);
const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)));
const format = (cells: string[]): string => `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(" | ")} |`;
process.stdout.write(`\nHTTP benchmark: ${seconds} s per measurement, catalog ${catalogGzip.length} bytes gzipped\n`);
process.stdout.write(`${[format(header), format(widths.map((width) => "-".repeat(width))), ...lines.map(format)].join("\n")}\n`);
