import { check } from "../catalogue.js";

/* Handles on the datastore checks; their text is data in services/scanner/checks/datastores.yaml. */

export const REDIS_NO_AUTH = check("datastore-redis-unauthenticated");
export const MONGODB_NO_AUTH = check("datastore-mongodb-unauthenticated");
export const ELASTICSEARCH_NO_AUTH = check("datastore-elasticsearch-unauthenticated");
export const MEMCACHED_NO_AUTH = check("datastore-memcached-unauthenticated");
