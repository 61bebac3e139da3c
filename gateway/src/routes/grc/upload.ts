import type { MultipartFile } from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import { HttpError } from "../../errors.js";
import { fieldErrorsOf } from "../../plugins/field-errors.js";
import { nulPath } from "../../plugins/no-nul.js";
import { uploadEvidenceFields } from "./schemas.js";

/** Largest evidence file (grc refuses larger ones too). */
export const MAX_EVIDENCE_BYTES = 10 * 1024 * 1024;
const TEXT_FIELDS = ["title", "description", "expires_at", "observed_from", "observed_to"] as const;
type TextField = (typeof TEXT_FIELDS)[number];

const invalid = (field: string, detail: string) => new HttpError(422, "VALIDATION_ERROR", detail, field);
const FILE_TOO_LARGE = "FST_REQ_FILE_TOO_LARGE";
const tooLarge = () => invalid("file", `file is larger than ${MAX_EVIDENCE_BYTES} bytes`);
/** The parser's count limits: a malformed upload (400), not a body too large (its own 413). */
const COUNT_LIMITS: Record<string, string> = {
  FST_FILES_LIMIT: "One file per upload: the body holds more than one file part",
  FST_FIELDS_LIMIT: "Too many fields: an upload takes a `file` part and at most the five text fields",
  FST_PARTS_LIMIT: "Too many parts in the multipart body",
};

/** The multipart upload: one `file` part and the text fields, the file capped at MAX_EVIDENCE_BYTES. */
export async function readUpload(req: FastifyRequest) {
  if (!req.isMultipart()) throw new HttpError(400, "BAD_REQUEST", "Send the evidence as multipart/form-data with a `file` part");
  const fields: Partial<Record<TextField, string>> = {};
  let file: { name: string; contentType: string; bytes: Buffer } | undefined;
  try {
    for await (const part of req.parts({ limits: { fileSize: MAX_EVIDENCE_BYTES, files: 1, fields: 10, fieldSize: 20_000 } })) {
      if (part.type === "file") {
        if (part.fieldname !== "file") throw invalid(part.fieldname, "the file part must be named `file`");
        file = { name: part.filename, contentType: part.mimetype, bytes: await fileBytes(part) };
      } else if ((TEXT_FIELDS as readonly string[]).includes(part.fieldname)) fields[part.fieldname as TextField] = String(part.value);
      else throw invalid(part.fieldname, `unknown field ${part.fieldname}`);
    }
  } catch (err) {
    // The parser reports the file-size limit either here (its `limit` event ends the parts) or
    // from toBuffer, whichever comes first: both are the same 422 on `file`.
    const code = (err as { code?: string }).code ?? "";
    if (code === FILE_TOO_LARGE) throw tooLarge();
    if (COUNT_LIMITS[code]) throw new HttpError(400, "BAD_REQUEST", COUNT_LIMITS[code]);
    // The multipart parser throws plain errors for a body it cannot read (no boundary, a cut-off
    // part): the client's fault, a 400, never a 500. Its other limit errors carry their own status.
    if (err instanceof HttpError || (err as { statusCode?: number }).statusCode) throw err;
    throw new HttpError(400, "BAD_REQUEST", `Malformed multipart body: ${(err as Error).message}`);
  }
  if (!file) throw invalid("file", "a `file` part is required");
  // The parts skip the route's body validation: the text fields are checked by their schema here.
  // No NUL in them either (plugins/no-nul.ts checks JSON and URLs; these parts it never sees).
  const nul = nulPath(fields);
  if (nul) throw invalid(nul, `${nul} must not contain NUL characters`);
  const validate = req.compileValidationSchema(uploadEvidenceFields, "body");
  if (!validate(fields)) {
    const errors = fieldErrorsOf(validate.errors ?? []);
    const first = errors[0] ?? { field: "body", detail: "The form fields are invalid" };
    throw new HttpError(422, "VALIDATION_ERROR", first.detail, first.field ?? "body", {}, errors);
  }
  return { fields, file };
}

async function fileBytes(part: MultipartFile): Promise<Buffer> {
  try {
    return await part.toBuffer();
  } catch (err) {
    if ((err as { code?: string }).code === FILE_TOO_LARGE) throw tooLarge();
    throw err;
  }
}
