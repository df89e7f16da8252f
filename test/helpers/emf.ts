/**
 * A checker for CloudWatch embedded metric format (EMF) log lines, written from AWS's specification
 * ("Specification: Embedded metric format", CloudWatch User Guide): the `_aws` metadata with a numeric
 * `Timestamp` and `CloudWatchMetrics` directives, each with a `Namespace`, `Dimensions` (arrays of
 * dimension names, at most 30 per set) and `Metrics` (at most 100 definitions, `Name` and an optional
 * `Unit` from the allowed list, `StorageResolution` 1 or 60); every dimension name a top-level string
 * member, every metric name a top-level number (or array of at most 100 numbers).
 */

/** The units the specification allows. */
export const EMF_UNITS: ReadonlySet<string> = new Set([
  'Seconds',
  'Microseconds',
  'Milliseconds',
  'Bytes',
  'Kilobytes',
  'Megabytes',
  'Gigabytes',
  'Terabytes',
  'Bits',
  'Kilobits',
  'Megabits',
  'Gigabits',
  'Terabits',
  'Percent',
  'Count',
  'Bytes/Second',
  'Kilobytes/Second',
  'Megabytes/Second',
  'Gigabytes/Second',
  'Terabytes/Second',
  'Bits/Second',
  'Kilobits/Second',
  'Megabits/Second',
  'Gigabits/Second',
  'Terabits/Second',
  'Count/Second',
  'None',
]);

/** Most dimensions in one dimension set. */
export const MAX_DIMENSIONS = 30;
/** Most metric definitions in one directive. */
export const MAX_METRICS = 100;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isName = (v: unknown): v is string => typeof v === 'string' && v.length >= 1 && v.length <= 255;

/** One metric as a blob reports it: namespace, its dimension set's values, name, unit and value. */
export interface EmfMetric {
  readonly namespace: string;
  readonly dimensions: Readonly<Record<string, string>>;
  readonly name: string;
  readonly unit: string | undefined;
  readonly value: number | readonly number[];
}

/** Every way `blob` breaks the specification; empty when it conforms. */
export function emfProblems(blob: unknown): string[] {
  const problems: string[] = [];
  if (!isObject(blob)) return ['the root is not a JSON object'];
  const aws = blob['_aws'];
  if (!isObject(aws)) return ['_aws is missing or not an object'];
  const timestamp = aws['Timestamp'];
  if (typeof timestamp !== 'number' || !Number.isInteger(timestamp) || timestamp < 0)
    problems.push('_aws.Timestamp is not a non-negative integer of epoch milliseconds');
  const directives = aws['CloudWatchMetrics'];
  if (!Array.isArray(directives)) return [...problems, '_aws.CloudWatchMetrics is not an array'];
  directives.forEach((directive: unknown, d) => {
    const at = `CloudWatchMetrics[${d}]`;
    if (!isObject(directive)) return problems.push(`${at} is not an object`);
    if (!isName(directive['Namespace'])) problems.push(`${at}.Namespace is not 1-255 characters of text`);
    const sets = directive['Dimensions'];
    if (!Array.isArray(sets)) problems.push(`${at}.Dimensions is not an array`);
    else
      sets.forEach((set: unknown, s) => {
        if (!Array.isArray(set)) return problems.push(`${at}.Dimensions[${s}] is not an array`);
        if (set.length > MAX_DIMENSIONS)
          problems.push(`${at}.Dimensions[${s}] has ${set.length} dimensions (most: ${MAX_DIMENSIONS})`);
        for (const name of set as unknown[]) {
          if (!isName(name)) problems.push(`${at}.Dimensions[${s}] holds a name that is not text`);
          else if (typeof blob[name] !== 'string')
            problems.push(`dimension ${name} is not a top-level string member`);
        }
        return undefined;
      });
    const metrics = directive['Metrics'];
    if (!Array.isArray(metrics)) return problems.push(`${at}.Metrics is not an array`);
    if (metrics.length > MAX_METRICS)
      problems.push(`${at}.Metrics has ${metrics.length} definitions (most: ${MAX_METRICS})`);
    metrics.forEach((metric: unknown, m) => {
      if (!isObject(metric)) return problems.push(`${at}.Metrics[${m}] is not an object`);
      const name = metric['Name'];
      if (!isName(name)) return problems.push(`${at}.Metrics[${m}].Name is not 1-255 characters of text`);
      const unit = metric['Unit'];
      if (unit !== undefined && (typeof unit !== 'string' || !EMF_UNITS.has(unit)))
        problems.push(
          `metric ${name} has unit ${JSON.stringify(unit)}, which the specification does not allow`,
        );
      const resolution = metric['StorageResolution'];
      if (resolution !== undefined && resolution !== 1 && resolution !== 60)
        problems.push(`metric ${name} has StorageResolution ${JSON.stringify(resolution)} (1 or 60)`);
      const value = blob[name];
      const numbers = Array.isArray(value) ? value : [value];
      if (
        numbers.length === 0 ||
        numbers.length > 100 ||
        !numbers.every((n) => typeof n === 'number' && Number.isFinite(n))
      )
        problems.push(`metric ${name} is not a top-level number or array of at most 100 numbers`);
      return undefined;
    });
    return undefined;
  });
  return problems;
}

/** The metrics of a conforming blob, one entry per (directive, dimension set, metric). */
export function emfMetrics(blob: Record<string, unknown>): EmfMetric[] {
  const out: EmfMetric[] = [];
  const aws = blob['_aws'] as {
    CloudWatchMetrics: Array<{
      Namespace: string;
      Dimensions: string[][];
      Metrics: Array<{ Name: string; Unit?: string }>;
    }>;
  };
  for (const directive of aws.CloudWatchMetrics)
    for (const set of directive.Dimensions)
      for (const metric of directive.Metrics)
        out.push({
          namespace: directive.Namespace,
          dimensions: Object.fromEntries(set.map((name) => [name, blob[name] as string])),
          name: metric.Name,
          unit: metric.Unit,
          value: blob[metric.Name] as number,
        });
  return out;
}

/** The JSON objects among `lines` that carry `_aws` (EMF blobs), parsed. */
export function emfBlobs(lines: readonly string[]): Record<string, unknown>[] {
  const blobs: Record<string, unknown>[] = [];
  for (const line of lines) {
    if (!line.startsWith('{') || !line.includes('"_aws"')) continue;
    try {
      blobs.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // Not JSON after all: not an EMF line either.
    }
  }
  return blobs;
}
