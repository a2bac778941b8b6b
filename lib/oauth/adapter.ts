import { errors, type Adapter, type AdapterPayload } from "oidc-provider";
import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import { revokeGrantRecords } from "./grant-records";
import { oauthRecordKey } from "./record-key";

/** Expired records are deleted at most this often, by whichever instance writes next. */
const PURGE_EVERY_MS = 600_000;
const PURGE_KEY = Symbol.for("htmldrop.oauthPurge");
type PurgeHolder = { [PURGE_KEY]?: number };
/** A registered client that no human approved within this long is forgotten (lib/oauth/consent.ts keeps approved ones). */
const UNAPPROVED_CLIENT_TTL_MS = 86_400_000;

async function purgeExpired(at: number): Promise<void> {
  const holder = globalThis as PurgeHolder;
  if (at - (holder[PURGE_KEY] ?? 0) < PURGE_EVERY_MS) return;
  holder[PURGE_KEY] = at;
  await db().oAuthRecord.deleteMany({ where: { expiresAt: { lt: new Date(at) } } });
}

/**
 * oidc-provider's storage on the app's database, so every instance (and every serverless invocation)
 * sees the same codes, tokens, grants and interactions. Expiry follows the wall clock, as oidc-provider's own checks do.
 */
export class DatabaseAdapter implements Adapter {
  constructor(private readonly model: string) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const at = Date.now();
    const key = oauthRecordKey(this.model, id);
    // The id itself (jti) is the secret: it is given back by find() instead of being stored.
    const { jti: _jti, ...stored } = payload;
    const data = {
      model: this.model,
      payload: JSON.stringify(stored),
      grantId: payload.grantId ?? null,
      uid: payload.uid ?? null,
      // Registration is anonymous: a client lives a day unless a human approves it.
      expiresAt: this.model === "Client" ? new Date(now() + UNAPPROVED_CLIENT_TTL_MS) : expiresIn ? new Date(at + expiresIn * 1000) : null,
    };
    await db().oAuthRecord.upsert({ where: { key }, create: { key, ...data }, update: data });
    await purgeExpired(at);
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const record = await db().oAuthRecord.findUnique({ where: { key: oauthRecordKey(this.model, id) } });
    return record && !this.isExpired(record.expiresAt) ? { ...(JSON.parse(record.payload) as AdapterPayload), jti: id } : undefined;
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const record = await db().oAuthRecord.findFirst({ where: { model: this.model, uid } });
    // Sessions are found by uid only to be read; the payload still lacks the id, which stays secret.
    return record && !this.isExpired(record.expiresAt) ? (JSON.parse(record.payload) as AdapterPayload) : undefined;
  }

  async findByUserCode(): Promise<undefined> {
    // The device flow of RFC 8628 is htmldrop's own (lib/device-auth); oidc-provider's is disabled.
    return undefined;
  }

  async consume(id: string): Promise<void> {
    const key = oauthRecordKey(this.model, id);
    const record = await db().oAuthRecord.findUnique({ where: { key }, select: { payload: true } });
    if (!record) return;
    const payload = { ...(JSON.parse(record.payload) as AdapterPayload), consumed: Math.floor(Date.now() / 1000) };
    // A code or refresh token is consumed once: of two concurrent redemptions, the second finds the row
    // changed and fails, instead of both minting tokens.
    const { count } = await db().oAuthRecord.updateMany({ where: { key, payload: record.payload }, data: { payload: JSON.stringify(payload) } });
    if (count === 0) throw new errors.InvalidGrant("grant request is invalid");
  }

  async destroy(id: string): Promise<void> {
    await db().oAuthRecord.deleteMany({ where: { key: oauthRecordKey(this.model, id) } });
  }

  /**
   * oidc-provider revokes a whole grant when a used code or a rotated refresh token comes back, and when
   * the client revokes its refresh token: the connection then shows as revoked on the owner's list, and
   * the API tokens the app minted are revoked with it.
   */
  async revokeByGrantId(grantId: string): Promise<void> {
    await revokeGrantRecords(grantId);
  }

  /** A client's lifetime is htmldrop's rule, on htmldrop's clock; the rest are oidc-provider's, on the wall clock. */
  private isExpired(expiresAt: Date | null): boolean {
    return expiresAt !== null && expiresAt.getTime() <= (this.model === "Client" ? now() : Date.now());
  }
}

/** A client a human approved stays registered. */
export async function keepClient(clientId: string): Promise<void> {
  await db().oAuthRecord.updateMany({ where: { key: oauthRecordKey("Client", clientId) }, data: { expiresAt: null } });
}
