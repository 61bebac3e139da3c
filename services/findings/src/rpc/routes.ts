import type { ConnectRouter } from "@connectrpc/connect";
import { FindingService } from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import type { FindingRpcService } from "./finding-service.js";

export const findingServiceNames = [FindingService.typeName];

export const findingRoutes = (impl: FindingRpcService) => (router: ConnectRouter) => {
  router.service(FindingService, impl);
};
