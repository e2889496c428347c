// The node:http adapter: for platforms where the uWebSockets.js binary does not load, and the baseline of the HTTP
// benchmark. Same handler, same behaviour.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { OutgoingResponse, RequestHandler, TransportServer } from "../transport.js";

/** Matches uWebSockets.js, which closes a connection that sends nothing for 10 seconds. */
const IDLE_TIMEOUT_MS = 10_000;
/** How long the rest of a body already answered is read and dropped before the connection is cut. */
const DISCARD_BODY_MS = 2_000;

function writeResponse(res: ServerResponse, response: OutgoingResponse): void {
  const length = String(typeof response.body === "string" ? Buffer.byteLength(response.body) : response.body.byteLength);
  res.writeHead(response.status, [...response.headers, "Content-Length", length]);
  res.end(response.body);
}

/**
 * After an answer given before the whole body arrived (a 413, a refused key), the rest of the body is read and dropped,
 * as uWebSockets.js does, and the connection stays usable. Closing at once would be worse: a socket closed with unread
 * input is reset, and the reset can destroy the answer before the client reads it. A client that keeps sending is cut
 * off after a short while.
 */
function discardRestOfBody(req: IncomingMessage): void {
  req.removeAllListeners("data");
  req.resume();
  const cutOff = setTimeout(() => req.socket.destroy(), DISCARD_BODY_MS).unref();
  const stop = (): void => clearTimeout(cutOff);
  req.once("end", stop);
  req.socket.once("close", stop);
}

export class NodeHttpServer implements TransportServer {
  readonly description = "node:http";
  private readonly server: Server;

  constructor(handler: RequestHandler) {
    this.server = createServer({ keepAliveTimeout: 5_000, requestTimeout: 60_000 }, (req: IncomingMessage, res: ServerResponse) => {
      const url = req.url ?? "/";
      const queryStart = url.indexOf("?");
      const exchange = handler.begin({
        method: req.method ?? "",
        path: queryStart < 0 ? url : url.slice(0, queryStart),
        query: queryStart < 0 ? "" : url.slice(queryStart + 1),
        header: (name) => {
          const value = req.headers[name];
          return value === undefined ? "" : Array.isArray(value) ? value.join(", ") : value;
        },
        remoteAddress: () => req.socket.remoteAddress ?? "",
      });
      if (exchange.kind === "respond") {
        writeResponse(res, exchange.response);
        return;
      }
      const sink = exchange.sink;
      let bodyDone = false;
      let aborted = false;
      req.on("data", (chunk: Buffer) => sink.write(chunk));
      req.on("end", () => {
        bodyDone = true;
        sink.end();
      });
      res.on("close", () => {
        if (!res.writableFinished) {
          aborted = true;
          sink.abort();
        }
      });
      sink.response.then((response) => {
        if (aborted) return;
        writeResponse(res, response);
        if (!bodyDone) discardRestOfBody(req);
      });
    });
    this.server.setTimeout(IDLE_TIMEOUT_MS, (socket) => socket.destroy());
  }

  listen(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(port, host, () => resolve((this.server.address() as AddressInfo).port));
    });
  }

  stopAccepting(): void {
    this.server.close();
    this.server.closeIdleConnections();
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return Promise.resolve();
  }
}
