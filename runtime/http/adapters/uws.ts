// The uWebSockets.js adapter. The package silently falls back to a slow JavaScript implementation when its native
// binary does not load; `description` says which one runs. Rules of uWS honoured here: onAborted is registered before
// any asynchronous step, `res` is never touched after an abort, and writes are corked. onData chunks are handed over
// as views: the sink copies what it keeps before the callback returns, as the transport contract says.
import { createRequire } from "node:module";
import type * as Uws from "@trufflesuite/uws-js-unofficial";
import { STATUS_TEXT, type OutgoingResponse, type RequestHandler, type TransportServer } from "../transport.js";

const require = createRequire(import.meta.url);

function loadUws(): { uws: typeof Uws; native: boolean } {
  const uws = require("@trufflesuite/uws-js-unofficial") as typeof Uws;
  const fallbackEntry = require.resolve("@trufflesuite/uws-js-unofficial/dist/index");
  return { uws, native: require.cache[fallbackEntry] === undefined };
}

const STATUS_LINES = new Map(Object.entries(STATUS_TEXT).map(([status, text]) => [Number(status), `${status} ${text}`]));

/** A response to HEAD has the headers of the full response, Content-Length included, and no body. */
function writeResponse(res: Uws.HttpResponse, response: OutgoingResponse, head: boolean): void {
  res.writeStatus(STATUS_LINES.get(response.status) ?? String(response.status));
  const headers = response.headers;
  for (let i = 0; i < headers.length; i += 2) res.writeHeader(headers[i]!, headers[i + 1]!);
  if (head) {
    // endWithoutBody(length) of this build never completes the response (uWS then aborts the process): state the
    // length as a header instead.
    res.writeHeader("Content-Length", String(typeof response.body === "string" ? Buffer.byteLength(response.body) : response.body.byteLength));
    res.endWithoutBody();
  } else res.end(response.body);
}

const textDecoder = new TextDecoder();

export class UwsServer implements TransportServer {
  readonly description: string;
  private readonly uws: typeof Uws;
  private readonly app: Uws.TemplatedApp;
  private listenSocket: Uws.us_listen_socket | undefined;

  constructor(handler: RequestHandler) {
    const { uws, native } = loadUws();
    this.uws = uws;
    this.description = native ? "uWebSockets.js (native)" : "uWebSockets.js JavaScript fallback (native binary did not load; performance is degraded)";
    this.app = uws.App().any("/*", (res, req) => {
      const contentLength = req.getHeader("content-length");
      const head = req.getCaseSensitiveMethod() === "HEAD";
      // uWS calls onData only when a body follows the head.
      const expectsBody = req.getHeader("transfer-encoding") !== "" || (contentLength !== "" && contentLength !== "0");
      const exchange = handler.begin({
        method: req.getCaseSensitiveMethod(),
        path: req.getUrl(),
        query: req.getQuery() ?? "",
        header: (name) => req.getHeader(name),
        remoteAddress: () => textDecoder.decode(res.getRemoteAddressAsText()),
      });
      if (exchange.kind === "respond") {
        writeResponse(res, exchange.response, head);
        return;
      }
      const sink = exchange.sink;
      let aborted = false;
      res.onAborted(() => {
        aborted = true;
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
      sink.response.then((response) => {
        if (!aborted) res.cork(() => writeResponse(res, response, head));
      });
    });
  }

  listen(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.app.listen(host, port, (socket) => {
        if (socket === false) return reject(new Error(`Cannot listen on ${host}:${port}`));
        this.listenSocket = socket;
        resolve(this.uws.us_socket_local_port(socket as unknown as Uws.us_socket));
      });
    });
  }

  stopAccepting(): void {
    if (this.listenSocket !== undefined) this.uws.us_listen_socket_close(this.listenSocket);
    this.listenSocket = undefined;
  }

  close(): Promise<void> {
    this.stopAccepting();
    return Promise.resolve();
  }
}
