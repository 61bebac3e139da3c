// A throwaway Kubernetes control plane for validating manifests: etcd and kube-apiserver
// (scripts/k8s/tools.ts builds them) on loopback ports, a static admin token, no controllers,
// no nodes. Objects are applied with dry-run, so nothing is ever scheduled; only CRDs and the
// namespace are stored, in a temporary etcd data folder removed at stop.

import { generateKeyPairSync } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import { waitUntil } from "../lib/net.ts";
import { freePorts, type Managed, startManaged, tail, tempDirs, terminate } from "../stack/process.ts";
import { ensureKubeApiserver } from "./tools.ts";

export interface KubeResponse {
  status: number;
  body: unknown;
  /** The Warning headers (deprecated APIs, fields the server dropped). */
  warnings: string[];
}

export interface ApiServer {
  url: string;
  /** One HTTPS call with the admin token; the body is sent as JSON unless contentType says otherwise. */
  request(method: string, urlPath: string, body?: unknown, contentType?: string): Promise<KubeResponse>;
  stop(): Promise<void>;
}

export async function startApiServer(log: (line: string) => void): Promise<ApiServer> {
  const bins = await ensureKubeApiserver(log);
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "vulnscan-kube-"));
  tempDirs.add(dir);
  const [etcdClient, etcdPeer, securePort] = await freePorts(3);
  const children: Managed[] = [];
  const stop = async () => {
    for (const child of children.reverse()) await terminate(child);
    await fsp.rm(dir, { recursive: true, force: true });
    tempDirs.delete(dir);
  };
  try {
    const etcdLog = path.join(dir, "etcd.log");
    const etcd = `http://127.0.0.1:${etcdClient}`;
    const peer = `http://127.0.0.1:${etcdPeer}`;
    children.push(
      startManaged(
        "etcd",
        bins.etcd,
        [
          `--data-dir=${path.join(dir, "etcd")}`,
          `--listen-client-urls=${etcd}`,
          `--advertise-client-urls=${etcd}`,
          `--listen-peer-urls=${peer}`,
          `--initial-advertise-peer-urls=${peer}`,
          `--initial-cluster=default=${peer}`,
          "--unsafe-no-fsync", // throwaway data
          "--log-level=warn",
        ],
        { stdio: ["ignore", fs.openSync(etcdLog, "a"), fs.openSync(etcdLog, "a")], exitSignal: "SIGKILL" },
      ),
    );
    await waitUntil(async () => (await fetch(`${etcd}/health`, { signal: AbortSignal.timeout(1000) })).ok, {
      timeoutMs: 30_000,
      what: "etcd",
      failIf: () => (children[0]?.done ? `exited:\n${tail([etcdLog])}` : undefined),
    });

    // Service-account tokens need a signing key even though no pod ever runs.
    const { publicKey, privateKey } = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      publicKeyEncoding: { type: "spki", format: "pem" },
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
    });
    await fsp.writeFile(path.join(dir, "sa.pub"), publicKey);
    await fsp.writeFile(path.join(dir, "sa.key"), privateKey, { mode: 0o600 });
    const token = generateKeyPairSync("ed25519").publicKey.export({ format: "der", type: "spki" }).toString("hex");
    await fsp.writeFile(path.join(dir, "tokens.csv"), `${token},admin,admin,system:masters\n`, { mode: 0o600 });
    const certDir = path.join(dir, "certs");
    const apiLog = path.join(dir, "kube-apiserver.log");
    children.push(
      startManaged(
        "kube-apiserver",
        bins.apiserver,
        [
          `--etcd-servers=${etcd}`,
          "--bind-address=127.0.0.1",
          "--advertise-address=127.0.0.1",
          `--secure-port=${securePort}`,
          `--cert-dir=${certDir}`, // a self-signed serving certificate is generated there
          `--token-auth-file=${path.join(dir, "tokens.csv")}`,
          "--authorization-mode=AlwaysAllow",
          "--service-account-issuer=https://kubernetes.default.svc",
          `--service-account-key-file=${path.join(dir, "sa.pub")}`,
          `--service-account-signing-key-file=${path.join(dir, "sa.key")}`,
          "--service-cluster-ip-range=10.96.0.0/16",
          // No kubernetes Service endpoints to keep (the address is loopback), no flow control.
          "--endpoint-reconciler-type=none",
          "--enable-priority-and-fairness=false",
          "--v=0",
        ],
        { stdio: ["ignore", fs.openSync(apiLog, "a"), fs.openSync(apiLog, "a")], exitSignal: "SIGKILL" },
      ),
    );
    const url = `https://127.0.0.1:${securePort}`;
    let ca: Buffer | undefined;
    const request = (method: string, urlPath: string, body?: unknown, contentType = "application/json"): Promise<KubeResponse> =>
      new Promise((resolve, reject) => {
        ca ??= fs.readFileSync(path.join(certDir, "apiserver.crt"));
        const payload = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
        const req = https.request(
          `${url}${urlPath}`,
          {
            method,
            ca,
            headers: {
              authorization: `Bearer ${token}`,
              accept: "application/json",
              ...(payload === undefined ? {} : { "content-type": contentType }),
            },
            timeout: 30_000,
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (c: Buffer) => chunks.push(c));
            res.on("end", () => {
              const text = Buffer.concat(chunks).toString("utf8");
              let parsed: unknown = text;
              try {
                parsed = JSON.parse(text);
              } catch {
                // not JSON (e.g. /readyz's "ok")
              }
              const warning = res.headers.warning;
              const warnings = warning === undefined ? [] : Array.isArray(warning) ? warning : [warning];
              resolve({ status: res.statusCode ?? 0, body: parsed, warnings });
            });
          },
        );
        req.on("timeout", () => req.destroy(new Error(`${method} ${urlPath}: no answer in 30 s`)));
        req.on("error", (err) => {
          ca = undefined; // read again: the server may have been writing it when it was read
          reject(err);
        });
        req.end(payload);
      });
    await waitUntil(async () => fs.existsSync(path.join(certDir, "apiserver.crt")) && (await request("GET", "/readyz")).status === 200, {
      timeoutMs: 180_000,
      intervalMs: 500,
      what: "kube-apiserver",
      failIf: () => (children[1]?.done ? `exited:\n${tail([apiLog])}` : undefined),
    }).catch((err: Error) => {
      throw new Error(`${err.message}\n${tail([apiLog, etcdLog])}`);
    });
    return { url, request, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
