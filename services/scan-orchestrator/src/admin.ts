// The orchestrator's operator entry point (package export `@vulnscan/scan-orchestrator/admin`), for
// the operator CLI (`npm run admin -- verify-target`): the attestation use case over the `scans`
// database, with no service running. It stores no event and looks nothing up.
import { newId } from "@vulnscan/kit";
import type { Db } from "mongodb";
import { TargetPolicy } from "./domain/target.js";
import { TargetUseCases } from "./domain/targets.js";
import type { TargetRecord } from "./domain/targets-types.js";
import { MongoTargetStore } from "./storage/targets.js";

const noLookups = () => Promise.reject(new Error("the operator CLI looks nothing up"));

/** Marks an IP or CIDR target of the organization verified by the operator, with the reason recorded. */
export async function attestTarget(db: Db, orgId: string, targetId: string, reason: string, operator: string): Promise<TargetRecord> {
  const resolver = { resolve: noLookups };
  const targets = new TargetUseCases({
    store: new MongoTargetStore(db),
    policy: new TargetPolicy({ allowPrivate: true, allowedNetworks: undefined, resolver }),
    proofs: { txt: noLookups, reverse: noLookups, httpFile: noLookups },
    resolver,
    settings: { recheckAfterMs: 30 * 86_400_000, exemptNetworks: undefined, maxRechecksPerRun: 0 },
    now: () => new Date(),
    newTargetId: () => newId("target"),
    newAttemptId: () => newId("attempt"),
  });
  return targets.attest(orgId, targetId, reason, operator);
}
