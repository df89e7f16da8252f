/**
 * The `entra` change feed: Graph's delta query on users (user-delta.md, delta-query-overview.md).
 *
 * - `changes(undefined)` starts a round with `GET /users/delta?$select=…` (the adapter's own properties: a delta
 *   link keeps the `$select` of its round's first call) and follows `@odata.nextLink` until the page that carries
 *   the `@odata.deltaLink`, which becomes the watermark. Each page's batch carries its next link as the
 *   checkpoint, so a round longer than one invocation continues where it stopped.
 * - `changes(deltaLink)` follows the link: users added or changed since it was issued (with every selected
 *   property, since no `Prefer: return=minimal` is sent) and `@removed` entries, applied as deletes whatever
 *   their reason (`changed` is a soft delete, `deleted` a permanent one: both users are gone from `/users`).
 *   A disabled account stays, as `lifecycle: "inactive"`, exactly as a live read maps it.
 * - An expired or unknown link (`410 Gone`, or an error body `syncStateNotFound` / `resyncRequired`) throws
 *   {@link WatermarkExpiredError}: the sync reads the users again in full.
 *
 * Every request goes through the kernel's request path with the app-only token of the source's broker, as the
 * adapter's reads do (tenant check, 401 forgets the token, throttling waits within the budget, statuses mapped
 * to the five codes). A delta or next link holds the state token that reads the tenant's users: it is never
 * logged, and one that is not on the configured Graph endpoint (a stored watermark changed by someone) is
 * refused before any token is sent with it.
 */
import type { RawRecord, ReadOptions, SourceRef } from '../../federation/index.js';
import type { ChangeBatch, ChangeFeed } from '../cache/port.js';
import { WatermarkExpiredError } from '../cache/port.js';
import {
  bearerAuthorization,
  codeForHttpStatus,
  headerValue,
  ProviderError,
  ProviderHttp,
  ReadBudget,
} from '../kernel/index.js';
import type { ProviderSettings } from '../kernel/index.js';
import { ClientCredentialsBroker, tokenForRead } from '../oauth/index.js';
import type { SourceSpec } from '../registry/types.js';
import { refusedTokenForgotten } from './entra-source.js';
import { readGraphDeltaPage } from './graph-page.js';
import { GRAPH_SELECT } from './graph-query.js';
import type { EntraSourceOptions } from './options.js';
import { graphUserMapper, observedAtOf } from './user-record.js';

/** Error codes Graph answers for a delta link it no longer keeps (delta-query-overview.md). */
const RESYNC_CODES = new Set(['syncstatenotfound', 'resyncrequired', 'syncstateinvalid']);
/** Statuses read here instead of failing at once: a refused link's body says whether it expired. */
const READ_STATUSES = [400, 404, 410];
/** A round that never reaches its delta link fails instead of paging forever. */
const MAX_PAGES = 100_000;

type Json = Readonly<Record<string, unknown>>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The delta feed of one Entra source; its broker (and token cache) lives as long as the feed. */
export function createEntraDeltaFeed(
  spec: SourceSpec,
  options: EntraSourceOptions,
  settings: ProviderSettings = {},
): ChangeFeed {
  const source: SourceRef = { source_type: options.sourceType, source_identity: spec.source_id };
  const broker = new ClientCredentialsBroker(options.oauth, spec.credential, {
    allowLoopbackHttp: settings.allowLoopbackHttp ?? false,
  });
  const endpoint = new URL(`${options.graphUrl.href}/users/delta`);

  /** The link as a URL when it is the configured endpoint's `/users/delta`, else `undefined`. */
  function graphUrlOf(link: string): URL | undefined {
    let url: URL | undefined;
    try {
      url = new URL(link, endpoint);
    } catch {
      return undefined;
    }
    return url.origin === endpoint.origin && url.pathname === endpoint.pathname ? url : undefined;
  }
  const isOnGraph = (link: string): boolean => graphUrlOf(link) !== undefined;

  /** A link to follow, only when it is the configured endpoint's `/users/delta`. */
  function onGraph(link: string, http: ProviderHttp): URL {
    const url = graphUrlOf(link);
    if (url === undefined) throw http.failed(new ProviderError('source_unavailable', 'cross_origin_next'));
    return url;
  }

  async function* changes(
    watermark: string | undefined,
    readOptions: ReadOptions,
    resumeFrom?: string,
  ): AsyncGenerator<ChangeBatch> {
    const budget = new ReadBudget(readOptions);
    const http = new ProviderHttp(source, budget, settings);
    const first = new URL(endpoint);
    first.searchParams.set('$select', GRAPH_SELECT.join(','));
    const link = watermark ?? resumeFrom;
    // A stored link off the configured endpoint (the source's `graph_url` changed since it was stored) is
    // treated as expired: the sync reads the users again from the configured endpoint, and the token never
    // goes to the old one.
    if (link !== undefined && !isOnGraph(link)) {
      throw new WatermarkExpiredError('the stored delta link is not on the configured endpoint');
    }
    let url = link === undefined ? first : onGraph(link, http);
    const token = await tokenForRead(broker, budget);
    // An app-only Graph token names its tenant in `tid`; a token of any other tenant reads another directory.
    if (token.claims?.['tid'] !== options.tenantId)
      throw http.failed(new ProviderError('source_identity_mismatch', 'identity_mismatch'));
    const headers = { accept: 'application/json', authorization: bearerAuthorization(token.accessToken) };
    for (let pages = 1; pages <= MAX_PAGES; pages++) {
      const result = await refusedTokenForgotten(
        broker,
        token,
        http.send(url, headers, { passStatus: READ_STATUSES }),
      );
      const json = parsed(result.body, http);
      if (result.status !== 200) {
        if (result.status === 410 || RESYNC_CODES.has(errorCode(json)))
          throw new WatermarkExpiredError('the delta link expired: the users are read again in full');
        const code = codeForHttpStatus(result.status);
        throw http.failed(new ProviderError(code, 'http_status', result.status));
      }
      const page = readPage(json, result.status, http);
      const batch = toBatch(page.value, observedAtOf(headerValue(result.headers, 'date')), source, settings);
      if (page.deltaLink !== undefined) {
        onGraph(page.deltaLink, http);
        yield { ...batch, watermark: page.deltaLink };
        return;
      }
      const next = onGraph(page.nextLink!, http);
      if (next.href === url.href) throw http.failed(new ProviderError('source_unavailable', 'paging_loop'));
      // Only a full read resumes from a checkpoint; a delta round that stops is asked again from its link.
      yield watermark === undefined ? { ...batch, checkpoint: next.href } : batch;
      url = next;
    }
    throw http.failed(new ProviderError('source_unavailable', 'paging_loop'));
  }

  return { tombstones: true, changes };
}

function parsed(body: Buffer, http: ProviderHttp): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw http.failed(new ProviderError('source_unavailable', 'invalid_json'));
  }
}

function readPage(json: unknown, status: number, http: ProviderHttp) {
  try {
    return readGraphDeltaPage(json, status);
  } catch (error) {
    throw error instanceof ProviderError ? http.failed(error) : error;
  }
}

/** Graph's `error.code`, lower-cased (`concepts/errors.md`). */
function errorCode(json: unknown): string {
  const error = isObject(json) ? json['error'] : undefined;
  const code = isObject(error) ? error['code'] : undefined;
  return typeof code === 'string' ? code.toLowerCase() : '';
}

/** One page's users as upserts and its `@removed` entries as deletes; malformed entries are skipped and counted. */
function toBatch(
  value: readonly unknown[],
  observedAt: string,
  source: SourceRef,
  settings: ProviderSettings,
): ChangeBatch {
  const toRecord = graphUserMapper(source, observedAt);
  const upserts: RawRecord[] = [];
  const deletes: string[] = [];
  let skipped = 0;
  for (const item of value) {
    const id = isObject(item) ? item['id'] : undefined;
    if (isObject(item) && item['@removed'] !== undefined && typeof id === 'string' && id !== '') {
      deletes.push(id);
      continue;
    }
    const outcome = toRecord(item);
    if ('skip' in outcome) skipped++;
    else upserts.push(outcome);
  }
  if (skipped > 0)
    settings.log?.({ event: 'provider_records_skipped', source, reason: 'malformed_record', count: skipped });
  return { upserts, deletes };
}
