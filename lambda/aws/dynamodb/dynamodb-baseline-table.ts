/**
 * The requests of the baseline store (`dynamodb-baseline-store.ts`) on its table: one send path that turns every
 * failure into the store's error, a Query followed page by page, and batched writes retried while DynamoDB leaves
 * items unprocessed.
 */
import { BatchWriteItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import type {
  AttributeValue,
  BatchWriteItemCommandOutput,
  DynamoDBClient,
  QueryCommandInput,
  QueryCommandOutput,
  WriteRequest,
} from '@aws-sdk/client-dynamodb';

type Item = Record<string, AttributeValue>;

/** BatchWriteItem takes at most 25 requests; single-item calls go out as many at a time. */
const BATCH = 25;
/** Tries of a batch whose items DynamoDB left unprocessed (throttling) before the write fails. */
const UNPROCESSED_TRIES = 8;

/** One table's requests, each failure mapped by `failure`. */
export class BaselineTableRequests {
  readonly #client: DynamoDBClient;
  readonly #table: string;
  readonly #failure: (error: unknown) => Error;

  constructor(client: DynamoDBClient, table: string, failure: (error: unknown) => Error) {
    this.#client = client;
    this.#table = table;
    this.#failure = failure;
  }

  /**
   * Every page of a Query, following `LastEvaluatedKey` (each page is at most 1 MB); with `limits`, the first
   * page asks for at most `limits[0]` items and every later one for at most `limits[1]`. `onOutput` sees each
   * page's whole answer (its counts).
   */
  async *pages(
    input: QueryCommandInput,
    signal?: AbortSignal,
    limits?: readonly [number, number],
    onOutput?: (output: QueryCommandOutput) => void,
  ): AsyncIterable<Item[]> {
    let start: Item | undefined;
    do {
      signal?.throwIfAborted();
      const limit = limits?.[start === undefined ? 0 : 1];
      const page = await this.send<QueryCommandOutput>(
        new QueryCommand({
          ...input,
          ...(limit === undefined ? {} : { Limit: limit }),
          ...(start === undefined ? {} : { ExclusiveStartKey: start }),
        }),
        signal,
      );
      onOutput?.(page);
      yield page.Items ?? [];
      start = page.LastEvaluatedKey;
    } while (start !== undefined);
  }

  async collect(input: QueryCommandInput): Promise<Item[]> {
    const items: Item[] = [];
    for await (const page of this.pages(input)) items.push(...page);
    return items;
  }

  /** Runs `call` for each item, up to a batch at a time; resolves to how many answers replaced nothing. */
  async countEach<T>(
    items: readonly T[],
    call: (item: T) => Promise<{ Attributes?: Item }>,
  ): Promise<number> {
    let fresh = 0;
    for (let at = 0; at < items.length; at += BATCH) {
      const answers = await Promise.all(items.slice(at, at + BATCH).map(call));
      fresh += answers.filter((answer) => answer.Attributes === undefined).length;
    }
    return fresh;
  }

  async write(requests: readonly WriteRequest[]): Promise<void> {
    for (let at = 0; at < requests.length; at += BATCH) {
      let pending = requests.slice(at, at + BATCH);
      for (let tries = 0; pending.length > 0; tries += 1) {
        if (tries === UNPROCESSED_TRIES) throw this.#failure(new Error('DynamoDB left items unprocessed'));
        if (tries > 0) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** tries));
        const output = await this.send<BatchWriteItemCommandOutput>(
          new BatchWriteItemCommand({ RequestItems: { [this.#table]: pending } }),
        );
        pending = output.UnprocessedItems?.[this.#table] ?? [];
      }
    }
  }

  async send<T>(command: object, signal?: AbortSignal): Promise<T> {
    try {
      // One generic path for every command type; the SDK's overloads do not accept a union of commands.
      const client = this.#client as unknown as {
        send(command: object, options: { abortSignal?: AbortSignal }): Promise<T>;
      };
      return await client.send(command, signal === undefined ? {} : { abortSignal: signal });
    } catch (error) {
      throw this.#failure(error);
    }
  }
}
