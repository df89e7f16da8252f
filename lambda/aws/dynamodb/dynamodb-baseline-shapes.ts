/**
 * The shapes `DynamoDbBaselineStore` reads and writes. `lambda/aws` may not import the source cache's port
 * (DESIGN §2): these match `lambda/sources/cache/port.ts` structurally, and the composition root joins them.
 */

/** The record shape the store keeps: what it needs to key it, plus anything else as JSON. */
export interface StoredRecord {
  readonly external_id: string;
}

/** The keys a record is found by (`BaselineLookup`). */
export interface StoredLookup {
  readonly recordRef?: string;
  readonly email?: string;
  readonly phone?: string;
}

/** The sync-state item (`BaselineState`). */
export interface StoredState {
  readonly sourceId: string;
  readonly status: 'empty' | 'syncing' | 'ready' | 'failed';
  readonly watermark?: string;
  readonly lastFullSyncAt?: string;
  readonly lastDeltaSyncAt?: string;
  readonly recordCount: number;
  readonly checkpoint?: string;
}

/** A sync lease (`SyncLease`). */
export interface StoredLease {
  readonly sourceId: string;
  readonly owner: string;
  readonly expiresAt: number;
}
