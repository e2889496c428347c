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
  /** The peer address of the connection. Valid only during the synchronous call to `begin`. */
  remoteAddress(): string;
}

export interface OutgoingResponse {
  status: number;
  /** Flat list: name, value, name, value, … */
  headers: readonly string[];
  body: string | Uint8Array;
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
