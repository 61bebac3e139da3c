import { createHash } from "node:crypto";

/**
 * The de-duplication key of detection.proto: one finding per (organization, target, template
 * id, affected component). Hashed so the unique key is short and fixed-length whatever the
 * component string; the parts are length-prefixed so ("a|b", "c") and ("a", "b|c") differ.
 * Target and component are compared as reported (trimmed): a scanner that reports the same
 * component the same way de-duplicates; the template id is case-insensitive.
 */
export function fingerprint(parts: { org_id: string; target: string; template_id: string; affected_component: string }): string {
  const fields = [parts.org_id, parts.target.trim().toLowerCase(), parts.template_id.trim().toLowerCase(), parts.affected_component.trim()];
  const h = createHash("sha256");
  for (const f of fields) h.update(`${Buffer.byteLength(f)}:${f};`);
  return `fp_${h.digest("hex")}`;
}
