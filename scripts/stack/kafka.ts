// Apache Kafka in KRaft single-node mode: jars from Maven Central (installed once into the cache),
// run with the machine's Java 17.

import { randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cacheDir } from "../lib/stack-state.ts";
import { removeLeftovers, withLock, withProgress } from "./lock.ts";
import { freePorts, run, terminate, which } from "./process.ts";
import { spawnServer, waitReady, withPortRetry, type StartContext, type Started } from "./servers.ts";
import { kafkaBrokerCount, kafkaCoordinatorReady } from "./wire-probes.ts";

export const KAFKA_VERSION = "3.9.0";
const KAFKA_READY_TIMEOUT_MS = 90_000;
const kafkaPom = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "kafka", "pom.xml");

export async function ensureKafka(log: (line: string) => void): Promise<string> {
  const home = path.join(cacheDir(), `kafka-${KAFKA_VERSION}`);
  const libs = path.join(home, "libs");
  const marker = path.join(libs, `kafka_2.13-${KAFKA_VERSION}.jar`);
  if (fs.existsSync(marker)) return libs;
  return withLock(`kafka-${KAFKA_VERSION}`, log, async () => {
    if (fs.existsSync(marker)) return libs;
    const mvn = which("mvn");
    if (!mvn) throw new Error("Kafka is installed with Maven, but `mvn` is not on PATH (or set KAFKA_BROKERS to an external broker)");
    if (!which("java")) throw new Error("Kafka needs Java 17, but `java` is not on PATH (or set KAFKA_BROKERS to an external broker)");
    await removeLeftovers(`${home}.tmp-`);
    const tmp = `${home}.tmp-${process.pid}`;
    await fsp.mkdir(tmp, { recursive: true });
    // A copy of the pom, so Maven writes nothing into the git work tree.
    await fsp.copyFile(kafkaPom, path.join(tmp, "pom.xml"));
    log(`installing Apache Kafka ${KAFKA_VERSION} jars from Maven Central into ${home} (first run only)`);
    const started = Date.now();
    await withProgress(log, "maven", () =>
      run(
        mvn,
        ["-q", "-B", "-f", path.join(tmp, "pom.xml"), "dependency:copy-dependencies", `-DoutputDirectory=${path.join(tmp, "libs")}`, "-DincludeScope=runtime"],
        { cwd: tmp },
      ),
    );
    if (!fs.existsSync(path.join(tmp, "libs", path.basename(marker)))) throw new Error(`Maven finished but ${path.basename(marker)} is missing in ${tmp}/libs`);
    const jars = (await fsp.readdir(path.join(tmp, "libs"))).filter((f) => f.endsWith(".jar")).length;
    await fsp.rm(home, { recursive: true, force: true });
    await fsp.rename(tmp, home);
    log(`Kafka ${KAFKA_VERSION}: ${jars} jars installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return libs;
  });
}

// Kafka's cluster ids are 16 random bytes in URL-safe base64 without padding and never begin
// with '-' (see org.apache.kafka.common.Uuid). Generating one here spares a JVM start.
function kafkaClusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString("base64url");
    if (!id.startsWith("-") && id !== "AAAAAAAAAAAAAAAAAAAAAA" && id !== "AAAAAAAAAAAAAAAAAAAAAQ") return id;
  }
}

export async function startKafka(ctx: StartContext): Promise<Started> {
  const libs = await ensureKafka(ctx.log);
  const classpath = path.join(libs, "*"); // expanded by java itself
  const logDir = path.join(ctx.dataDir, "kafka");
  const props = path.join(ctx.dataDir, "kafka-server.properties");
  const log4j = path.join(ctx.dataDir, "kafka-log4j.properties");
  const logFile = path.join(ctx.dataDir, "kafka.log");
  const outFile = path.join(ctx.dataDir, "kafka.out");
  await fsp.writeFile(
    log4j,
    [
      "log4j.rootLogger=WARN, file",
      "log4j.appender.file=org.apache.log4j.FileAppender",
      `log4j.appender.file.File=${logFile}`,
      "log4j.appender.file.layout=org.apache.log4j.PatternLayout",
      "log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n",
      // The one INFO line worth keeping: it tells a reader of kafka.log when the broker was up.
      "log4j.logger.kafka.server.KafkaRaftServer=INFO",
      "",
    ].join("\n"),
  );
  const log4jFlag = `-Dlog4j.configuration=file:${log4j}`;

  return withPortRetry(ctx, "kafka", async () => {
    const [port, controllerPort] = (await freePorts(2)) as [number, number];
    await fsp.writeFile(
      props,
      [
        "process.roles=broker,controller",
        "node.id=1",
        `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
        `listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
        `advertised.listeners=PLAINTEXT://127.0.0.1:${port}`,
        "controller.listener.names=CONTROLLER",
        "inter.broker.listener.name=PLAINTEXT",
        "listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
        `log.dirs=${logDir}`,
        "num.partitions=3",
        "offsets.topic.replication.factor=1",
        // The defaults (50 partitions each) make the first consumer group or transaction of a
        // test run wait seconds for partitions a single-node stack never needs.
        "offsets.topic.num.partitions=5",
        "transaction.state.log.num.partitions=5",
        "transaction.state.log.replication.factor=1",
        "transaction.state.log.min.isr=1",
        "group.initial.rebalance.delay.ms=0",
        "auto.create.topics.enable=true",
        "",
      ].join("\n"),
    );
    if (!(ctx.persistent && fs.existsSync(path.join(logDir, "meta.properties")))) {
      await run("java", ["-cp", classpath, log4jFlag, "kafka.tools.StorageTool", "format", "-t", kafkaClusterId(), "-c", props], { cwd: ctx.dataDir });
    }
    const managed = spawnServer(
      ctx,
      "kafka",
      "java",
      ["-Xms256m", "-Xmx768m", "-XX:+UseG1GC", "-Djava.awt.headless=true", log4jFlag, "-cp", classpath, "kafka.Kafka", props],
      outFile,
    );
    try {
      await waitReady(
        ctx,
        managed,
        "Kafka",
        KAFKA_READY_TIMEOUT_MS,
        [logFile, outFile],
        async () => (await kafkaBrokerCount(port)) > 0 && (await kafkaCoordinatorReady(port)),
      );
    } catch (error) {
      await terminate(managed);
      throw error;
    }
    return { address: `127.0.0.1:${port}`, description: `Apache Kafka ${KAFKA_VERSION} (KRaft)`, managed };
  });
}
