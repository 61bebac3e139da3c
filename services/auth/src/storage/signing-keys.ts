import { insertOnce } from "@vulnscan/kit";
import type { Collection, Db } from "mongodb";
import type { SigningKeyRepository } from "../domain/ports.js";
import type { PrivateJwk, PublicJwk, SigningKey } from "../domain/types.js";
import { Collections } from "./collections.js";

/**
 * Private keys are stored as JWK in this database. Known trade-off: anyone who can read the
 * auth database can sign tokens; in production a KMS/HSM would hold the private keys and
 * sign, and this collection would keep only public keys and key references.
 */
export interface SigningKeyDoc {
  _id: string;
  generation: number;
  alg: "ES256";
  public_jwk: PublicJwk;
  private_jwk: PrivateJwk;
  created_at: Date;
}

const fromDoc = (d: SigningKeyDoc): SigningKey => ({
  kid: d._id,
  generation: d.generation,
  alg: d.alg,
  publicJwk: d.public_jwk,
  privateJwk: d.private_jwk,
  createdAt: d.created_at,
});

export class MongoSigningKeyRepository implements SigningKeyRepository {
  private readonly coll: Collection<SigningKeyDoc>;
  constructor(db: Db) {
    this.coll = db.collection<SigningKeyDoc>(Collections.signingKeys);
  }

  async latest(): Promise<SigningKey | null> {
    const [d] = await this.coll.find({}).sort({ generation: -1 }).limit(1).toArray();
    return d ? fromDoc(d) : null;
  }

  insert(k: SigningKey): Promise<boolean> {
    return insertOnce(this.coll, {
      _id: k.kid,
      generation: k.generation,
      alg: k.alg,
      public_jwk: k.publicJwk,
      private_jwk: k.privateJwk,
      created_at: k.createdAt,
    });
  }

  async all(): Promise<SigningKey[]> {
    return (await this.coll.find({}).sort({ generation: -1 }).limit(100).toArray()).map(fromDoc);
  }

  async get(kid: string): Promise<SigningKey | null> {
    const d = await this.coll.findOne({ _id: kid });
    return d ? fromDoc(d) : null;
  }

  async deleteOlderThan(generation: number): Promise<void> {
    await this.coll.deleteMany({ generation: { $lt: generation } });
  }
}
