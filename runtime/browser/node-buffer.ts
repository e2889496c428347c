// The part of node:buffer the validation core uses, for the browser bundle (the build aliases node:buffer here).
// Semantics follow Node's for these calls; nothing else of Buffer is provided.

const fatalDecoder = new TextDecoder("utf-8", { fatal: true });
const encoder = new TextEncoder();

export class BrowserBuffer extends Uint8Array {
  /** Buffer#copy: copies source[sourceStart, sourceEnd) into target at targetStart; returns the number of bytes copied. */
  copy(target: Uint8Array, targetStart = 0, sourceStart = 0, sourceEnd = this.length): number {
    const chunk = this.subarray(sourceStart, Math.min(sourceEnd, sourceStart + target.length - targetStart));
    target.set(chunk, targetStart);
    return chunk.length;
  }
}

function from(text: string, encoding: "utf8"): BrowserBuffer;
function from(buffer: ArrayBufferLike, byteOffset: number, length: number): BrowserBuffer;
function from(source: string | ArrayBufferLike, second: unknown, length?: number): BrowserBuffer {
  if (typeof source === "string") {
    const bytes = encoder.encode(source);
    return new BrowserBuffer(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  return new BrowserBuffer(source as ArrayBuffer, second as number, length);
}

export const Buffer = {
  from,
  alloc: (size: number): BrowserBuffer => new BrowserBuffer(size),
  allocUnsafe: (size: number): BrowserBuffer => new BrowserBuffer(size),
};
export type Buffer = BrowserBuffer;

export function isAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! > 0x7f) return false;
  return true;
}

export function isUtf8(bytes: Uint8Array): boolean {
  try {
    fatalDecoder.decode(bytes);
    return true;
  } catch {
    return false;
  }
}
