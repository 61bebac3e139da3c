import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import type { AuthService } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import { userOf } from "../../auth/guard.js";
import { HttpError } from "../../errors.js";
import type { ReplyOf, RequestOf } from "../typed.js";
import { accountJson, apiKeyJson, client, sessionJson, tokenJson } from "./mappers.js";
import type * as schema from "./schemas.js";

/** The auth routes' handlers: validated request → one auth RPC → the spec's JSON. */
export function authHandlers(auth: Client<typeof AuthService>) {
  async function issueToken(req: RequestOf<typeof schema.issueToken>) {
    const body = req.body;
    const res = await auth.issueToken({ username: body.username, password: body.password, mfaCode: body.mfa_code ?? "", ...client(req) });
    return tokenJson(res);
  }

  async function refreshToken(req: RequestOf<typeof schema.refreshToken>) {
    const user = userOf(req);
    return tokenJson(await auth.refreshToken({ orgId: user.orgId, accessToken: user.token, ...client(req) }));
  }

  async function listSessions(req: RequestOf<typeof schema.listSessions>) {
    const user = userOf(req);
    const res = await auth.listSessions({ orgId: user.orgId, userId: user.userId, currentSessionId: user.sessionId });
    return { items: res.sessions.map(sessionJson), total: res.sessions.length };
  }

  async function revokeSession(req: RequestOf<typeof schema.revokeSession>) {
    const user = userOf(req);
    const res = await auth.revokeSession({ orgId: user.orgId, userId: user.userId, sessionId: req.params.session_id });
    return { id: res.sessionId, status: "revoked", message: "Session revoked; its tokens no longer work" };
  }

  async function logoutAll(req: RequestOf<typeof schema.logoutAll>) {
    const user = userOf(req);
    const res = await auth.revokeAllSessions({ orgId: user.orgId, userId: user.userId });
    return { revoked: res.revokedCount, message: "All sessions revoked" };
  }

  async function setupMfa(req: RequestOf<typeof schema.setupMfa>) {
    const user = userOf(req);
    const res = await auth.setupMfa({ orgId: user.orgId, userId: user.userId });
    return { secret: res.secret, otpauth_uri: res.otpauthUri };
  }

  async function enableMfa(req: RequestOf<typeof schema.enableMfa>) {
    const user = userOf(req);
    const res = await auth.enableMfa({ orgId: user.orgId, userId: user.userId, code: req.body.code });
    return { mfa_enabled: res.mfaEnabled, recovery_codes: res.recoveryCodes };
  }

  async function regenerateRecoveryCodes(req: RequestOf<typeof schema.regenerateRecoveryCodes>) {
    const user = userOf(req);
    const res = await auth.regenerateRecoveryCodes({ orgId: user.orgId, userId: user.userId, code: req.body.code });
    return { recovery_codes: res.recoveryCodes, recovery_codes_remaining: res.recoveryCodes.length };
  }

  async function getMe(req: RequestOf<typeof schema.getMe>) {
    const user = userOf(req);
    return accountJson(await auth.getAccount({ orgId: user.orgId, userId: user.userId }));
  }

  async function disableMfa(req: RequestOf<typeof schema.disableMfa>) {
    const user = userOf(req);
    const res = await auth.disableMfa({ orgId: user.orgId, userId: user.userId, code: req.body.code, ...client(req) });
    return { mfa_enabled: res.mfaEnabled };
  }

  async function createApiKey(req: RequestOf<typeof schema.createApiKey>, reply: ReplyOf<typeof schema.createApiKey>) {
    const user = userOf(req);
    const body = req.body;
    let expiresAt: Date | undefined;
    if (body.expires_at !== undefined) {
      expiresAt = new Date(body.expires_at);
      if (Number.isNaN(expiresAt.getTime())) throw new HttpError(422, "VALIDATION_ERROR", "expires_at must be an ISO 8601 timestamp", "expires_at");
    }
    const res = await auth.createApiKey({
      orgId: user.orgId,
      userId: user.userId,
      name: body.name,
      permissions: body.permissions,
      expiresAt: expiresAt ? timestampFromDate(expiresAt) : undefined,
    });
    return reply.code(201).send({ ...apiKeyJson(res.apiKey!), key: res.key });
  }

  async function listApiKeys(req: RequestOf<typeof schema.listApiKeys>) {
    const res = await auth.listApiKeys({ orgId: userOf(req).orgId });
    return { items: res.apiKeys.map(apiKeyJson), total: res.apiKeys.length };
  }

  async function revokeApiKey(req: RequestOf<typeof schema.revokeApiKey>) {
    const res = await auth.revokeApiKey({ orgId: userOf(req).orgId, apiKeyId: req.params.api_key_id });
    return apiKeyJson(res.apiKey!);
  }

  return {
    issueToken,
    refreshToken,
    listSessions,
    revokeSession,
    logoutAll,
    setupMfa,
    enableMfa,
    disableMfa,
    regenerateRecoveryCodes,
    getMe,
    createApiKey,
    listApiKeys,
    revokeApiKey,
  };
}
