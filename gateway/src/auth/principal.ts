/** The six API-key permissions of the spec. */
export const PERMISSIONS = ["read:scans", "write:scans", "read:findings", "write:findings", "read:grc", "write:grc"] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Who is calling, established once per request by the guard. */
export type Principal =
  | { kind: "user"; orgId: string; userId: string; sessionId: string; email: string; token: string }
  | { kind: "api_key"; orgId: string; apiKeyId: string; name: string; permissions: Permission[] };

/** The name recorded in histories and comments: the user's email, or the API key's name. */
export function actorName(p: Principal): string {
  return p.kind === "user" ? p.email || p.userId : p.name || p.apiKeyId;
}
