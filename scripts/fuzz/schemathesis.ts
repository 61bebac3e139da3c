// schemathesis (PyPI), pinned, in a virtualenv of its own in the stack's cache folder
// (scripts/lib/python-tool.ts).

import { ensurePythonTool } from "../lib/python-tool.ts";

export const SCHEMATHESIS_VERSION = "4.32.5";

/** The venv's schemathesis executable, installing it first when missing. */
export const ensureSchemathesis = (log: (line: string) => void): Promise<string> => ensurePythonTool("schemathesis", SCHEMATHESIS_VERSION, log);
