// The node:http adapter: for platforms where the uWebSockets.js binary does not load, and the baseline of the HTTP
// benchmark. Same handler, same behaviour: the same header-field limit as uWebSockets.js, the parser's rejections
// answered with the handler's Problem, answers written slice by slice as the reader takes them.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { MAX_HEADER_FIELDS } from "../request-checks.js";
import { bodyBytes, bodyLength, STATUS_TEXT, type ConnectionLimits, type OutgoingResponse, type RequestHandler, type TransportServer } from "../transport.js";

/**
 * Matches uWebSockets.js, which closes a connection that sends nothing for 10 seconds. It measures the client's
 * inactivity only: while a request waits for its answer (queued or validating, bounded by the validation time limit)
 * the connection has no timer, so a slow validation is answered rather than reset.
 */
const IDLE_TIMEOUT_MS = 10_000;
/** How long the rest of a body already answered is read and dropped before the connection is cut. */
const DISCARD_BODY_MS = 2_000;
/** Answers are written in slices of this size, each once the previous one has left, so a slow reader holds one slice. */
const RESPONSE_SLICE_BYTES = 64 * 1024;

/**
 * Writes the answer one slice at a time, each once the socket has taken the previous one, so a client that does not
 * read holds one slice of socket buffer, not the whole answer; one that takes nothing for `stallMs` is disconnected.
 */
function writeResponse(res: ServerResponse, response: OutgoingResponse, stallMs: number): void {
  if (response.onSettled !== undefined) res.once("close", response.onSettled);
  const length = bodyLength(response.body);
  const headers = [...response.headers, "Content-Length", String(length)];
  if (response.closeConnection) headers.push("Connection", "close");
  res.writeHead(response.status, headers);
  if (res.req.method === "HEAD" || length <= RESPONSE_SLICE_BYTES) {
    res.end(response.body);
    return;
  }
  const body = bodyBytes(response.body);
  let offset = 0;
  let stall: NodeJS.Timeout | undefined;
  const writeSlices = (): void => {
    clearTimeout(stall);
    while (offset < body.byteLength) {
      const slice = body.subarray(offset, offset + RESPONSE_SLICE_BYTES);
      offset += slice.byteLength;
      if (offset >= body.byteLength) {
        res.end(slice);
        return;
      }
      if (!res.write(slice)) {
        stall = setTimeout(() => res.destroy(), stallMs).unref();
        res.once("drain", writeSlices);
        return;
      }
    }
  };
  res.once("close", () => clearTimeout(stall));
  writeSlices();
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

/** Every value of header `name` (lower case) in the raw list, in order. */
function rawHeaderValues(rawHeaders: readonly string[], name: string): string[] {
  const values: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === name) values.push(rawHeaders[i + 1]!);
  return values;
}

/** A complete HTTP/1.1 response on a socket that has no ServerResponse (the parser rejected the request). */
function writeRaw(socket: Socket, response: OutgoingResponse): void {
  const body = bodyBytes(response.body);
  let head = `HTTP/1.1 ${response.status} ${STATUS_TEXT[response.status] ?? ""}\r\n`;
  for (let i = 0; i < response.headers.length; i += 2) head += `${response.headers[i]}: ${response.headers[i + 1]}\r\n`;
  head += `Content-Length: ${body.byteLength}\r\nConnection: close\r\n\r\n`;
  socket.end(Buffer.concat([Buffer.from(head, "latin1"), body]));
}

export class NodeHttpServer implements TransportServer {
  readonly description = "node:http";
  private readonly server: Server;

  constructor(handler: RequestHandler, limits: ConnectionLimits, idleTimeoutMs = IDLE_TIMEOUT_MS) {
    this.server = createServer({ keepAliveTimeout: 5_000, requestTimeout: 60_000 }, (req: IncomingMessage, res: ServerResponse) => {
      if (req.rawHeaders.length / 2 > MAX_HEADER_FIELDS) {
        req.socket.destroy();
        return;
      }
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
        headerValues: (name) => rawHeaderValues(req.rawHeaders, name),
        remoteAddress: () => req.socket.remoteAddress ?? "",
      });
      if (exchange.kind === "respond") {
        writeResponse(res, exchange.response, limits.responseStallMs);
        return;
      }
      const sink = exchange.sink;
      let bodyDone = false;
      let aborted = false;
      req.on("data", (chunk: Buffer) => sink.write(chunk));
      req.on("end", () => {
        bodyDone = true;
        // The client has said all it will; the wait for the answer is the service's, not the client's idleness.
        req.socket.setTimeout(0);
        sink.end();
      });
      res.on("close", () => {
        if (!res.writableFinished) {
          aborted = true;
          sink.abort();
        }
      });
      sink.response.then((response) => {
        if (aborted) return response.onSettled?.();
        req.socket.setTimeout(idleTimeoutMs);
        writeResponse(res, response, limits.responseStallMs);
        // "Connection: close" makes node:http close the connection once the answer has left.
        if (!bodyDone && !response.closeConnection) discardRestOfBody(req);
      });
    });
    // One field more than allowed is read, so that a longer list is seen (and refused) rather than silently cut short.
    this.server.maxHeadersCount = MAX_HEADER_FIELDS + 1;
    this.server.maxConnections = limits.maxConnections;
    this.server.setTimeout(idleTimeoutMs, (socket) => socket.destroy());
    this.server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
      // A parser rejection (duplicate or conflicting Content-Length, a malformed head) gets the same Problem as on
      // uWebSockets.js; a connection that is merely reset or timed out gets nothing.
      if (socket.writable && error.code?.startsWith("HPE_") && error.code !== "HPE_TIMEOUT") writeRaw(socket, handler.unparsable());
      else socket.destroy();
    });
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
