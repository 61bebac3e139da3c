import type { ServiceImpl } from "@connectrpc/connect";
import type {
  AuthService,
  CheckSessionRequest,
  CreateApiKeyRequest,
  CreateOrganizationRequest,
  CreateUserRequest,
  DisableMfaRequest,
  EnableMfaRequest,
  GetAccountRequest,
  GetOrganizationRequest,
  GetPlanRequest,
  IssueTokenRequest,
  ListApiKeysRequest,
  ListOrganizationsRequest,
  ListSessionsRequest,
  RefreshTokenRequest,
  RegenerateRecoveryCodesRequest,
  RevokeAllSessionsRequest,
  RevokeApiKeyRequest,
  RevokeSessionRequest,
  SetPlanRequest,
  SetUserDisabledRequest,
  SetupMfaRequest,
  VerifyApiKeyRequest,
} from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import type { AuthDomain } from "../domain/index.js";
import type { IssuedToken } from "../domain/types.js";
import {
  apiKeyToProto,
  clientInfo,
  customLimitsFromProto,
  dateOf,
  orgToProto,
  planToProto,
  sessionToProto,
  tierFromProto,
  ts,
  userToProto,
} from "./mappers.js";

const tokenResponse = (t: IssuedToken) => ({
  accessToken: t.accessToken,
  tokenType: t.tokenType,
  expiresIn: t.expiresIn,
  sessionId: t.sessionId,
  userId: t.userId,
  orgId: t.orgId,
});

/**
 * vulnscan.auth.v1.AuthService. Each handler maps the request, calls one use case and maps
 * the answer; errors are domain errors the kit's interceptor turns into Connect codes.
 */
export class AuthRpcService implements ServiceImpl<typeof AuthService> {
  constructor(
    private readonly domain: AuthDomain,
    private readonly jwks: { issuer: string; audience: string; cacheSeconds: number },
  ) {}

  async issueToken(req: IssueTokenRequest) {
    const t = await this.domain.login.issueToken({
      username: req.username,
      password: req.password,
      mfaCode: req.mfaCode,
      client: clientInfo(req.ip, req.userAgent),
    });
    return tokenResponse(t);
  }

  async refreshToken(req: RefreshTokenRequest) {
    const t = await this.domain.login.refreshToken({
      orgId: req.orgId,
      accessToken: req.accessToken,
      client: clientInfo(req.ip, req.userAgent),
    });
    return tokenResponse(t);
  }

  async getJwks() {
    const keys = await this.domain.keyring.published();
    return {
      keys: keys.map((k) => ({
        kid: k.kid,
        kty: k.publicJwk.kty,
        alg: k.alg,
        use: "sig",
        crv: k.publicJwk.crv ?? "",
        x: k.publicJwk.x ?? "",
        y: k.publicJwk.y ?? "",
      })),
      issuer: this.jwks.issuer,
      audience: this.jwks.audience,
      cacheSeconds: this.jwks.cacheSeconds,
    };
  }

  async listSessions(req: ListSessionsRequest) {
    const sessions = await this.domain.sessions.list(req.orgId, req.userId, req.currentSessionId);
    return { sessions: sessions.map(sessionToProto) };
  }

  async revokeSession(req: RevokeSessionRequest) {
    return { sessionId: await this.domain.sessions.revoke(req.orgId, req.userId, req.sessionId) };
  }

  async revokeAllSessions(req: RevokeAllSessionsRequest) {
    return { revokedCount: await this.domain.sessions.revokeAll(req.orgId, req.userId) };
  }

  async checkSession(req: CheckSessionRequest) {
    const c = await this.domain.sessions.check(req.orgId, req.sessionId);
    return { active: c.active, userId: c.userId, expiresAt: ts(c.expiresAt) };
  }

  async setupMfa(req: SetupMfaRequest) {
    return this.domain.mfa.setup(req.orgId, req.userId);
  }

  async enableMfa(req: EnableMfaRequest) {
    const { recoveryCodes } = await this.domain.mfa.enable(req.orgId, req.userId, req.code);
    return { mfaEnabled: true, recoveryCodes };
  }

  async regenerateRecoveryCodes(req: RegenerateRecoveryCodesRequest) {
    return { recoveryCodes: await this.domain.mfa.regenerateRecoveryCodes(req.orgId, req.userId, req.code) };
  }

  async getAccount(req: GetAccountRequest) {
    const { user, organization } = await this.domain.directory.account(req.orgId, req.userId);
    return { user: userToProto(user), organization: orgToProto(organization) };
  }

  async disableMfa(req: DisableMfaRequest) {
    return { mfaEnabled: await this.domain.mfa.disable(req.orgId, req.userId, req.code, clientInfo(req.ip, req.userAgent)) };
  }

  async createApiKey(req: CreateApiKeyRequest) {
    const { apiKey, key } = await this.domain.apiKeys.create({
      orgId: req.orgId,
      userId: req.userId,
      name: req.name,
      permissions: req.permissions,
      expiresAt: dateOf(req.expiresAt),
    });
    return { apiKey: apiKeyToProto(apiKey), key };
  }

  async listApiKeys(req: ListApiKeysRequest) {
    return { apiKeys: (await this.domain.apiKeys.list(req.orgId)).map(apiKeyToProto) };
  }

  async revokeApiKey(req: RevokeApiKeyRequest) {
    return { apiKey: apiKeyToProto(await this.domain.apiKeys.revoke(req.orgId, req.apiKeyId)) };
  }

  async verifyApiKey(req: VerifyApiKeyRequest) {
    const v = await this.domain.apiKeys.verify(req.key);
    return {
      orgId: v.orgId,
      apiKeyId: v.apiKeyId,
      permissions: [...v.permissions],
      name: v.name,
      expiresAt: ts(v.expiresAt),
      createdByUserId: v.createdByUserId,
    };
  }

  async getOrganization(req: GetOrganizationRequest) {
    return { organization: orgToProto(await this.domain.directory.getOrganization(req.orgId)) };
  }

  async getPlan(req: GetPlanRequest) {
    return { plan: planToProto(await this.domain.directory.getPlan(req.orgId)) };
  }

  async createOrganization(req: CreateOrganizationRequest) {
    return { organization: orgToProto(await this.domain.directory.createOrganization(req.name, tierFromProto(req.tier))) };
  }

  async createUser(req: CreateUserRequest) {
    return { user: userToProto(await this.domain.directory.createUser(req.orgId, req.email, req.password)) };
  }

  async setPlan(req: SetPlanRequest) {
    const view = await this.domain.directory.setPlan(req.orgId, tierFromProto(req.tier), customLimitsFromProto(req.customLimits));
    return { organization: orgToProto(view) };
  }

  async setUserDisabled(req: SetUserDisabledRequest) {
    return this.domain.accounts.setDisabled(req.orgId, req.userId, req.disabled);
  }

  async getAuthState() {
    const s = await this.domain.authState.read();
    return {
      asOf: ts(s.asOf),
      revokedSessions: s.revokedSessions.map((r) => ({ ...r, tokensValidUntil: ts(r.tokensValidUntil) })),
      revokedApiKeys: s.revokedApiKeys.map((k) => ({ ...k, expiresAt: ts(k.expiresAt) })),
      disabledUsers: s.disabledUsers,
    };
  }

  async listOrganizations(req: ListOrganizationsRequest) {
    const page = await this.domain.directory.listOrganizations(req.pagination?.page ?? 0, req.pagination?.perPage ?? 0);
    return {
      organizations: page.items.map(orgToProto),
      pageInfo: { total: page.total, page: page.page, perPage: page.perPage, pages: page.pages },
    };
  }
}
