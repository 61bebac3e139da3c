import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, serviceEnvSchema } from "./config.js";

const schema = serviceEnvSchema({ rpcPort: 50051, adminPort: 9461, database: "auth" });

describe("loadConfig", () => {
  it("applies the service defaults", () => {
    const c = loadConfig(schema, {});
    expect(c.RPC_PORT).toBe(50051);
    expect(c.ADMIN_PORT).toBe(9461);
    expect(c.MONGO_DB).toBe("auth");
    expect(c.KAFKA_BROKERS).toEqual(["127.0.0.1:9092"]);
  });

  it("splits and trims the broker list", () => {
    expect(loadConfig(schema, { KAFKA_BROKERS: " a:1, b:2 ," }).KAFKA_BROKERS).toEqual(["a:1", "b:2"]);
  });

  it("fails fast listing every bad variable by name", () => {
    let err: unknown;
    try {
      loadConfig(schema, { RPC_PORT: "70000", MONGO_URL: "postgres://x", KAFKA_BROKERS: "nohost" });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const msg = (err as Error).message;
    expect(msg).toMatch(/RPC_PORT/);
    expect(msg).toMatch(/MONGO_URL: must be a mongodb:\/\/ URL/);
    expect(msg).toMatch(/KAFKA_BROKERS/);
  });
});
