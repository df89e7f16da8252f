import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import type { Attribute } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';

/** One key attribute of a table, in DynamoDB's own terms. */
export interface KeyAttributeSpec {
  /** Attribute name, e.g. `sessionId`. */
  readonly name: string;
  /** DynamoDB scalar type: `S` string, `N` number, `B` binary. */
  readonly type: 'S' | 'N' | 'B';
}

/** The key schema and TTL attribute of one table. */
export interface DataTableSpec {
  /** Partition (hash) key. */
  readonly partitionKey: KeyAttributeSpec;
  /**
   * Sort (range) key.
   * @default - no sort key
   */
  readonly sortKey?: KeyAttributeSpec;
  /**
   * Attribute holding the expiry in epoch seconds (DESIGN §6: `expiresAt`).
   * @default - no TTL
   */
  readonly timeToLiveAttribute?: string;
}

/** Key schemas of the five platform tables. */
export interface DataTableSpecs {
  /** Sessions, keyed by `sessionId`. */
  readonly sessions: DataTableSpec;
  /** Resumable stream events, keyed by `sessionId` + `eventId`. */
  readonly streams: DataTableSpec;
  /** Tasks, keyed by `sessionId` + `taskId`. */
  readonly tasks: DataTableSpec;
  /** Tenancy directory, single-table `pk` + `sk`. */
  readonly directory: DataTableSpec;
  /** Rate-limit counters, keyed by `counterId` (bucket and window). */
  readonly rateLimits: DataTableSpec;
}

/** Props of {@link DataTables}. */
export interface DataTablesProps {
  /** Key schemas and TTL attributes (from `lib/table-schemas.ts`). */
  readonly specs: DataTableSpecs;
  /**
   * What CloudFormation does with the tables when they leave the stack.
   * `RETAIN` outside `dev` (see `removalPolicyForStage`); deletion protection follows it.
   */
  readonly removalPolicy: RemovalPolicy;
}

const attributeTypes: Record<KeyAttributeSpec['type'], AttributeType> = {
  S: AttributeType.STRING,
  N: AttributeType.NUMBER,
  B: AttributeType.BINARY,
};

function attribute(spec: KeyAttributeSpec): Attribute {
  return { name: spec.name, type: attributeTypes[spec.type] };
}

/**
 * The platform's DynamoDB tables: on-demand capacity (traffic is bursty and unknown), point-in-time recovery
 * (35 days of restores for session and directory data), TTL on the expiry attribute, and encryption with the
 * AWS managed key `aws/dynamodb` — key use is visible in CloudTrail without a key policy of ours to get wrong,
 * and the function's role needs no KMS permission for it.
 */
export class DataTables extends Construct {
  readonly sessions: Table;
  readonly streams: Table;
  readonly tasks: Table;
  readonly directory: Table;
  readonly rateLimits: Table;

  constructor(scope: Construct, id: string, props: DataTablesProps) {
    super(scope, id);
    const make = (tableId: string, spec: DataTableSpec): Table =>
      new Table(this, tableId, {
        partitionKey: attribute(spec.partitionKey),
        ...(spec.sortKey ? { sortKey: attribute(spec.sortKey) } : {}),
        ...(spec.timeToLiveAttribute ? { timeToLiveAttribute: spec.timeToLiveAttribute } : {}),
        billingMode: BillingMode.PAY_PER_REQUEST,
        pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
        encryption: TableEncryption.AWS_MANAGED,
        removalPolicy: props.removalPolicy,
        deletionProtection: props.removalPolicy === RemovalPolicy.RETAIN,
      });
    this.sessions = make('Sessions', props.specs.sessions);
    this.streams = make('Streams', props.specs.streams);
    this.tasks = make('Tasks', props.specs.tasks);
    this.directory = make('Directory', props.specs.directory);
    this.rateLimits = make('RateLimits', props.specs.rateLimits);
  }
}
