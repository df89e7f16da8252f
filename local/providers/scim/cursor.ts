/**
 * RFC 9865 cursor paging in front of SCIMMY's index paging: a `cursor` (empty for the first page) becomes
 * a `startIndex`, and the list response gets `nextCursor` (absent on the last page) instead of
 * `startIndex`. The cursor is opaque to clients; here it encodes the next index.
 */
import type { Request, Response } from 'express';

/** Rewrites the JSON body the next `res.send` writes. */
function rewriteJson(res: Response, edit: (body: Record<string, unknown>) => void): void {
  const send = res.send.bind(res);
  res.send = ((body: unknown) => {
    if (typeof body === 'string' && res.statusCode === 200) {
      try {
        const json = JSON.parse(body) as Record<string, unknown>;
        edit(json);
        return send(JSON.stringify(json));
      } catch {
        return send(body);
      }
    }
    return send(body);
  }) as Response['send'];
}

const encode = (index: number) => Buffer.from(`i:${index}`).toString('base64url');
const decode = (cursor: string): number | undefined => {
  const match = /^i:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match === null ? undefined : Number(match[1]);
};

/**
 * Translates a cursor request; answers `400 invalidCursor` for a cursor it never issued. Returns false when
 * it answered.
 */
export function cursorRequest(req: Request, res: Response): boolean {
  const cursor = req.query['cursor'];
  if (typeof cursor !== 'string') return true;
  const start = cursor === '' ? 1 : decode(cursor);
  if (start === undefined) {
    res
      .status(400)
      .type('application/scim+json')
      .send(
        JSON.stringify({
          schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
          status: '400',
          scimType: 'invalidCursor',
          detail: 'The cursor is not valid',
        }),
      );
    return false;
  }
  delete req.query['cursor'];
  req.query['startIndex'] = String(start);
  rewriteJson(res, (body) => {
    const total = Number(body['totalResults']);
    const items = Number(body['itemsPerPage']);
    const next = start + items;
    delete body['startIndex'];
    if (items > 0 && next <= total) body['nextCursor'] = encode(next);
  });
  return true;
}

/** Adds RFC 9865's `pagination` to the ServiceProviderConfig answer. */
export const cursorResponse = {
  advertise(res: Response): void {
    rewriteJson(res, (body) => {
      body['pagination'] = {
        cursor: true,
        index: false,
        defaultPaginationMethod: 'cursor',
        defaultPageSize: 100,
        maxPageSize: 200,
        cursorTimeout: 3600,
      };
    });
  },
};
