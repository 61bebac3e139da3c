/** Collects text or bytes into chunks of at most `max` bytes (the RPC's 64 KiB per message). */
export const CHUNK_BYTES = 64 * 1024;

export class Chunker {
  private parts: Buffer[] = [];
  private size = 0;

  constructor(private readonly max = CHUNK_BYTES) {}

  /** Adds data; returns the full chunks that are ready. */
  push(data: string | Uint8Array): Buffer[] {
    let buf = typeof data === "string" ? Buffer.from(data, "utf8") : Buffer.from(data);
    const out: Buffer[] = [];
    while (buf.length > 0) {
      const room = this.max - this.size;
      const take = buf.subarray(0, room);
      this.parts.push(take);
      this.size += take.length;
      buf = buf.subarray(take.length);
      if (this.size >= this.max) out.push(this.take());
    }
    return out;
  }

  /** What is left. */
  flush(): Buffer[] {
    return this.size > 0 ? [this.take()] : [];
  }

  private take(): Buffer {
    const b = Buffer.concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    return b;
  }
}
