import { loadConfig, serviceEnvSchema } from "@vulnscan/kit";
import type { z } from "zod";

export const configSchema = serviceEnvSchema({ rpcPort: 50052, adminPort: 9462, database: "scans" });

export type Config = z.infer<typeof configSchema>;

export const loadServiceConfig = (env: NodeJS.ProcessEnv = process.env): Config => loadConfig(configSchema, env);
