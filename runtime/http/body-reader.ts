// Reads a request body as it streams in: stops at the raw limit, inflates gzip chunk by chunk and stops at the
// decompressed limit (a gzip bomb is never inflated past it), and holds no more than the process's memory budget allows.
import { createGunzip, type Gunzip } from "node:zlib";

// A full in-flight memory budget is a server-wide rate limit: the contract's code set has no other that fits.
export type BodyFailure = "ERR_PAYLOAD_TOO_LARGE" | "ERR_INVALID_CONTENT_ENCODING" | "ERR_RATE_LIMITED";
export type BodyResult = { ok: true; bytes: Uint8Array } | { ok: false; code: BodyFailure; detail: string };

/** Bytes of request bodies held by this process; a reservation over the budget fails rather than waits. */
export class MemoryBudget {
  private used = 0;
  constructor(readonly limit: number) {}
  tryReserve(bytes: number): boolean {
    if (this.used + bytes > this.limit) return false;
    this.used += bytes;
    return true;
  }
  release(bytes: number): void {
    this.used -= bytes;
  }
}

export interface BodyLimits {
  maxBodyBytes: number;
  maxDecompressedBytes: number;
}

export class BodyReader {
  readonly result: Promise<BodyResult>;
  private settle!: (result: BodyResult) => void;
  private settled = false;
  private reserved = 0;
  private rawBytes = 0;
  /** Identity bodies of known length are copied straight into one exactly-sized array. */
  private target: Uint8Array | undefined;
  private chunks: Uint8Array[] = [];
  private decodedBytes = 0;
  private gunzip: Gunzip | undefined;

  constructor(
    private readonly limits: BodyLimits,
    private readonly budget: MemoryBudget,
    gzip: boolean,
    declaredLength: number | undefined,
  ) {
    this.result = new Promise((resolve) => (this.settle = resolve));
    if (gzip) this.gunzip = this.startGunzip();
    else if (declaredLength !== undefined && this.reserve(declaredLength)) this.target = new Uint8Array(declaredLength);
  }

  write(chunk: Uint8Array): void {
    if (this.settled) return;
    this.rawBytes += chunk.byteLength;
    if (this.rawBytes > this.limits.maxBodyBytes) return this.fail("ERR_PAYLOAD_TOO_LARGE", `The request body is larger than ${this.limits.maxBodyBytes} bytes.`);
    // The chunk is valid only during this call: it is copied wherever it is kept.
    if (this.gunzip !== undefined) {
      if (this.reserve(chunk.byteLength)) this.gunzip.write(new Uint8Array(chunk));
    } else if (this.target !== undefined) {
      if (this.rawBytes > this.target.byteLength) return this.fail("ERR_PAYLOAD_TOO_LARGE", "The request body is longer than its Content-Length.");
      this.target.set(chunk, this.rawBytes - chunk.byteLength);
    } else if (this.reserve(chunk.byteLength)) this.chunks.push(new Uint8Array(chunk));
  }

  end(): void {
    if (this.settled) return;
    if (this.gunzip !== undefined) {
      if (this.rawBytes === 0) return this.fail("ERR_INVALID_CONTENT_ENCODING", "Content-Encoding gzip was declared but the body is empty.");
      this.gunzip.end();
    } else if (this.target !== undefined) this.succeed(this.target.subarray(0, this.rawBytes));
    else this.succeed(concat(this.chunks, this.rawBytes));
  }

  /** Drops everything held; the result, if still pending, becomes a failure nobody reads. */
  abort(): void {
    if (!this.settled) this.fail("ERR_PAYLOAD_TOO_LARGE", "aborted");
    this.release();
  }

  /** Returns the bytes held to the budget: call once the body has been handed over or is no longer needed. */
  release(): void {
    this.budget.release(this.reserved);
    this.reserved = 0;
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
    if (!this.budget.tryReserve(bytes)) {
      this.fail("ERR_RATE_LIMITED", "The service is at capacity: it holds as many request bodies in memory as it allows. Retry shortly.");
      return false;
    }
    this.reserved += bytes;
    return true;
  }

  private succeed(bytes: Uint8Array): void {
    this.settled = true;
    this.chunks = [];
    this.settle({ ok: true, bytes });
  }

  private fail(code: BodyFailure, detail: string): void {
    this.settled = true;
    this.chunks = [];
    this.target = undefined;
    this.gunzip?.destroy();
    this.release();
    this.settle({ ok: false, code, detail });
  }
}

/** One exactly-sized, unshared array (so its buffer can be transferred to a worker thread). */
function concat(chunks: readonly Uint8Array[], total: number): Uint8Array {
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
