import multipart from "@fastify/multipart";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerErrorHandling } from "../../plugins/errors.js";
import { MAX_EVIDENCE_BYTES, readUpload } from "./upload.js";

/*
 * The upload reader over real HTTP: the multipart parser reports an oversized file either from the
 * parts' iterator or from the file's buffer, depending on how the body's chunks arrive. Both must
 * come out as the same 422 on `file`, never the parser's bare 413.
 */
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  app = Fastify();
  registerErrorHandling(app);
  await app.register(multipart, { limits: { fileSize: MAX_EVIDENCE_BYTES, files: 1 } });
  app.post("/upload", async (req) => {
    const { fields, file } = await readUpload(req);
    return { title: fields.title, name: file.name, size: file.bytes.length };
  });
  base = await app.listen({ host: "127.0.0.1", port: 0 });
});

afterAll(() => app.close());

async function upload(bytes: number, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append("file", new Blob([new Uint8Array(bytes)]), "evidence.bin");
  const res = await fetch(`${base}/upload`, { method: "POST", body: form });
  return { status: res.status, body: await res.json() };
}

describe("readUpload", () => {
  it("accepts a file of exactly the limit with its text fields", async () => {
    expect(await upload(MAX_EVIDENCE_BYTES, { title: "policy" })).toEqual({
      status: 200,
      body: { title: "policy", name: "evidence.bin", size: MAX_EVIDENCE_BYTES },
    });
  });

  it("answers 422 on `file` for every oversized file, however its chunks fall", async () => {
    const sizes = [1, 2, 100, 4096, 65_536, 65_537, 1_000_000];
    for (let round = 0; round < 3; round++) {
      for (const over of sizes) {
        const res = await upload(MAX_EVIDENCE_BYTES + over, { title: "big" });
        expect({ over, status: res.status, body: res.body }).toMatchObject({
          over,
          status: 422,
          body: { error_code: "VALIDATION_ERROR", field: "file" },
        });
      }
    }
  });

  it("answers 422 on `file` when the file part is missing", async () => {
    const form = new FormData();
    form.append("title", "no file");
    const res = await fetch(`${base}/upload`, { method: "POST", body: form });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ error_code: "VALIDATION_ERROR", field: "file" });
  });
});
