// The uWebSockets.js adapter. The package silently falls back to a slow JavaScript implementation when its native
// binary does not load; `description` says which one runs. Rules of uWS honoured here: onAborted is registered before
// any asynchronous step, `res` is never touched after an abort, and writes are corked. onData chunks are handed over
// as views: the sink copies what it keeps before the callback returns, as the transport contract says. Answers are
// written with tryEnd/onWritable, so uWS never buffers more than the socket takes (a client pipelining requests while
// ignoring the answers would otherwise make it buffer them all); a reader that takes nothing for the stall limit is
// disconnected.
import { readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import type * as Uws from "@trufflesuite/uws-js-unofficial";
import { log } from "../log.js";
import { bodyBytes, bodyLength, STATUS_TEXT, type ConnectionLimits, type OutgoingResponse, type RequestHandler, type TransportServer } from "../transport.js";

const require = createRequire(import.meta.url);

function loadUws(): { uws: typeof Uws; native: boolean } {
  const uws = require("@trufflesuite/uws-js-unofficial") as typeof Uws;
  const fallbackEntry = require.resolve("@trufflesuite/uws-js-unofficial/dist/index");
  return { uws, native: require.cache[fallbackEntry] === undefined };
}

/** uWS's LIBUS_LISTEN_EXCLUSIVE_PORT (the typings declare the enum without emitting it). */
const LISTEN_EXCLUSIVE_PORT = 1;

const STATUS_LINES = new Map(Object.entries(STATUS_TEXT).map(([status, text]) => [Number(status), `${status} ${text}`]));

/** How often the descriptor count is checked against the connection cap. */
const CONNECTION_CHECK_MS = 100;
/** Accepting resumes once the connections have fallen this far below the cap (so it does not flap at the edge). */
const RESUME_FRACTION = 0.9;

interface ResponseState {
  aborted: boolean;
  /** Set while a streamed answer is in progress: called on abort so it can release what it holds. */
  onAbort?: () => void;
}

/** A response to HEAD has the headers of the full response, Content-Length included, and no body. Must run corked. */
function writeResponse(res: Uws.HttpResponse, response: OutgoingResponse, head: boolean, state: ResponseState, stallMs: number): void {
  res.writeStatus(STATUS_LINES.get(response.status) ?? String(response.status));
  const headers = response.headers;
  for (let i = 0; i < headers.length; i += 2) res.writeHeader(headers[i]!, headers[i + 1]!);
  const body = response.body;
  if (head) {
    // endWithoutBody(length) of this build never completes the response (uWS then aborts the process): state the
    // length as a header instead.
    res.writeHeader("Content-Length", String(bodyLength(body)));
    res.endWithoutBody();
  } else if (response.closeConnection) res.end(body, true);
  else return streamBody(res, body, state, stallMs, response.onSettled);
  response.onSettled?.();
}

/**
 * The uWS streaming pattern: tryEnd what the socket takes, resume from the write offset when it is writable again. A
 * string body is handed to uWS as it is (uWS encodes it without a JavaScript copy) and encoded here only when the
 * socket did not take it whole.
 */
function streamBody(res: Uws.HttpResponse, body: string | Uint8Array, state: ResponseState, stallMs: number, onSettled: (() => void) | undefined): void {
  let stall: NodeJS.Timeout | undefined;
  const settle = (): void => {
    clearTimeout(stall);
    state.onAbort = undefined;
    onSettled?.();
  };
  const armStall = (): void => {
    clearTimeout(stall);
    stall = setTimeout(() => {
      if (!state.aborted) res.close();
    }, stallMs).unref();
  };
  const start = res.getWriteOffset();
  const length = bodyLength(body);
  const [ok, done] = res.tryEnd(body, length);
  if (ok || done) return settle();
  state.onAbort = settle;
  armStall();
  const bytes = bodyBytes(body);
  res.onWritable((offset) => {
    const [written, finished] = res.tryEnd(bytes.subarray(offset - start), length);
    if (finished) settle();
    else armStall();
    return written;
  });
}

/**
 * The peer's address in the text form uWS gives (dotted IPv4; IPv6 as eight groups of four hex digits), formatted here
 * from the binary form, which uWS makes faster than its own text.
 */
function formatAddress(bytes: Uint8Array): string {
  if (bytes.length === 4) return `${bytes[0]}.${bytes[1]}.${bytes[2]}.${bytes[3]}`;
  let text = "";
  for (let i = 0; i < bytes.length; i += 2) text += (i === 0 ? "" : ":") + ((bytes[i]! << 8) | bytes[i + 1]!).toString(16).padStart(4, "0");
  return text;
}

export class UwsServer implements TransportServer {
  readonly description: string;
  private readonly uws: typeof Uws;
  private readonly app: Uws.TemplatedApp;
  private listenSocket: Uws.us_listen_socket | undefined;
  private address: { host: string; port: number } | undefined;
  private stopped = false;
  private connectionCheck: NodeJS.Timeout | undefined;
  /** Descriptors open before the first connection (workers, Redis, files): the rest are client connections. */
  private baseDescriptors = 0;

  constructor(
    handler: RequestHandler,
    private readonly limits: ConnectionLimits,
  ) {
    const { uws, native } = loadUws();
    this.uws = uws;
    this.description = native ? "uWebSockets.js (native)" : "uWebSockets.js JavaScript fallback (native binary did not load; performance is degraded)";
    this.app = uws.App().any("/*", (res, req) => {
      const contentLength = req.getHeader("content-length");
      const head = req.getCaseSensitiveMethod() === "HEAD";
      // uWS calls onData only when a body follows the head.
      const expectsBody = req.getHeader("transfer-encoding") !== "" || (contentLength !== "" && contentLength !== "0");
      let fields: Map<string, string[]> | undefined;
      const exchange = handler.begin({
        method: req.getCaseSensitiveMethod(),
        path: req.getUrl(),
        query: req.getQuery() ?? "",
        header: (name) => req.getHeader(name),
        headerValues: (name) => {
          if (fields === undefined) {
            const collected = new Map<string, string[]>();
            req.forEach((key, value) => {
              const values = collected.get(key);
              if (values === undefined) collected.set(key, [value]);
              else values.push(value);
            });
            fields = collected;
          }
          return fields.get(name) ?? [];
        },
        remoteAddress: () => formatAddress(new Uint8Array(res.getRemoteAddress())),
      });
      const state: ResponseState = { aborted: false };
      /** An answer written after the handler returned: only while the connection is still there. */
      const answerLater = (response: OutgoingResponse): void => {
        if (state.aborted) return response.onSettled?.();
        res.cork(() => writeResponse(res, response, head, state, limits.responseStallMs));
      };
      if (exchange.kind === "respond" && exchange.response.closeConnection) {
        // uWS parses the bytes that follow a request answered inside its handler, even after "Connection: close", and
        // runs them as the next request (a smuggling primitive behind a proxy that reuses connections). An answer still
        // pending when they are parsed makes uWS drop the connection instead; a client that sent nothing more gets the
        // answer, then the close.
        res.onAborted(() => aborted(state));
        setImmediate(answerLater, exchange.response);
        return;
      }
      if (exchange.kind === "respond") {
        writeResponse(res, exchange.response, head, state, limits.responseStallMs);
        if (state.onAbort !== undefined) res.onAborted(() => aborted(state));
        return;
      }
      const sink = exchange.sink;
      res.onAborted(() => {
        aborted(state);
        sink.abort();
      });
      if (!expectsBody) sink.end();
      else {
        res.onData((chunk, isLast) => {
          if (chunk.byteLength > 0) sink.write(new Uint8Array(chunk));
          if (isLast) sink.end();
        });
      }
      // An answer given before the whole body arrived (a 413, a refused key) keeps the connection: uWS discards the
      // rest of the body without buffering it, and closing instead would reset the connection under the answer.
      sink.response.then(answerLater);
    });
  }

  listen(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.listenExclusively(host, port, (socket) => {
        if (socket === false) return reject(new Error(`Cannot listen on ${host}:${port}: the port is in use or the address is not available.`));
        this.listenSocket = socket;
        const bound = this.uws.us_socket_local_port(socket as unknown as Uws.us_socket);
        this.address = { host, port: bound };
        this.watchConnections();
        resolve(bound);
      });
    });
  }

  stopAccepting(): void {
    this.stopped = true;
    clearInterval(this.connectionCheck);
    this.closeListener();
  }

  close(): Promise<void> {
    this.stopAccepting();
    return Promise.resolve();
  }

  /**
   * uWS listens with SO_REUSEPORT by default: a second server started on a port in use would share it silently, so two
   * versions could answer the same clients. An exclusive listener fails instead, as node:http does (EADDRINUSE).
   */
  private listenExclusively(host: string, port: number, done: (socket: Uws.us_listen_socket | false) => void): void {
    // The typings lack the (host, port, options, callback) overload that the native module has.
    const listen = this.app.listen as unknown as (host: string, port: number, options: number, callback: typeof done) => void;
    listen.call(this.app, host, port, LISTEN_EXCLUSIVE_PORT, done);
  }

  private closeListener(): void {
    if (this.listenSocket !== undefined) this.uws.us_listen_socket_close(this.listenSocket);
    this.listenSocket = undefined;
  }

  /**
   * uWS has no connection count and, with descriptors exhausted, spins on a listener it cannot accept from. So the
   * process's open descriptors are counted (Linux) and the listener is closed while client connections are at the cap,
   * and reopened on the same port once they have fallen below it. Meanwhile new connections are refused, as node:http
   * refuses them past its maxConnections.
   */
  private watchConnections(): void {
    const count = openDescriptors();
    if (count === undefined) return;
    this.baseDescriptors = count;
    this.connectionCheck = setInterval(() => {
      const connections = (openDescriptors() ?? 0) - this.baseDescriptors;
      if (this.listenSocket !== undefined && connections >= this.limits.maxConnections) {
        log("warn", "connection-cap-reached", { connections, maxConnections: this.limits.maxConnections });
        this.closeListener();
      } else if (this.listenSocket === undefined && !this.stopped && connections < this.limits.maxConnections * RESUME_FRACTION) {
        const { host, port } = this.address!;
        this.listenExclusively(host, port, (socket) => {
          if (socket === false || this.stopped) {
            if (socket !== false) this.uws.us_listen_socket_close(socket);
            return;
          }
          this.listenSocket = socket;
          log("info", "accepting-again", { connections });
        });
      }
    }, CONNECTION_CHECK_MS).unref();
  }
}

function aborted(state: ResponseState): void {
  state.aborted = true;
  state.onAbort?.();
}

/**
 * Open descriptors of this process, or undefined where /proc is not available. Linux 6.2 and later report the count as
 * the size of /proc/self/fd (microseconds); listing the directory instead takes about 20 ms at 19,000 descriptors.
 */
function openDescriptors(): number | undefined {
  try {
    return statSync("/proc/self/fd").size || readdirSync("/proc/self/fd").length;
  } catch {
    return undefined;
  }
}
