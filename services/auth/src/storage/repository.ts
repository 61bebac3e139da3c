import type { Outbox, PendingEvent } from "@vulnscan/kit";
import type { Collection, Db, Document, Filter, OptionalUnlessRequiredId, WithId } from "mongodb";

/** The fields of a document that carries its own pending events (the outbox). */
export interface OutboxFields {
  outbox?: PendingEvent[];
  outbox_pending?: boolean;
}

/** The outbox array can hold a few events; reads of the entity never load it. */
export const NO_OUTBOX = { projection: { outbox: 0 } } as const;

/**
 * A repository over one collection whose documents carry their events: a change and its event
 * are one single-document write, then flushed to Kafka right away when an outbox is given
 * (otherwise the running service's relay publishes them).
 */
export abstract class OutboxRepository<E, D extends Document> {
  protected readonly coll: Collection<D>;

  constructor(
    db: Db,
    private readonly collection: string,
    private readonly codec: { toDoc: (entity: E) => D; fromDoc: (doc: D) => E },
    private readonly outbox?: Outbox,
  ) {
    this.coll = db.collection<D>(collection);
  }

  async insert(entity: E): Promise<void> {
    await this.coll.insertOne(this.codec.toDoc(entity) as OptionalUnlessRequiredId<D>);
  }

  /** The one entity the filter names, without its outbox. */
  protected async one(filter: Filter<D>): Promise<E | null> {
    const d = await this.coll.findOne(filter, NO_OUTBOX);
    return d ? this.codec.fromDoc(d as WithId<D> as D) : null;
  }

  /** The entities the filter selects, in the given order, without their outboxes. */
  protected async many(filter: Filter<D>, sort: Record<string, 1 | -1>, limit = 0): Promise<E[]> {
    const docs = await this.coll.find(filter, NO_OUTBOX).sort(sort).limit(limit).toArray();
    return docs.map((d) => this.codec.fromDoc(d as WithId<D> as D));
  }

  protected async flush(id: string): Promise<void> {
    await this.outbox?.flushSoon(this.collection, id);
  }
}
