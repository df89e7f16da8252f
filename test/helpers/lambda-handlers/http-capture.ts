/**
 * An HTTP client for the local-stack tests that records what a real client sees: status, raw headers, and each
 * body chunk with the time it arrived, plus whether the connection was cut before the body ended.
 */
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';

/** Path of the scenario handler the local-stack tests bundle. */
export const SCENARIO_HANDLER = fileURLToPath(new URL('./scenarios.ts', import.meta.url));

/** One body chunk as the client read it. */
export interface CapturedChunk {
  /** `performance.now()` when the chunk was read. */
  at: number;
  text: string;
}

/** Everything a client observed for one request. */
export interface CapturedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  rawHeaders: string[];
  chunks: CapturedChunk[];
  /** The whole body as text. */
  body: string;
  /** True when the connection ended before the response was complete (truncated stream). */
  aborted: boolean;
  /** `performance.now()` when the request was sent. */
  sentAt: number;
  /** `performance.now()` when the response ended or was cut. */
  endedAt: number;
}

/** Request options; `abortAfterFirstChunk` closes the connection as soon as one body chunk arrived. */
export interface CaptureOptions {
  method?: string;
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
  abortAfterFirstChunk?: boolean;
  /** Stop reading for this long after each chunk (a slow client: backpressure all the way to the function). */
  pauseMs?: number;
}

/** Sends one request and records the response as it arrives. */
export function capture(url: string, options: CaptureOptions = {}): Promise<CapturedResponse> {
  return new Promise((resolve, reject) => {
    const sentAt = performance.now();
    const req = request(
      url,
      { method: options.method ?? 'GET', headers: options.headers, agent: false },
      (res) => {
        const chunks: CapturedChunk[] = [];
        let aborted = false;
        const finish = (): void =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            rawHeaders: res.rawHeaders,
            chunks,
            body: chunks.map((chunk) => chunk.text).join(''),
            aborted,
            sentAt,
            endedAt: performance.now(),
          });
        res.on('data', (data: Buffer) => {
          chunks.push({ at: performance.now(), text: data.toString('utf8') });
          if (options.pauseMs !== undefined && options.pauseMs > 0) {
            res.pause();
            setTimeout(() => res.resume(), options.pauseMs);
          }
          if (options.abortAfterFirstChunk === true) {
            aborted = true;
            req.destroy();
            finish();
          }
        });
        res.on('aborted', () => {
          aborted = true;
        });
        res.on('error', () => {
          aborted = true;
        });
        res.on('close', () => {
          if (!res.complete) aborted = true;
          finish();
        });
      },
    );
    req.on('error', (error) => {
      if (options.abortAfterFirstChunk !== true) reject(error);
    });
    req.end(options.body);
  });
}
