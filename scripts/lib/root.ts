import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root, wherever the script was started from. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
