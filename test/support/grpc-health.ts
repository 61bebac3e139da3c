import { fromBinary, toBinary, create } from "@bufbuild/protobuf";
import * as grpc from "@grpc/grpc-js";
import {
  HealthCheckRequestSchema,
  HealthCheckResponseSchema,
  HealthCheckResponse_ServingStatus as ServingStatus,
} from "@vulnscan/proto/grpc/health/v1/health_pb.js";

/**
 * Calls grpc.health.v1.Health/Check with @grpc/grpc-js — a standard gRPC client, the same
 * kind Kubernetes' gRPC probes and grpcurl are — to keep our servers honest for them.
 */
export function grpcHealthCheck(rpcUrl: string, service = ""): Promise<string> {
  const address = rpcUrl.replace(/^https?:\/\//, "");
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  return new Promise<string>((resolve, reject) => {
    client.makeUnaryRequest(
      "/grpc.health.v1.Health/Check",
      (req: { service: string }) => Buffer.from(toBinary(HealthCheckRequestSchema, create(HealthCheckRequestSchema, req))),
      (buf: Buffer) => fromBinary(HealthCheckResponseSchema, buf),
      { service },
      { deadline: Date.now() + 5000 },
      (err, res) => {
        client.close();
        if (err) reject(err);
        else resolve(ServingStatus[res!.status]);
      },
    );
  });
}
