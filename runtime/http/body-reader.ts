// Reads a request body as it streams in: stops at the raw limit, inflates gzip chunk by chunk and stops at the
// decompressed limit (a gzip bomb is never inflated past it), holds no more than the process's memory budget and the
// client's share of it allow, and cuts off a body that arrives slower than the minimum rate. Memory is reserved as bytes
// arrive, never for a declared Content-Length: a client that announces a large body and trickles it holds nothing.
import { createGunzip, type Gunzip } from "node:zlib";

// A full in-flight memory budget (or client share) is a server-wide rate limit, and so is a body too slow to hold a
// connection for: the contract's code set has no other that fits (408 is not in it).
export type BodyFailure = "ERR_PAYLOAD_TOO_LARGE" | "ERR_INVALID_CONTENT_ENCODING" | "ERR_RATE_LIMITED";
export type BodyResult = { ok: true; bytes: Uint8Array } | { ok: false; code: BodyFailure; detail: string; tooSlow?: true };

/**
 * Bytes of request bodies (and unsent answers) held by this process, in total and per client; a reservation over
 * either limit fails rather than waits. `force` counts bytes already held that cannot be refused (an answer to send).
 */
export class MemoryBudget {
  private used = 0;
  private readonly byClient = new Map<string, number>();
  constructor(
    readonly limit: number,
    readonly clientLimit: number,
  ) {}
  tryReserve(client: string, bytes: number, force = false): boolean {
    const clientUsed = this.byClient.get(client) ?? 0;
    if (!force && (this.used + bytes > this.limit || clientUsed + bytes > this.clientLimit)) return false;
    this.used += bytes;
    this.byClient.set(client, clientUsed + bytes);
    return true;
  }
  release(client: string, bytes: number): void {
    if (bytes === 0) return;
    this.used -= bytes;
    const left = (this.byClient.get(client) ?? 0) - bytes;
    if (left > 0) this.byClient.set(client, left);
    else this.byClient.delete(client);
  }
}

export interface BodyLimits {
  maxBodyBytes: number;
  maxDecompressedBytes: number;
  minBodyBytesPerSecond: number;
  bodyRateWindowMs: number;
}

const TOO_SLOW_DETAIL = (limits: BodyLimits): string =>
  `The request body arrived slower than ${limits.minBodyBytesPerSecond} bytes per second over ${limits.bodyRateWindowMs} ms; the connection is closed.`;

export class BodyReader {
  readonly result: Promise<BodyResult>;
  private settle!: (result: BodyResult) => void;
  private settled = false;
  private reserved = 0;
  private rawBytes = 0;
  private chunks: Uint8Array[] = [];
  private decodedBytes = 0;
  private gunzip: Gunzip | undefined;
  private readonly rateCheck: NodeJS.Timeout | undefined;
  private bytesAtLastCheck = 0;

  constructor(
    private readonly limits: BodyLimits,
    private readonly budget: MemoryBudget,
    /** Whose share of the budget this body counts against. */
    private readonly client: string,
    gzip: boolean,
  ) {
    this.result = new Promise((resolve) => (this.settle = resolve));
    if (gzip) this.gunzip = this.startGunzip();
    if (limits.minBodyBytesPerSecond > 0) this.rateCheck = setInterval(() => this.checkRate(), limits.bodyRateWindowMs).unref();
  }

  write(chunk: Uint8Array): void {
    if (this.settled) return;
    this.rawBytes += chunk.byteLength;
    if (this.rawBytes > this.limits.maxBodyBytes) return this.fail("ERR_PAYLOAD_TOO_LARGE", `The request body is larger than ${this.limits.maxBodyBytes} bytes.`);
    // The chunk is valid only during this call: it is copied wherever it is kept.
    if (!this.reserve(chunk.byteLength)) return;
    if (this.gunzip !== undefined) this.gunzip.write(new Uint8Array(chunk));
    else this.chunks.push(new Uint8Array(chunk));
  }

  end(): void {
    if (this.settled) return;
    if (this.gunzip !== undefined) {
      if (this.rawBytes === 0) return this.fail("ERR_INVALID_CONTENT_ENCODING", "Content-Encoding gzip was declared but the body is empty.");
      this.gunzip.end();
    } else this.succeed(concat(this.chunks, this.rawBytes));
  }

  /** Drops everything held; the result, if still pending, becomes a failure nobody reads. */
  abort(): void {
    if (!this.settled) this.fail("ERR_PAYLOAD_TOO_LARGE", "aborted");
    this.release();
  }

  /** Returns the bytes held to the budget: call once the body has been handed over or is no longer needed. */
  release(): void {
    this.budget.release(this.client, this.reserved);
    this.reserved = 0;
  }

  private checkRate(): void {
    const received = this.rawBytes - this.bytesAtLastCheck;
    this.bytesAtLastCheck = this.rawBytes;
    if (received < (this.limits.minBodyBytesPerSecond * this.limits.bodyRateWindowMs) / 1000) this.fail("ERR_RATE_LIMITED", TOO_SLOW_DETAIL(this.limits), true);
  }

  private startGunzip(): Gunzip {
    const gunzip = createGunzip();
    gunzip.on("data", (chunk: Buffer) => {
      if (this.settled) return;
      this.decodedBytes += chunk.byteLength;
      if (this.decodedBytes > this.limits.maxDecompressedBytes) return this.fail("ERR_PAYLOAD_TOO_LARGE", `The decompressed request body is larger than ${this.limits.maxDecompressedBytes} bytes.`);
      if (this.reserve(chunk.byteLength)) this.chunks.push(chunk);
    });
    gunzip.on("end", () => {
      if (!this.settled) this.succeed(concat(this.chunks, this.decodedBytes));
    });
    gunzip.on("error", () => {
      if (!this.settled) this.fail("ERR_INVALID_CONTENT_ENCODING", "Content-Encoding gzip was declared but the body is not valid gzip (it is corrupt or truncated).");
    });
    return gunzip;
  }

  private reserve(bytes: number): boolean {
    if (!this.budget.tryReserve(this.client, bytes)) {
      this.fail("ERR_RATE_LIMITED", "The service is at capacity for this client or overall: it holds as many request bodies in memory as it allows. Retry shortly.");
      return false;
    }
    this.reserved += bytes;
    return true;
  }

  private succeed(bytes: Uint8Array): void {
    this.settled = true;
    clearInterval(this.rateCheck);
    this.chunks = [];
    this.settle({ ok: true, bytes });
  }

  private fail(code: BodyFailure, detail: string, tooSlow?: true): void {
    this.settled = true;
    clearInterval(this.rateCheck);
    this.chunks = [];
    this.gunzip?.destroy();
    this.release();
    this.settle(tooSlow ? { ok: false, code, detail, tooSlow } : { ok: false, code, detail });
  }
}

/** One exactly-sized, unshared array (so its buffer can be transferred to a worker thread). */
function concat(chunks: readonly Uint8Array[], total: number): Uint8Array {
  // Most small bodies arrive in one chunk, already copied into a buffer of their own.
  const only = chunks.length === 1 ? chunks[0]! : undefined;
  if (only !== undefined && only.byteOffset === 0 && only.buffer.byteLength === total) return only;
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
