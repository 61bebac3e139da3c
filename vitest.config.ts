import { defineConfig } from "vitest/config";

/*
 * Two projects: `unit` needs nothing running; `integration` gets a real Kafka broker and a
 * real MongoDB-protocol server from the global setup (scripts/stack), shared by its files,
 * which run one at a time because the machine has two cores.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: [
            "services/*/src/**/*.test.ts",
            "gateway/src/**/*.test.ts",
            "test/unit/**/*.test.ts",
            "test/security/unit/**/*.test.ts",
            "web/src/**/*.test.ts",
            "clients/typescript/src/**/*.test.ts",
          ],
          environment: "node",
        },
      },
      {
        test: {
          name: "integration",
          include: ["services/*/test/**/*.test.ts", "gateway/test/**/*.test.ts", "test/**/*.test.ts", "scripts/**/*.test.ts"],
          exclude: ["test/unit/**", "test/security/unit/**", "**/node_modules/**"],
          environment: "node",
          globalSetup: ["test/support/global-setup.ts"],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
