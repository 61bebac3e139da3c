import { main, runService } from "@vulnscan/kit";
import { compose } from "./compose.js";
import { loadServiceConfig } from "./config.js";

await main(() => runService({ name: "findings", config: loadServiceConfig(), compose: (ctx) => compose(ctx) }));
