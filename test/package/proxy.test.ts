// The deployments' nginx front (deploy/nginx/validator.conf.template), run for real on loopback in front of the
// service on the uWebSockets.js transport, as compose.yaml and deploy/kubernetes.yaml run them: the clients and
// requests that transport does not answer get an answer through the proxy. Skipped where nginx is not installed
// (make test-services installs it).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { repoRoot } from "../../compiler/paths.js";
import { corpusDir } from "../helpers/corpus.js";
import { renderNginxTemplate } from "./nginx-template.js";

const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((file) => existsSync(file));
const dir = mkdtempSync(path.join(tmpdir(), "oscal-proxy-"));
const children: ChildProcess[] = [];
let proxyPort = 0;
let metricsProxyPort = 0;
let servicePort = 0;

/** A port free at the time of asking (nginx takes a fixed port from its configuration). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Sends raw bytes and collects what comes back until the peer closes or `waitMs` of silence passes. */
function exchange(port: number, request: string, waitMs = 2000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    socket.setTimeout(waitMs, () => socket.destroy());
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString("latin1")));
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
    socket.write(request);
  });
}

async function waitForPort(port: number): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => (socket.destroy(), resolve(true)));
      socket.on("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nothing listens on ${port}`);
}

describe.skipIf(NGINX === undefined)("nginx in front of TRANSPORT=uws", () => {
  beforeAll(async () => {
    const service = spawn(process.execPath, [path.join(repoRoot, "dist/runtime/http/main.js")], {
      env: { ...process.env, HOST: "127.0.0.1", PORT: "0", METRICS_PORT: "0", TRANSPORT: "uws", TRUST_PROXY: "1", WORKERS: "1", KEYS_FILE: path.join(dir, "keys.json") },
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(service);
    const listening = await new Promise<{ port: number; metricsPort: number; transport: string }>((resolve, reject) => {
      let output = "";
      service.stdout!.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        const line = output.split("\n").find((candidate) => candidate.includes('"event":"listening"'));
        if (line) resolve(JSON.parse(line) as { port: number; metricsPort: number; transport: string });
      });
      service.once("exit", () => reject(new Error(`service exited:\n${output}`)));
    });
    expect(listening.transport).toMatch(/^uWebSockets/);
    servicePort = listening.port;
    [proxyPort, metricsProxyPort] = [await freePort(), await freePort()];
    writeFileSync(
      path.join(dir, "validator.conf"),
      renderNginxTemplate({ VALIDATOR_ADDRESS: `127.0.0.1:${listening.port}`, METRICS_ADDRESS: `127.0.0.1:${listening.metricsPort}`, LISTEN_PORT: `127.0.0.1:${proxyPort}`, METRICS_LISTEN_PORT: `127.0.0.1:${metricsProxyPort}` }),
    );
    mkdirSync(path.join(dir, "logs"));
    // One process as the current user (no privileged master), every path inside the test's directory.
    writeFileSync(
      path.join(dir, "nginx.conf"),
      `daemon off;\nmaster_process off;\npid ${dir}/nginx.pid;\nerror_log ${dir}/logs/error.log;\nevents { worker_connections 64; }\nhttp {\n  access_log off;\n  client_body_temp_path ${dir}/body;\n  proxy_temp_path ${dir}/proxy;\n  include ${dir}/validator.conf;\n}\n`,
    );
    const syntax = spawnSync(NGINX!, ["-t", "-p", dir, "-c", path.join(dir, "nginx.conf")], { encoding: "utf8" });
    expect(syntax.stderr).toContain("syntax is ok");
    children.push(spawn(NGINX!, ["-p", dir, "-c", path.join(dir, "nginx.conf")], { stdio: "inherit" }));
    await waitForPort(proxyPort);
  }, 60_000);

  afterAll(async () => {
    for (const child of children) child.kill("SIGTERM");
    await Promise.all(children.map((child) => (child.exitCode === null ? new Promise((resolve) => child.once("exit", resolve)) : undefined)));
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers an HTTP/1.0 client, which the service alone leaves without an answer", async () => {
    const request = "GET /healthz HTTP/1.0\r\n\r\n";
    expect(await exchange(servicePort, request)).not.toMatch(/^HTTP\/1\.[01] 200/);
    const answer = await exchange(proxyPort, request);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toMatch(/\r\n\r\n.+/s);
  });

  it("answers a malformed request head with 400, where the service alone says nothing", async () => {
    const request = "GET /healthz HTTP/1.1\r\nHost: localhost\r\nthis line has no colon\r\n\r\n";
    expect(await exchange(servicePort, request)).toBe("");
    expect(await exchange(proxyPort, request)).toMatch(/^HTTP\/1\.1 400 /);
  });

  it("passes a validation through with the document's verdict, and serves the metrics", async () => {
    const body = readFileSync(path.join(corpusDir(), "catalog/oscal-content-basic-catalog.json"));
    for (let round = 0; round < 2; round++) {
      const response = await fetch(`http://127.0.0.1:${proxyPort}/api/oscal/v1/validate?level=full`, { method: "POST", headers: { "Content-Type": "application/json" }, body });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ valid: true, model: "catalog", level: "full" });
    }
    const metrics = await fetch(`http://127.0.0.1:${metricsProxyPort}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/^# HELP /m);
  });

  it("refuses a body over MAX_BODY_BYTES (4 MiB) itself with 413", async () => {
    const response = await fetch(`http://127.0.0.1:${proxyPort}/api/oscal/v1/validate`, { method: "POST", headers: { "Content-Type": "application/json" }, body: Buffer.alloc(4 * 1024 * 1024 + 1, 0x20) });
    expect(response.status).toBe(413);
  });
});
