// A minimal HTTP/1.1 client over node:net for what fetch cannot do: send a head and part of a body, send slowly, or
// keep sending while the server has already answered.
import { connect, type Socket } from "node:net";

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => resolve(socket));
    socket.once("error", reject);
  });
}

/**
 * Resolves with the first complete response read from the socket (or rejects when it closes first, or after
 * `timeoutMs`: by default minutes, so that only a response that never comes fails, never a slow one).
 */
export function readResponse(socket: Socket, timeoutMs = 300_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let buffer = Buffer.alloc(0);
    const timer = setTimeout(() => finish(new Error("no response in time")), timeoutMs);
    const finish = (error: Error | undefined, response?: RawResponse): void => {
      clearTimeout(timer);
      socket.off("data", onData);
      socket.off("close", onClose);
      if (error) reject(error);
      else resolve(response!);
    };
    const onData = (chunk: Buffer): void => {
      buffer = Buffer.concat([buffer, chunk]);
      const headEnd = buffer.indexOf("\r\n\r\n");
      if (headEnd < 0) return;
      const [statusLine, ...lines] = buffer.subarray(0, headEnd).toString("latin1").split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const length = Number(headers["content-length"] ?? 0);
      if (buffer.length - headEnd - 4 < length) return;
      finish(undefined, { status: Number(statusLine!.split(" ")[1]), headers, body: buffer.subarray(headEnd + 4, headEnd + 4 + length).toString() });
    };
    const onClose = (): void => finish(new Error(`socket closed before a complete response (${buffer.length} bytes read)`));
    socket.on("data", onData);
    socket.on("close", onClose);
  });
}

export function requestHead(path: string, headers: Record<string, string | number>): string {
  return `POST ${path} HTTP/1.1\r\nHost: localhost\r\n${Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("")}\r\n`;
}

/** Sockets whose errors writeQuietly keeps quiet: one listener each, however many writes (a listener a write leaked). */
const quieted = new WeakSet<Socket>();

/** Writes without throwing when the server has already closed the connection. */
export function writeQuietly(socket: Socket, data: string | Uint8Array): Promise<void> {
  if (!quieted.has(socket)) {
    quieted.add(socket);
    socket.on("error", () => undefined);
  }
  return new Promise((resolve) => {
    if (socket.destroyed || !socket.writable) return resolve();
    const done = (): void => {
      socket.off("error", done);
      resolve();
    };
    socket.on("error", done);
    socket.write(data, done);
  });
}

/**
 * Sends `raw` on a new connection; resolves with the first response, or undefined when none comes (the connection is
 * closed, or `timeoutMs` passes: a test expecting an answer gives minutes; one expecting none a short wait, which a busy
 * machine can only make pass, never fail).
 */
export async function exchangeRaw(port: number, raw: string | Uint8Array, timeoutMs: number): Promise<RawResponse | undefined> {
  const socket = await openSocket(port);
  socket.on("error", () => undefined);
  const response = readResponse(socket, timeoutMs).catch((error: Error) => {
    if (/socket closed before a complete response \(0 bytes|no response in time/.test(error.message)) return undefined;
    throw error;
  });
  await writeQuietly(socket, raw);
  try {
    return await response;
  } finally {
    socket.destroy();
  }
}

/** Resolves once the server has closed the connection (a test that waits for it is bounded by its test timeout). */
export function closed(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve();
    socket.once("close", () => resolve());
  });
}
