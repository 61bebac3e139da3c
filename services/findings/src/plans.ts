import type { Client } from "@connectrpc/connect";
import type { AuthService } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import type { PlanPort } from "./application.js";

/**
 * Plan facts from auth (GetPlan), cached per organization for at most `ttlMs` (≤ 30 s), so a
 * plan change reaches the AI quota within half a minute. An unset limit fails closed (0).
 */
export class PlanCache implements PlanPort {
  private readonly cache = new Map<string, { at: number; value: { unlimited: boolean; max: number } }>();

  constructor(
    private readonly auth: Pick<Client<typeof AuthService>, "getPlan">,
    private readonly ttlMs = 30_000,
  ) {}

  async aiCredits(orgId: string): Promise<{ unlimited: boolean; max: number }> {
    const hit = this.cache.get(orgId);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.value;
    const { plan } = await this.auth.getPlan({ orgId });
    const limit = plan?.limits?.aiCreditsPerMonth;
    const value = { unlimited: limit?.unlimited ?? false, max: Math.max(0, limit?.max ?? 0) };
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(orgId, { at: Date.now(), value });
    return value;
  }
}
