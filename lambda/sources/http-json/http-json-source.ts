/**
 * The `http-json` adapter: any paged REST JSON source, read as its directory definition declares
 * (definition.ts) through the provider kernel — the same deadline, rate-limit waits, error mapping and
 * transport safety as the built-in kinds. An operation without its own URL template reads the list and
 * answers the query here, as does an `updated_since` the list template cannot carry.
 */
import type {
  RawRecord,
  ReadOptions,
  SourceAdapter,
  SourceQuery,
  SourceRef,
} from '../../federation/index.js';
import { applyQuery } from '../fixture/fixture-source.js';
import {
  basicAuthorization,
  bearerAuthorization,
  cursorPaging,
  linkPaging,
  nextUrlPaging,
  ProviderError,
  ProviderHttp,
  providerPages,
  ReadBudget,
  resolveCredential,
} from '../kernel/index.js';
import type { JsonPage, NextPageUrl, ProviderSettings } from '../kernel/index.js';
import { ClientCredentialsBroker, tokenForRead } from '../oauth/index.js';
import type { SourceSpec } from '../registry/types.js';
import { fill } from './definition.js';
import type { HttpJsonOptions, HttpJsonPagination } from './definition.js';
import { atPath, httpJsonMapper } from './record-map.js';

/** An `http-json` adapter for one validated definition. */
export function createHttpJsonSource(
  spec: SourceSpec,
  options: HttpJsonOptions,
  settings: ProviderSettings = {},
): SourceAdapter {
  const source: SourceRef = { source_type: options.sourceType, source_identity: spec.source_id };
  const broker =
    options.auth.kind === 'oauth'
      ? new ClientCredentialsBroker(options.auth.oauth, spec.credential, {
          allowLoopbackHttp: settings.allowLoopbackHttp ?? false,
        })
      : undefined;
  const origin = options.baseUrl.origin;
  const next = nextPageOf(options.pagination, origin);

  async function authorization(budget: ReadBudget): Promise<Record<string, string>> {
    switch (options.auth.kind) {
      case 'none':
        return {};
      case 'bearer':
        return { authorization: bearerAuthorization(await resolveCredential(spec.credential)) };
      case 'basic':
        return { authorization: basicAuthorization(await resolveCredential(spec.credential)) };
      case 'oauth':
        return { authorization: bearerAuthorization((await tokenForRead(broker!, budget)).accessToken) };
    }
  }

  async function* read(query: SourceQuery, readOptions: ReadOptions): AsyncGenerator<RawRecord[]> {
    const budget = new ReadBudget(readOptions);
    const http = new ProviderHttp(source, budget, settings);
    const headers = { accept: 'application/json', ...(await authorization(budget)) };
    const own = options.operations[query.operation];
    const template = own ?? options.operations.list_people!;
    const values = {
      query: query.operation === 'search_people' ? query.query.trim() : '',
      updated_since: query.operation === 'list_people' ? (query.updated_since ?? '') : '',
    };
    const answerHere =
      query.operation !== 'get_person' &&
      (own === undefined || (query.operation === 'list_people' && !template.includes('{updated_since}')));
    const first = firstPage(new URL(fill(template, values), options.baseUrl), options.pagination);
    const pages = providerPages<URL>({
      source,
      first,
      settings,
      toRecord: httpJsonMapper(source, options.fields, new Date().toISOString(), options.identity),
      fetchPage: async (url, signal) => {
        const page = await http.getJson(url, headers, signal);
        const items = atPath(page.json, options.recordsPath);
        if (!Array.isArray(items))
          throw new ProviderError('source_unavailable', 'invalid_response', page.status);
        return { items: items as unknown[], next: next(page, items.length) };
      },
    });
    for await (const page of pages) {
      const kept = answerHere ? applyQuery(page, query) : page;
      if (kept.length > 0) yield kept;
    }
  }

  return { source, ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }), read };
}

function firstPage(url: URL, pagination: HttpJsonPagination): URL {
  if (pagination.kind === 'offset_limit') {
    url.searchParams.set(pagination.offsetParam, '0');
    url.searchParams.set(pagination.limitParam, String(pagination.pageSize));
  } else if (pagination.kind === 'page_number') {
    url.searchParams.set(pagination.pageParam, String(pagination.firstPage));
    url.searchParams.set(pagination.sizeParam, String(pagination.pageSize));
  }
  return url;
}

/** The next page's URL by the declared pagination; a short page ends offset and page-number paging. */
function nextPageOf(pagination: HttpJsonPagination, origin: string): NextPageUrl {
  switch (pagination.kind) {
    case 'none':
      return () => undefined;
    case 'cursor':
      return cursorPaging({ cursorParam: pagination.cursorParam, nextField: pagination.nextCursorField });
    case 'next_url':
      return nextUrlPaging(pagination.nextUrlField, origin);
    case 'link_header':
      return linkPaging(origin);
    case 'offset_limit':
      return (page: JsonPage, items: number) => {
        if (items < pagination.pageSize) return undefined;
        const url = new URL(page.url);
        url.searchParams.set(
          pagination.offsetParam,
          String(Number(url.searchParams.get(pagination.offsetParam) ?? 0) + items),
        );
        return url;
      };
    case 'page_number':
      return (page: JsonPage, items: number) => {
        if (items < pagination.pageSize) return undefined;
        const url = new URL(page.url);
        url.searchParams.set(
          pagination.pageParam,
          String(Number(url.searchParams.get(pagination.pageParam) ?? pagination.firstPage) + 1),
        );
        return url;
      };
  }
}
