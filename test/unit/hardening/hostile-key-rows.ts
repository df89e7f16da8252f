/**
 * Rows of the hostile-input table for keys a client chooses (client-keys.ts): each one bounded and checked
 * before any store sees it, and answered exactly like an unknown key.
 */
import { postEvent, rpc, session } from './hostile-harness.js';
import type { Row } from './hostile-rows.js';

const LONG_SESSION_ID = 's'.repeat(2049);

export const keyRows: Row[] = [
  {
    name: 'Mcp-Session-Id of 2,049 bytes (POST)',
    status: 404,
    code: undefined,
    event: () => postEvent(rpc(1, 'tools/list'), { 'Mcp-Session-Id': LONG_SESSION_ID }),
  },
  {
    name: 'Mcp-Session-Id of 2,049 bytes (GET)',
    status: 404,
    code: undefined,
    event: () =>
      postEvent(
        '',
        { 'Mcp-Session-Id': LONG_SESSION_ID, Accept: 'text/event-stream' },
        { httpMethod: 'GET' },
      ),
  },
  {
    name: 'Mcp-Session-Id of 2,049 bytes (DELETE)',
    status: 404,
    code: undefined,
    event: () => postEvent('', { 'Mcp-Session-Id': LONG_SESSION_ID }, { httpMethod: 'DELETE' }),
  },
  {
    name: 'Mcp-Session-Id with a control character',
    status: 404,
    code: undefined,
    event: () => postEvent(rpc(1, 'tools/list'), { 'Mcp-Session-Id': 'abc\u0001def' }),
  },
  {
    name: 'Last-Event-ID of 5,000 characters',
    status: 404,
    code: undefined,
    event: async () =>
      postEvent(
        '',
        { ...(await session('2025-11-25')), Accept: 'text/event-stream', 'Last-Event-ID': 'e'.repeat(5000) },
        { httpMethod: 'GET' },
      ),
  },
];
