// The contract between the transport-free request handler and the thin per-transport adapters (uWebSockets.js and
// node:http). An adapter turns its native request into a RequestHead, feeds body chunks to the sink when the handler
// asks for the body, and writes the OutgoingResponse back.

export interface RequestHead {
  /** As sent (methods are case-sensitive). */
  method: string;
  path: string;
  /** The raw query string without "?", "" when absent. */
  query: string;
  /** Lower-case name; "" when absent. Valid only during the synchronous call to `begin`. */
  header(name: string): string;
  /** Every value of the header, in order, including empty ones ([] when absent). Valid only during `begin`. */
  headerValues(name: string): string[];
  /** The peer address of the connection. Valid only during the synchronous call to `begin`. */
  remoteAddress(): string;
}

export interface OutgoingResponse {
  status: number;
  /** Flat list: name, value, name, value, … */
  headers: readonly string[];
  body: string | Uint8Array;
  /** Closes the connection after the answer (the request's framing or pace cannot be trusted for another). */
  closeConnection?: boolean;
  /** Called once the answer has been written out or its connection has closed (releases what the answer held). */
  onSettled?: () => void;
}

export interface BodySink {
  /** The chunk is valid only during the call (uWebSockets.js reuses its memory): the sink copies what it keeps. */
  write(chunk: Uint8Array): void;
  end(): void;
  /** The client went away: release everything; the response will not be written. */
  abort(): void;
  readonly response: Promise<OutgoingResponse>;
}

export type Exchange = { kind: "respond"; response: OutgoingResponse } | { kind: "stream"; sink: BodySink };

export interface RequestHandler {
  begin(head: RequestHead): Exchange;
  /** The answer to a request the transport's own parser rejected (its framing is ambiguous); the connection then closes. */
  unparsable(): OutgoingResponse;
}

export interface ConnectionLimits {
  /** Open client connections at most; past it new connections are refused, so descriptors never run out. */
  maxConnections: number;
  /** A connection whose reader takes no bytes of an answer for this long is closed (the answer is dropped). */
  responseStallMs: number;
}

export function bodyBytes(body: string | Uint8Array): Uint8Array {
  return typeof body === "string" ? Buffer.from(body) : body;
}

/** The body's length in bytes, without encoding a string body (the transports encode it as they write it). */
export function bodyLength(body: string | Uint8Array): number {
  return typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
}

export interface TransportServer {
  /** Which transport really runs (for the start-up log line). */
  readonly description: string;
  listen(host: string, port: number): Promise<number>;
  /** Stops accepting new connections; requests in flight continue. */
  stopAccepting(): void;
  /** Closes what is left once in-flight requests are done. */
  close(): Promise<void>;
}

export const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: "OK",
  204: "No Content",
  400: "Bad Request",
  401: "Unauthorized",
  404: "Not Found",
  405: "Method Not Allowed",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};
