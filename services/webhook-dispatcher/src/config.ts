import { loadConfig, serviceEnvSchema } from "@vulnscan/kit";
import type { z } from "zod";

export const configSchema = serviceEnvSchema({ rpcPort: 50056, adminPort: 9466, database: "webhooks" });

export type Config = z.infer<typeof configSchema>;

export const loadServiceConfig = (env: NodeJS.ProcessEnv = process.env): Config => loadConfig(configSchema, env);
