/**
 * The HTTP messages the runtime speaks: any Fetch-shaped request in ({@link HttpRequestLike}; a web `Request`
 * is one), {@link McpResponse} out, a structural subset of the Fetch `Response`.
 *
 * Why not the web classes themselves: in Node.js `Request`, `Response`, `Headers` and `fetch` are undici's,
 * loaded the first time any of them is touched. On the Lambda runtime's Node 22 that first touch costs about
 * 45–50 ms of CPU (`new Response('x')` in a fresh process), a fifth of a cold start (docs/mcp-runtime.md,
 * "HTTP messages"). These classes keep the same rules (header names are RFC 9110 tokens, values are
 * ByteStrings without CR/LF/NUL and lose surrounding whitespace, repeated fields join with ", ") without
 * loading undici, and keep a string body a string: it becomes a `ReadableStream` only if `body` is read.
 */

/** RFC 9110 §5.6.2 token: the only characters of a field name or a method. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Fetch "normalize": strip leading and trailing HTTP whitespace (tab, LF, CR, space). */
const SURROUNDING_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;
const FORBIDDEN_VALUE_CHAR = /[\0\r\n]/;
/** WebIDL ByteString: every code unit must fit in one byte. */
const NON_BYTE = /[\u0100-\uffff]/;
/** Fetch forbids these methods outright. */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);
/** Fetch upper-cases these methods (and leaves any other token as sent). */
const NORMALISED_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);

/** True when `name` is a valid field name (an RFC 9110 token). */
export function isHeaderName(name: string): boolean {
  return TOKEN.test(name);
}

/**
 * A field value as Fetch's `Headers.append` stores it: surrounding whitespace removed. Throws `TypeError` for
 * what `Headers` refuses: a code unit above 0xFF, or CR, LF or NUL left inside.
 */
export function normaliseHeaderValue(value: string): string {
  const normalised = value.replace(SURROUNDING_WHITESPACE, '');
  if (NON_BYTE.test(value) || FORBIDDEN_VALUE_CHAR.test(normalised))
    throw new TypeError('invalid header value');
  return normalised;
}

/**
 * A request method as `new Request` accepts it: a token, not CONNECT/TRACE/TRACK, the six standard methods
 * upper-cased. Throws `TypeError` otherwise.
 */
export function normaliseMethod(method: string): string {
  if (!TOKEN.test(method)) throw new TypeError('invalid method');
  const upper = method.toUpperCase();
  if (FORBIDDEN_METHODS.has(upper)) throw new TypeError('forbidden method');
  return NORMALISED_METHODS.has(upper) ? upper : method;
}

/** The part of `Headers` the runtime reads. A web `Headers` satisfies it. */
export interface HeaderReader {
  /** Every value of the field joined with ", ", or null when absent (name case-insensitive). */
  get(name: string): string | null;
  has(name: string): boolean;
}

/**
 * The part of `Headers` adapters read from a response. A web `Headers` satisfies it (`HttpHeaders` also
 * iterates like one: `entries()`, `for … of`).
 */
export interface ResponseHeaders extends HeaderReader {
  forEach(callback: (value: string, name: string) => void): void;
  /** `Set-Cookie` lines, one per cookie (they cannot be comma-joined). */
  getSetCookie(): string[];
}

/**
 * A case-insensitive header map with the `Headers` rules: lower-cased names, validated and normalised values,
 * iteration sorted by name with `set-cookie` lines kept apart. Invalid input throws `TypeError`, as `Headers` does.
 */
export class HttpHeaders implements ResponseHeaders {
  readonly #fields = new Map<string, string[]>();

  /** @param init name → value pairs, appended in order. */
  constructor(init?: Readonly<Record<string, string>> | Iterable<readonly [string, string]>) {
    if (init === undefined) return;
    const pairs = Symbol.iterator in init ? init : Object.entries(init);
    for (const [name, value] of pairs) this.append(name, value);
  }

  append(name: string, value: string): void {
    const key = fieldName(name);
    const normalised = normaliseHeaderValue(value);
    const values = this.#fields.get(key);
    if (values === undefined) this.#fields.set(key, [normalised]);
    else values.push(normalised);
  }

  set(name: string, value: string): void {
    this.#fields.set(fieldName(name), [normaliseHeaderValue(value)]);
  }

  delete(name: string): void {
    this.#fields.delete(fieldName(name));
  }

  get(name: string): string | null {
    return this.#fields.get(fieldName(name))?.join(', ') ?? null;
  }

  has(name: string): boolean {
    return this.#fields.has(fieldName(name));
  }

  getSetCookie(): string[] {
    return [...(this.#fields.get('set-cookie') ?? [])];
  }

  forEach(callback: (value: string, name: string, headers: HttpHeaders) => void): void {
    for (const [name, value] of this.entries()) callback(value, name, this);
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of [...this.#fields.keys()].sort()) {
      const values = this.#fields.get(name) ?? [];
      // Fetch "sort and combine": each Set-Cookie line stays its own entry.
      if (name === 'set-cookie') for (const value of values) yield [name, value];
      else yield [name, values.join(', ')];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

function fieldName(name: string): string {
  if (!TOKEN.test(name)) throw new TypeError('invalid header name');
  return name.toLowerCase();
}

/** A Fetch-shaped request: what `McpServer.handle` reads. A web `Request` satisfies it. */
export interface HttpRequestLike {
  readonly method: string;
  readonly url: string;
  readonly headers: HeaderReader;
  readonly body: ReadableStream<Uint8Array> | null;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** Options of {@link BufferedRequest}. */
export interface BufferedRequestInit {
  /** Validated and normalised as `new Request` does (see {@link normaliseMethod}). */
  method: string;
  headers: HttpHeaders;
  /** The whole body; refused with GET and HEAD, as by `new Request`. */
  body?: Uint8Array;
  signal?: AbortSignal;
}

/**
 * A request whose body is already in memory (a Lambda event carries it whole). `McpServer` reads the bytes
 * directly; `body` builds a `ReadableStream` only for callers that ask for one.
 */
export class BufferedRequest implements HttpRequestLike {
  readonly method: string;
  readonly url: string;
  readonly headers: HttpHeaders;
  readonly #bytes: Uint8Array | null;
  readonly #signal: AbortSignal | undefined;
  #stream: ReadableStream<Uint8Array> | null | undefined;
  #used = false;

  constructor(url: string, init: BufferedRequestInit) {
    this.method = normaliseMethod(init.method);
    if (init.body !== undefined && (this.method === 'GET' || this.method === 'HEAD'))
      throw new TypeError('a GET or HEAD request cannot have a body');
    this.url = url;
    this.headers = init.headers;
    this.#bytes = init.body ?? null;
    this.#signal = init.signal;
  }

  /** The signal passed in, else one that never aborts (a `Request` always has a signal). */
  get signal(): AbortSignal {
    return this.#signal ?? new AbortController().signal;
  }

  get bodyUsed(): boolean {
    return this.#used;
  }

  /** The body as a stream, built on first access (the bytes then count as used). */
  get body(): ReadableStream<Uint8Array> | null {
    if (this.#stream === undefined) {
      this.#stream = this.#bytes === null ? null : streamOf(this.#bytes);
      this.#used ||= this.#bytes !== null;
    }
    return this.#stream;
  }

  /** The body bytes, once (a body is consumed by reading it, as with `Request`). */
  bytes(): Promise<Uint8Array> {
    if (this.#bytes === null) return Promise.resolve(new Uint8Array(0));
    if (this.#used) return Promise.reject(new TypeError('body already used'));
    this.#used = true;
    return Promise.resolve(this.#bytes);
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    return exactBuffer(await this.bytes());
  }

  async text(): Promise<string> {
    return utf8.decode(await this.bytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown;
  }
}

/** What a response body is made of: written as it is by adapters that understand it. */
export type ResponseContent = string | Uint8Array | ReadableStream<Uint8Array> | null;

/** A Fetch-shaped response: what adapters write. `McpResponse` and a web `Response` satisfy it. */
export interface HttpResponseLike {
  readonly status: number;
  readonly headers: ResponseHeaders;
  readonly body: ReadableStream<Uint8Array> | null;
  text(): Promise<string>;
  json(): Promise<unknown>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** Options of {@link McpResponse}. */
export interface McpResponseInit {
  /** @default 200 */
  status?: number;
  headers?: Readonly<Record<string, string>> | HttpHeaders;
}

const utf8 = new TextDecoder();
const encoder = new TextEncoder();

/**
 * The runtime's response: status, headers and a lazy body. A string or byte body stays as it is until read,
 * so an adapter that writes it directly ({@link McpResponse.takeContent}) never creates a stream.
 */
export class McpResponse implements HttpResponseLike {
  readonly status: number;
  readonly headers: HttpHeaders;
  readonly #content: ResponseContent;
  #stream: ReadableStream<Uint8Array> | null | undefined;
  #used = false;

  constructor(content: ResponseContent, init: McpResponseInit = {}) {
    const status = init.status ?? 200;
    if (!Number.isInteger(status) || status < 200 || status > 599)
      throw new RangeError('status must be an integer from 200 to 599');
    this.status = status;
    this.headers = init.headers instanceof HttpHeaders ? init.headers : new HttpHeaders(init.headers);
    // As `new Response(string)`: a text body without a declared type is text/plain.
    if (typeof content === 'string' && !this.headers.has('content-type'))
      this.headers.set('content-type', 'text/plain;charset=UTF-8');
    this.#content = content;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  get bodyUsed(): boolean {
    return this.#used;
  }

  /** The body as a stream (created on first access for a string or byte body). */
  get body(): ReadableStream<Uint8Array> | null {
    if (this.#stream === undefined) {
      const content = this.#content;
      this.#stream =
        content === null || typeof content === 'string' || content instanceof Uint8Array
          ? content === null
            ? null
            : streamOf(typeof content === 'string' ? encoder.encode(content) : content)
          : content;
    }
    return this.#stream;
  }

  /**
   * The body for an adapter to write, once: the string or bytes as given, or the stream. A body already
   * turned into a stream (someone read `body`) comes back as that stream, so nothing is written twice.
   */
  takeContent(): ResponseContent {
    if (this.#used) throw new TypeError('body already used');
    this.#used = true;
    return this.#stream === undefined ? this.#content : this.#stream;
  }

  async bytes(): Promise<Uint8Array> {
    const content = this.takeContent();
    if (content === null) return new Uint8Array(0);
    if (typeof content === 'string') return encoder.encode(content);
    if (content instanceof Uint8Array) return content;
    return readAll(content);
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    return exactBuffer(await this.bytes());
  }

  async text(): Promise<string> {
    const content = this.#stream === undefined && !this.#used ? this.#content : undefined;
    if (typeof content === 'string') {
      this.#used = true;
      return content;
    }
    return utf8.decode(await this.bytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown;
  }
}

/** A one-chunk stream (only built when a caller reads `body`). */
function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (bytes.byteLength > 0) controller.enqueue(bytes);
      controller.close();
    },
  });
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    total += value.byteLength;
  }
  return concatBytes(chunks, total);
}

/** `chunks` as one array of `total` bytes (a single chunk is returned as it is). */
export function concatBytes(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1 && chunks[0]?.byteLength === total) return chunks[0];
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

function exactBuffer(bytes: Uint8Array): ArrayBuffer {
  const { buffer, byteOffset, byteLength } = bytes;
  return buffer instanceof ArrayBuffer && byteOffset === 0 && byteLength === buffer.byteLength
    ? buffer
    : bytes.slice().buffer;
}
