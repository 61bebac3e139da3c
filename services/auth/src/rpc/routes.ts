import type { ConnectRouter } from "@connectrpc/connect";
import { AuthService } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import type { AuthRpcService } from "./auth-service.js";

export const authServiceNames = [AuthService.typeName];

export const authRoutes = (impl: AuthRpcService) => (router: ConnectRouter) => {
  router.service(AuthService, impl);
};
