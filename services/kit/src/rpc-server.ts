import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import type { ConnectRouter, Interceptor } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";

export interface RpcServer {
  port: number;
  close(timeoutMs?: number): Promise<void>;
}

/**
 * Serves Connect, gRPC and gRPC-Web over cleartext HTTP/2 (h2c), which is what
 * in-cluster gRPC clients and Kubernetes' gRPC probes speak.
 */
export async function startRpcServer(opts: {
  host: string;
  port: number;
  routes: (router: ConnectRouter) => void;
  interceptors: Interceptor[];
}): Promise<RpcServer> {
  const handler = connectNodeAdapter({ routes: opts.routes, interceptors: opts.interceptors });
  const server = http2.createServer(handler);
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on("session", (s) => {
    sessions.add(s);
    s.once("close", () => sessions.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: (timeoutMs = 5000) =>
      new Promise<void>((resolve) => {
        // GOAWAY lets in-flight calls finish; stragglers are cut after the timeout.
        const timer = setTimeout(() => {
          for (const s of sessions) s.destroy();
        }, timeoutMs);
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        for (const s of sessions) s.close();
      }),
  };
}
