import type { ConnectRouter } from "@connectrpc/connect";
import { FindingService } from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import { RetestService } from "@vulnscan/proto/vulnscan/findings/v1/retest_service_pb.js";
import { ScanDiffService } from "@vulnscan/proto/vulnscan/findings/v1/scan_diff_service_pb.js";
import type { FindingRpcService } from "./finding-service.js";
import type { RetestRpcService } from "./retest-service.js";
import type { ScanDiffRpcService } from "./scan-diff-service.js";

export const findingServiceNames = [FindingService.typeName, RetestService.typeName, ScanDiffService.typeName];

export const findingRoutes = (impl: FindingRpcService, retests?: RetestRpcService, diffs?: ScanDiffRpcService) => (router: ConnectRouter) => {
  router.service(FindingService, impl);
  if (retests) router.service(RetestService, retests);
  if (diffs) router.service(ScanDiffService, diffs);
};
