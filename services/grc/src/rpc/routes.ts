import type { ConnectRouter } from "@connectrpc/connect";
import { GrcService } from "@vulnscan/proto/vulnscan/grc/v1/grc_service_pb.js";
import type { GrcRpcService } from "./grc-service.js";

export const grcServiceNames = [GrcService.typeName];

export const grcRoutes = (impl: GrcRpcService) => (router: ConnectRouter) => {
  router.service(GrcService, impl);
};
