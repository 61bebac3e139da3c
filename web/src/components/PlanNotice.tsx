import type { ReactNode } from "react";
import { PAID_FEATURES, type PaidFeature } from "../plan.js";

const cap = (s: string) => `${s.charAt(0).toUpperCase()}${s.slice(1)}`;

/**
 * Said before a form is filled: the organization's plan does not include this feature, what to ask
 * for, and what the user can do meanwhile (`instead`).
 */
export function PlanNotice({ feature, instead }: { feature: PaidFeature; instead: ReactNode }) {
  const what = PAID_FEATURES[feature].words;
  return (
    <div className="notice plan-notice" role="status">
      <h2>Your plan does not include {what}</h2>
      <p>
        {cap(what)} come with the Professional and Enterprise plans; your organization is on Startup. Ask whoever runs vulnscan for your organization to move it
        to Professional (operators: <code>npm run admin -- set-plan --org … --plan professional</code>).
      </p>
      <p>{instead}</p>
    </div>
  );
}
