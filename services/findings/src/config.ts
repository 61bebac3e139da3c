import { loadConfig, serviceEnvSchema } from "@vulnscan/kit";
import type { z } from "zod";

export const configSchema = serviceEnvSchema({ rpcPort: 50054, adminPort: 9464, database: "findings" });

export type Config = z.infer<typeof configSchema>;

export const loadServiceConfig = (env: NodeJS.ProcessEnv = process.env): Config => loadConfig(configSchema, env);
