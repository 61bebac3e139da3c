// Runs the auth service in-process against the integration stack's Kafka and database.
import { Code, ConnectError, type Client } from "@connectrpc/connect";
import { createRpcClient, errorInfoOf, loadConfig, runService, type RunningService } from "@vulnscan/kit";
import { AuthService } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import { MongoClient, type Db } from "mongodb";
import { setTimeout as sleep } from "node:timers/promises";
import { inject } from "vitest";
import { unique } from "../../../test/support/names.js";
import { compose } from "../src/compose.js";
import { configSchema } from "../src/config.js";
import { TOTP_PERIOD_SECONDS } from "../src/domain/totp.js";

export type AuthClient = Client<typeof AuthService>;

export interface AuthUnderTest {
  running: RunningService;
  client: AuthClient;
  url: string;
  dbName: string;
  stop(): Promise<void>;
}

export async function startAuth(env: Record<string, string> = {}, dbName = unique("auth")): Promise<AuthUnderTest> {
  const config = loadConfig(configSchema, {
    MONGO_URL: inject("mongoUrl"),
    MONGO_DB: dbName,
    KAFKA_BROKERS: inject("kafkaBrokers"),
    RPC_PORT: "0",
    ADMIN_PORT: "0",
    LOG_LEVEL: "silent",
    ...env,
  });
  const running = await runService({ name: "auth", config, compose });
  await running.started;
  const url = `http://127.0.0.1:${running.rpcPort}`;
  const client = createRpcClient(AuthService, url, { breaker: false });
  return { running, client, url, dbName, stop: () => running.stop() };
}

let mongo: MongoClient | undefined;
/** Direct access to a test database, for assertions on what is (not) stored. */
export function database(name: string): Db {
  mongo ??= new MongoClient(inject("mongoUrl"));
  return mongo.db(name);
}
export async function closeDatabases(): Promise<void> {
  await mongo?.close();
  mongo = undefined;
}

export interface RpcFailure {
  code: Code;
  codeName: string;
  errorCode?: string;
  field?: string;
  retryAfterSeconds?: number;
  message: string;
}

/** The code, error_code and field of a failed call (fails the test if the call succeeded). */
export async function failure(p: Promise<unknown>): Promise<RpcFailure> {
  try {
    await p;
  } catch (err) {
    const ce = ConnectError.from(err);
    return { code: ce.code, codeName: Code[ce.code], ...errorInfoOf(ce), message: ce.rawMessage };
  }
  throw new Error("expected the call to fail");
}

export const PASSWORD = "correct horse battery staple";

export async function until<T>(probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await sleep(100);
  }
}

/** Waits until a TOTP step has at least 15 s left, so codes computed now stay valid for the test. */
export async function freshStep(): Promise<void> {
  const into = (Date.now() / 1000) % TOTP_PERIOD_SECONDS;
  if (into > TOTP_PERIOD_SECONDS - 15) await sleep((TOTP_PERIOD_SECONDS - into + 0.2) * 1000);
}
