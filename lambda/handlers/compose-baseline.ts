/**
 * The source cache's baseline store on `BOS_BASELINE_TABLE`: the DynamoDB store of `lambda/aws` joined to the
 * cache's port, with the federation's identity keys (a record's own record ref, its normalised email and
 * phone) as the keys it indexes.
 */
import { DynamoDbBaselineStore } from '../aws/index.js';
import type { PlatformConfig } from '../aws/index.js';
import { normaliseEmail, normalisePhone, singleKeyRecordRef } from '../federation/index.js';
import type { RawRecord } from '../federation/index.js';
import type { BaselineLookup, BaselineStore } from '../sources/cache/index.js';
import { dynamoDbClientFor } from './compose-dynamodb.js';

/** The keys a baseline record is found by: the same normalisation the identity rules use (DESIGN §4). */
export function baselineIndexKeys(record: RawRecord): BaselineLookup {
  const email = normaliseEmail(record.email);
  const phone = normalisePhone(record.phone);
  return {
    recordRef: singleKeyRecordRef(record),
    ...(email === null ? {} : { email }),
    ...(phone === null ? {} : { phone }),
  };
}

/** The baseline store of a table, on the configuration's shared DynamoDB client. */
export function composeBaselineStore(config: PlatformConfig, tableName: string): BaselineStore {
  return new DynamoDbBaselineStore<RawRecord>({
    client: dynamoDbClientFor(config),
    tableName,
    indexKeys: baselineIndexKeys,
  });
}
