// The organization's plan, and what the Startup plan does not include, so a page can say so before
// a form is filled instead of failing after submit.
import { api, onSessionChange } from "./api/client.js";
import { ApiError } from "./api/errors.js";
import type { Quota } from "./api/types.js";
import { useLoad } from "./components/ui.js";

/**
 * Features the Startup plan does not include: the operations the OpenAPI document marks with
 * `x-plans: [professional, enterprise]` (gateway `paidPlansOnly`; the browser test checks the two
 * lists agree). The API still refuses them with 403 PLAN_UPGRADE_REQUIRED; this only says it first.
 */
export const PAID_FEATURES = {
  apiKeys: { operation: "post /api/v1/auth/api-keys", words: "API keys" },
  webhooks: { operation: "post /api/v1/webhooks", words: "webhooks" },
  schedules: { operation: "post /api/v1/scans/schedules", words: "scheduled scans" },
} as const;
export type PaidFeature = keyof typeof PAID_FEATURES;

/** Whether the plan includes the feature; true while the plan is not known yet (the API decides in the end). */
export const planIncludes = (plan: string | undefined, feature: PaidFeature) => plan !== "startup" || !(feature in PAID_FEATURES);

/** Who is signed in (GET /api/v1/auth/me), as much as the header and the plan checks need. */
export interface Account {
  email: string;
  organization: { id: string; name?: string; plan: string };
}

// One request per session: the header and the plan checks of every page need it, and it changes rarely.
let cached: Promise<Account | undefined> | undefined;
onSessionChange(() => {
  cached = undefined;
});

/**
 * The signed-in account: GET /api/v1/auth/me, or on a gateway without it (404) the plan from
 * GET /api/v1/scans/quota (the caller adds the token's email and organization id).
 */
export function account(): Promise<Account | undefined> {
  cached ??= api<Account>("/api/v1/auth/me")
    .catch(async (e: unknown) => {
      if (!(e instanceof ApiError && e.status === 404)) throw e;
      const q = await api<Quota>("/api/v1/scans/quota");
      return { email: "", organization: { id: "", plan: q.plan } };
    })
    .catch((e: unknown) => {
      cached = undefined;
      throw e;
    });
  return cached;
}

export function useAccount(): Account | undefined {
  return useLoad(account, []).data;
}

/** The organization's plan id (`startup`, …); undefined while loading or when it cannot be read. */
export function usePlan(): string | undefined {
  return useAccount()?.organization.plan;
}
