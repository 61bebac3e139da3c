import type { ExportWriters } from "../domain/ports.js";
import { csvExport } from "./csv.js";
import { jsonExport } from "./json.js";
import { pdfExport } from "./pdf-export.js";

/** The writers of the export formats, as the domain's Exports takes them. */
export const exportWriters: ExportWriters = { csv: csvExport, json: jsonExport, pdf: pdfExport };
