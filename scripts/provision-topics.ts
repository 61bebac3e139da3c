// Creates every topic the services use, and its dead-letter topic, with the settings they would
// give it (KafkaBus.ensureTopics: KAFKA_PARTITIONS, KAFKA_TOPIC_PREFIX, docs/events.md), before
// `startSystem` (`npm start`, the test systems) starts them. On a new cluster the broker then
// creates them in one request while nothing else starts (about 0.2 s) instead of under seven
// services starting at once, each waiting a second or more for its topics' leaders; topics that
// exist are left as they are. Its own short-lived process, so `npm start`'s supervisor never
// loads kafkajs. Prints what it created as JSON, on its last line.
// The kit's modules by path, not its barrel: this process needs kafkajs only.
import { loadConfig, serviceEnvSchema } from "@vulnscan/kit/config";
import { KafkaBus } from "@vulnscan/kit/kafka";
import { createLogger } from "@vulnscan/kit/logger";
import { Topics } from "@vulnscan/kit/topics";

const config = loadConfig(
  serviceEnvSchema({ rpcPort: 0, adminPort: 0, database: "none" }).pick({ KAFKA_BROKERS: true, KAFKA_PARTITIONS: true, KAFKA_TOPIC_PREFIX: true }),
);
const started = Date.now();
const kafka = new KafkaBus({
  clientId: "provision-topics",
  brokers: config.KAFKA_BROKERS,
  // Its answer is the last line: kafkajs' refusals while new partitions get their leaders are expected.
  logger: createLogger("provision-topics", "error"),
  partitions: config.KAFKA_PARTITIONS,
  topicPrefix: config.KAFKA_TOPIC_PREFIX,
});
try {
  const created = await kafka.ensureTopics(Object.values(Topics));
  process.stdout.write(`${JSON.stringify({ created, ms: Date.now() - started })}\n`);
} finally {
  await kafka.close();
}
