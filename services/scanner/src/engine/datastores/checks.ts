import type { CheckDef } from "../web/check.js";

const tool = "datastores";
const FULL = "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H";

export const REDIS_NO_AUTH: CheckDef = {
  templateId: "datastore-redis-unauthenticated",
  title: "Redis accepts commands without authentication",
  vector: FULL,
  cweIds: ["CWE-306"],
  tool,
  description: "The Redis server answered PING and INFO without AUTH.",
  impact: "Anyone who reaches the port can read and delete all data, and abuse CONFIG SET / MODULE LOAD to write files or run code on the host.",
  remediation: {
    summary: "Require authentication and keep Redis off public networks.",
    steps: [
      "Bind to internal interfaces only.",
      "Enable ACL users or requirepass with a long random secret.",
      "Rename or disable CONFIG, MODULE, DEBUG for application users.",
      "Enable protected-mode.",
    ],
    codeExample: '# redis.conf\nbind 127.0.0.1 10.0.0.5\nprotected-mode yes\nrequirepass <long-random-secret>\nrename-command CONFIG ""',
    references: ["https://redis.io/docs/latest/operate/oss_and_stack/management/security/", "https://cwe.mitre.org/data/definitions/306.html"],
  },
};

export const MONGODB_NO_AUTH: CheckDef = {
  templateId: "datastore-mongodb-unauthenticated",
  title: "MongoDB lists databases without authentication",
  vector: FULL,
  cweIds: ["CWE-306"],
  tool,
  description: "The MongoDB server answered listDatabases without credentials.",
  impact: "Anyone who reaches the port can read, change and delete every database (the cause of mass ransom wipes of exposed MongoDB).",
  remediation: {
    summary: "Enable access control and bind to internal interfaces.",
    steps: ["Create an administrative user.", "Set security.authorization: enabled and restart.", "Bind only to internal addresses; firewall port 27017."],
    codeExample: "# mongod.conf\nnet:\n  bindIp: 127.0.0.1,10.0.0.5\nsecurity:\n  authorization: enabled",
    references: ["https://www.mongodb.com/docs/manual/administration/security-checklist/"],
  },
};

export const ELASTICSEARCH_NO_AUTH: CheckDef = {
  templateId: "datastore-elasticsearch-unauthenticated",
  title: "Elasticsearch indices readable without authentication",
  vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N",
  cweIds: ["CWE-306", "CWE-200"],
  tool,
  description: "GET /_cat/indices answered without credentials.",
  impact: "Every index can be read (and, without security enabled, written and deleted) by anyone who reaches the port.",
  remediation: {
    summary: "Enable Elasticsearch security (authentication and TLS) and keep the HTTP port internal.",
    steps: ["Set xpack.security.enabled: true and create users/roles.", "Bind network.host to internal addresses.", "Put a firewall in front of port 9200."],
    codeExample: "# elasticsearch.yml\nxpack.security.enabled: true\nxpack.security.http.ssl.enabled: true\nnetwork.host: 10.0.0.5",
    references: ["https://www.elastic.co/guide/en/elasticsearch/reference/current/security-minimal-setup.html"],
  },
};

export const MEMCACHED_NO_AUTH: CheckDef = {
  templateId: "datastore-memcached-unauthenticated",
  title: "memcached reachable without authentication",
  vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:L/A:L",
  cweIds: ["CWE-306"],
  tool,
  description: "The memcached server answered `stats` without SASL authentication.",
  impact: "Anyone who reaches it can read and overwrite cached values (sessions, rendered pages) and flush the cache.",
  remediation: {
    summary: "Bind memcached to internal interfaces, disable UDP, and enable SASL where it must be shared.",
    steps: ["Listen on 127.0.0.1 or a private address only (-l).", "Disable UDP (-U 0).", "Firewall port 11211."],
    codeExample: "# /etc/memcached.conf\n-l 127.0.0.1\n-U 0",
    references: ["https://github.com/memcached/memcached/wiki/SASLHowto"],
  },
};
