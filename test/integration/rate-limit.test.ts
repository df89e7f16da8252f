/* eslint-disable @typescript-eslint/no-unsafe-member-access -- response bodies are untyped wire JSON; the assertions check their shape */
/**
 * The per-principal and per-tenant rate limits through the local stack (REST front, runtime client, DynamoDB
 * Local): requests of one caller served by several execution environments share one count, because every
 * environment counts in the same table; a tenant's principals share the tenant's count; other tenants are
 * untouched; a refused request answers 429 with `Retry-After` and `-32029`.
 */
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { type LocalStack, startStack } from '../../local/stack.js';
import { needsJava } from '../helpers/java.js';

const PRINCIPAL_LIMIT = 5;
const TENANT_LIMIT = 7;
/** One window for the whole file (an hour), so no count resets between two requests of a test. */
const WINDOW_SECONDS = 3600;

interface Answer {
  status: number;
  retryAfter: string | null;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- wire JSON
}

describe(
  'rate limits through the local stack, counted in DynamoDB Local by several execution environments',
  { timeout: 240_000, skip: needsJava() },
  () => {
    let stack: LocalStack;
    /** Slot of each environment that logged a served call (the entry's `mcp.call` line). */
    const servingSlots = new Set<number>();
    /** WARN and ERROR lines of the function: none is expected (a store too slow would fail open). */
    const problems: string[] = [];

    before(async () => {
      // A request near the end of the window would see its count reset mid-test.
      const intoWindow = (Date.now() / 1000) % WINDOW_SECONDS;
      if (WINDOW_SECONDS - intoWindow < 90) await delay((WINDOW_SECONDS - intoWindow + 1) * 1000);
      stack = await startStack({
        bundleDir: '.local/test-bundles/rate-limit',
        poolSize: 3,
        // Room beyond the three warm environments: one that just answered is busy until it polls again, and
        // the next round must not be throttled meanwhile.
        concurrency: 6,
        timeoutSeconds: 30,
        completionInvocations: false,
        env: {
          MCP_RATE_LIMIT_PRINCIPAL: String(PRINCIPAL_LIMIT),
          MCP_RATE_LIMIT_TENANT: String(TENANT_LIMIT),
          MCP_RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
          // DynamoDB Local on a loaded machine can take longer than the default; failing open would admit
          // requests this test counts on being refused.
          MCP_RATE_LIMIT_TIMEOUT_MS: '10000',
        },
        onFunctionLog: ({ slot, line }) => {
          if (line.includes('"mcp.call"')) servingSlots.add(slot);
          if (line.includes('"WARN"') || line.includes('"ERROR"')) problems.push(line);
        },
      });
    });
    after(async () => {
      await stack?.close();
      assert.deepEqual(problems, []);
    });

    async function initialize(token: string): Promise<Answer> {
      const response = await fetch(stack.url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 'it', version: '1' },
          },
        }),
      });
      return {
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
        body: JSON.parse(await response.text()) as unknown,
      };
    }

    /** `rounds` rounds of three concurrent requests: each round spreads over the three environments. */
    async function burst(token: string, rounds: number): Promise<Answer[]> {
      const answers: Answer[] = [];
      for (let round = 0; round < rounds; round += 1)
        answers.push(...(await Promise.all([1, 2, 3].map(() => initialize(token)))));
      return answers;
    }

    const token = async (subject: string, orgId: string): Promise<string> => {
      assert.ok(stack.mintToken, 'the stack runs a local issuer');
      return stack.mintToken(subject, { orgId });
    };

    it('admits exactly the principal limit of twelve concurrent requests served by several environments', async () => {
      const answers = await burst(await token('alice', 'acme'), 4);

      const admitted = answers.filter((a) => a.status === 200);
      const refused = answers.filter((a) => a.status === 429);
      assert.deepEqual(
        answers.map((a) => a.status).filter((status) => status !== 200 && status !== 429),
        [],
      );
      assert.equal(admitted.length, PRINCIPAL_LIMIT);
      assert.equal(refused.length, 12 - PRINCIPAL_LIMIT);
      assert.ok(servingSlots.size >= 2, `only environment(s) ${[...servingSlots].join(', ')} served`);
      for (const answer of refused) {
        assert.equal(answer.body.error.code, -32029);
        assert.equal(answer.body.error.data.bucket, 'principal');
        const seconds = Number(answer.retryAfter);
        assert.ok(
          Number.isInteger(seconds) && seconds >= 1 && seconds <= WINDOW_SECONDS,
          answer.retryAfter ?? '',
        );
        assert.equal(answer.body.error.data.retryAfterSeconds, seconds);
      }
    });

    it("gives another principal of the tenant only what is left of the tenant's share, not counting the refused requests", async () => {
      const answers = await burst(await token('bob', 'acme'), 2);

      // alice's five admitted requests count for acme; her seven refused ones do not.
      assert.equal(answers.filter((a) => a.status === 200).length, TENANT_LIMIT - PRINCIPAL_LIMIT);
      const refused = answers.filter((a) => a.status === 429);
      assert.equal(refused.length, 6 - (TENANT_LIMIT - PRINCIPAL_LIMIT));
      for (const answer of refused) assert.equal(answer.body.error.data.bucket, 'tenant');
    });

    it('leaves another tenant untouched', async () => {
      const answers = await burst(await token('carol', 'globex'), 1);

      assert.deepEqual(
        answers.map((a) => a.status),
        [200, 200, 200],
      );
    });
  },
);
