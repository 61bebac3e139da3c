// Seeds `npm start`'s demo organizations (one per plan, fresh passwords) and prints them as JSON.
// Its own short-lived process, so the supervisor never loads the database driver and the kit:
// it stays small for as long as the services run (issue 31).
import { createMongo } from "@vulnscan/kit";
import { seedDemo } from "@vulnscan/auth/admin";

const mongoUrl = process.argv[2];
if (!mongoUrl) throw new Error("usage: seed-demo <mongo url>");
const authDb = createMongo(mongoUrl, "auth", "npm-start");
const accounts = await seedDemo(authDb.db).finally(() => authDb.close());
process.stdout.write(`${JSON.stringify(accounts)}\n`);
