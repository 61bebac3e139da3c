// kafkajs ships no types for its internal modules. A static import, not createRequire: a
// bundle holding kafkajs then patches the copy it bundled, and node_modules' copy otherwise.
// @ts-expect-error
import RequestQueueModule from "kafkajs/src/network/requestQueue/index.js";

/*
 * kafkajs 2.2.4 (its latest release) re-arms a timer on every broker connection even when no
 * request waits: `scheduleCheckPendingRequests` passes `throttledUntil - Date.now()`, negative
 * when nothing is throttled, to setTimeout, which Node runs after 1 ms, and the check schedules
 * itself again (tulios/kafkajs#1556, #1704; the fix proposed upstream in #1667 is unreleased).
 * Each idle service woke about 1,600 times a second and spent 3-5 % of a core doing nothing.
 * This replaces the method with the proposed fix: a check is scheduled only while requests are
 * pending, at the end of a throttle or after the library's 10 ms interval. The queue still
 * checks when a request is answered or a new one arrives, as before.
 */

interface RequestQueueLike {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
}

/** kafkajs' own interval between checks while requests wait (src/network/requestQueue). */
const CHECK_PENDING_REQUESTS_INTERVAL = 10;

/** kafkajs' RequestQueue class: the module kafkajs itself loads. */
export const RequestQueue = RequestQueueModule as { prototype: RequestQueueLike };

RequestQueue.prototype.scheduleCheckPendingRequests = function scheduleCheckPendingRequests(this: RequestQueueLike) {
  if (this.throttleCheckTimeoutId || this.pending.length === 0) return;
  const throttledFor = this.throttledUntil - Date.now();
  this.throttleCheckTimeoutId = setTimeout(
    () => {
      this.throttleCheckTimeoutId = null;
      this.checkPendingRequests();
    },
    throttledFor > 0 ? throttledFor : CHECK_PENDING_REQUESTS_INTERVAL,
  );
};
