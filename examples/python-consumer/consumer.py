"""A consumer of vulnscan's Kafka events in Python: kafka-python + protobuf, nothing generated.

The event types are loaded at run time from the descriptor set buf builds from our protos
(docs/events.md, "Consuming from another language"), so a new field or event kind needs no code
generation here: an unknown field is kept and ignored, an unknown event kind is skipped.

    python consumer.py --brokers 127.0.0.1:9092 --descriptor-set vulnscan-events.binpb \
        --group my-team-events vulnscan.scan.events vulnscan.finding.events

Without --group it reads without committing (from --since, or from the beginning), which is
what a replay or a one-off look wants. With --json it prints each record as one JSON line.
"""

import argparse
import json
import sys
import time
from datetime import datetime

from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory
from kafka import KafkaConsumer, OffsetAndMetadata, TopicPartition

ENVELOPE = "vulnscan.events.v1.EventEnvelope"
PUBLIC_TOPICS = [
    "vulnscan.scan.events",
    "vulnscan.finding.events",
    "vulnscan.grc.events",
    "vulnscan.auth.events",
]


def load_envelope(descriptor_set_path):
    """The EventEnvelope class, built from a FileDescriptorSet (`buf build --as-file-descriptor-set`)."""
    fds = descriptor_pb2.FileDescriptorSet()
    with open(descriptor_set_path, "rb") as f:
        fds.ParseFromString(f.read())
    pool = descriptor_pool.DescriptorPool()
    for file_proto in fds.file:  # buf writes dependencies first
        pool.Add(file_proto)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName(ENVELOPE))


def to_dict(message):
    """Proto JSON with proto field names and implicit defaults: the same shape as a webhook's `data`."""
    return json_format.MessageToDict(message, preserving_proto_field_name=True, always_print_fields_with_no_presence=True)


# One handler per event kind you care about; the rest go to `default`. Each gets the payload
# message (already decoded) and the envelope.
def on_scan_completed(payload, env):
    f = payload.findings
    return f"scan {payload.scan_id} on {payload.target}: {f.total} findings ({f.critical} critical, {f.high} high)"


def on_vulnerability_found(payload, env):
    return f"{payload.severity} {payload.finding_id} {payload.title!r} on {payload.target}"


def on_status_changed(payload, env):
    return f"{payload.finding_id}: {getattr(payload, 'from')} -> {payload.to} by {payload.user}"


def on_control_status_changed(payload, env):
    return f"control {payload.control_id} ({payload.name}): {getattr(payload, 'from')} -> {payload.to} by {payload.user}"


HANDLERS = {
    "scan.completed": on_scan_completed,
    "vulnerability.found": on_vulnerability_found,
    "vulnerability.status_changed": on_status_changed,
    "control.status_changed": on_control_status_changed,
}


def default(payload, env):
    return json.dumps(to_dict(payload), sort_keys=True)


def handle(envelope_cls, record, seen_ids, as_json, out):
    env = envelope_cls.FromString(record.value)
    # Idempotency: Kafka delivers at least once, the envelope id is the key. A real consumer keeps
    # the ids it applied with the state it changed; a set is enough for a look.
    if env.id in seen_ids:
        return
    seen_ids.add(env.id)
    field = env.WhichOneof("payload")
    if as_json:
        out.write(
            json.dumps(
                {
                    "topic": record.topic,
                    "partition": record.partition,
                    "offset": record.offset,
                    "key": record.key.decode() if record.key is not None else None,
                    "headers": {k: v.decode() for k, v in (record.headers or [])},
                    "kind": env.type,
                    "payload_field": field,
                    "envelope": to_dict(env),
                },
                sort_keys=True,
            )
            + "\n"
        )
        return
    if field is None or field != env.type.replace(".", "_", 1):
        # A kind newer than our descriptor set: its payload field is unknown to us. Skip it.
        print(f"skipped unknown event kind {env.type!r} ({env.id})", file=sys.stderr)
        return
    payload = getattr(env, field)
    line = HANDLERS.get(env.type, default)(payload, env)
    out.write(f"{env.occurred_at.ToJsonString()} {env.org_id} {env.type}: {line}\n")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("topics", nargs="*", default=PUBLIC_TOPICS)
    p.add_argument("--brokers", default="127.0.0.1:9092")
    p.add_argument("--descriptor-set", required=True, help="buf build --as-file-descriptor-set output")
    p.add_argument("--group", help="consumer group: resume where it left off and commit after handling")
    p.add_argument("--since", help="ISO 8601 time or epoch ms: start every partition at the first record at or after it")
    p.add_argument("--until-end", action="store_true", help="stop once the end offsets seen at start are reached")
    p.add_argument("--timeout", type=float, default=120, help="give up after this many seconds (with --until-end)")
    p.add_argument("--json", action="store_true", help="one JSON line per record")
    a = p.parse_args(argv)

    envelope_cls = load_envelope(a.descriptor_set)
    consumer = KafkaConsumer(
        bootstrap_servers=a.brokers.split(","),
        group_id=a.group,
        enable_auto_commit=False,
        auto_offset_reset="earliest",
        key_deserializer=None,
        value_deserializer=None,
    )
    grouped = bool(a.group and not a.since)
    if grouped:
        # Partitions come from the group as it is joined (in the first polls); offsets from its commits.
        consumer.subscribe(a.topics)
        parts = []
    else:
        parts = [TopicPartition(t, n) for t in a.topics for n in sorted(consumer.partitions_for_topic(t) or [])]
        consumer.assign(parts)
        if a.since:
            ms = int(a.since) if a.since.isdigit() else int(datetime.fromisoformat(a.since.replace("Z", "+00:00")).timestamp() * 1000)
            found = consumer.offsets_for_times({tp: ms for tp in parts})
            for tp in parts:
                if found.get(tp) is None:
                    consumer.seek_to_end(tp)
                else:
                    consumer.seek(tp, found[tp].offset)
        else:
            consumer.seek_to_beginning(*parts)
    end = consumer.end_offsets(parts) if a.until_end and not grouped else None
    seen_ids = set()
    deadline = time.monotonic() + a.timeout
    try:
        while True:
            if a.until_end and end is None and consumer.assignment():
                end = consumer.end_offsets(list(consumer.assignment()))
            if a.until_end and end is not None and all(consumer.position(tp) >= end[tp] for tp in end):
                break
            if a.until_end and time.monotonic() > deadline:
                print("timed out before the end offsets", file=sys.stderr)
                return 2
            batches = consumer.poll(timeout_ms=500)
            for tp, records in batches.items():
                for record in records:
                    handle(envelope_cls, record, seen_ids, a.json, sys.stdout)
                # At least once: commit only what was handled.
                if a.group:
                    consumer.commit({tp: OffsetAndMetadata(records[-1].offset + 1, "", -1)})
            sys.stdout.flush()
    except KeyboardInterrupt:
        pass
    finally:
        consumer.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
