import { timestampDate } from "@bufbuild/protobuf/wkt";
import { Topics, type KafkaBus, type Subscription } from "@vulnscan/kit";
import { RetestResultSchema, type RetestResult as RetestResultMsg } from "@vulnscan/proto/vulnscan/findings/v1/retest_pb.js";
import { INCONCLUSIVE_REASONS, RETEST_VERDICTS, type InconclusiveReason, type RetestResult, type RetestVerdict, type Retests } from "../domain/retest.js";
import { visibleNuls } from "../rpc/mappers.js";

export const RETEST_CONSUMER_GROUP = "findings-retest";

/**
 * A verdict the scanner could not have meant (empty, unknown) counts as inconclusive: it must
 * never resolve a finding. Its texts are the scanner's (a binary file's bytes in the evidence):
 * NULs are made visible as detections' are, or the database refuses the whole write.
 */
export function resultOf(m: RetestResultMsg): RetestResult {
  const verdict: RetestVerdict = (RETEST_VERDICTS as readonly string[]).includes(m.verdict) ? (m.verdict as RetestVerdict) : "inconclusive";
  const reason = (INCONCLUSIVE_REASONS as readonly string[]).includes(m.reason) ? (m.reason as InconclusiveReason) : "";
  return {
    retest_id: m.retestId,
    org_id: m.orgId,
    verdict,
    reason: verdict === "inconclusive" ? reason || "unreachable" : "",
    detail: visibleNuls(m.detail),
    evidence: visibleNuls({ request: m.evidence?.request ?? "", response: m.evidence?.response ?? "" }),
    worker_id: m.workerId,
    finished_at: m.finishedAt ? timestampDate(m.finishedAt) : new Date(),
  };
}

/** Thin consumer of vulnscan.retest.results: decode → Retests.complete (guarded: a redelivery changes nothing) → commit. */
export function subscribeRetestResults(
  kafka: KafkaBus,
  retests: Pick<Retests, "complete">,
  opts: { topic?: string; groupId?: string } = {},
): Promise<Subscription> {
  return kafka.subscribe({
    groupId: opts.groupId ?? RETEST_CONSUMER_GROUP,
    topic: opts.topic ?? Topics.retestResults,
    schema: RetestResultSchema,
    handle: async (m) => {
      if (!m.retestId || !m.orgId) return;
      await retests.complete(resultOf(m));
    },
  });
}
