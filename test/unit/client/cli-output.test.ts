/**
 * What the CLI prints about where each source's pages came from (the pages' `bos/page_origin`).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { printPage, retrievalBySource } from '../../../client/cli-output.js';
import type { PageOrigin, ProvisionalPage } from '../../../client/index.js';

const page = (source_identity: string, origin: PageOrigin, pageIndex = 1): ProvisionalPage => ({
  provisional: true,
  source: { source_type: 'scim', source_identity },
  pageIndex,
  sequence: pageIndex,
  records: [{}],
  origin,
  elapsedMs: 3,
});

describe('CLI page origins', () => {
  it('labels each page with where it came from', () => {
    const out: string[] = [];
    const io = { stdout: (l: string) => void out.push(l), stderr: () => undefined };
    printPage(io, false, page('acme-scim', 'cache_baseline'));
    printPage(io, false, page('acme-scim', 'source_delta', 2));
    printPage(io, true, page('acme-okta', 'live_provider'));
    assert.match(
      out[0] ?? '',
      /scim\/acme-scim {2}pageIndex=1 {2}records=1 {2}page \(provisional, from baseline\)$/,
    );
    assert.match(out[1] ?? '', /page \(provisional, from delta\)$/);
    assert.equal((JSON.parse(out[2] ?? '{}') as { origin?: string }).origin, 'live_provider');
  });

  it('sums up per source whether its pages came from the baseline, its delta or live', () => {
    assert.deepEqual(
      retrievalBySource([
        page('acme-scim', 'cache_baseline'),
        page('acme-okta', 'live_provider'),
        page('acme-scim', 'source_delta', 2),
        page('acme-ldap', 'cache_baseline'),
      ]),
      [
        { source: { source_type: 'scim', source_identity: 'acme-scim' }, retrieval: 'baseline + delta' },
        { source: { source_type: 'scim', source_identity: 'acme-okta' }, retrieval: 'live' },
        { source: { source_type: 'scim', source_identity: 'acme-ldap' }, retrieval: 'baseline' },
      ],
    );
  });
});
