/**
 * The BOS tools' `OperationTelemetry` port, recorded against the call being served. It lives in the
 * composition root because it joins two areas that may not import each other (DESIGN §2): the BOS report it
 * reads (`lambda/bos`) and the call record it writes (`lambda/aws/telemetry`).
 */
import type { InvocationTelemetry } from '../aws/index.js';
import type { OperationTelemetry } from '../bos/index.js';
import type { SourceErrorCode } from '../federation/index.js';

/** The code of a source that ran out of time (the operation deadline or its own timeout). */
const TIMEOUT_CODE: SourceErrorCode = 'source_timeout';

/** Records each federated operation's completeness and per-source figures in the running call. */
export function operationTelemetry(telemetry: InvocationTelemetry): OperationTelemetry {
  return {
    operationFinished(report) {
      const call = telemetry.call;
      if (call === undefined) return;
      call.worsen(report.completeness);
      for (const figures of report.sources) {
        const tally = telemetry.sourceTally(figures.sourceId);
        if (tally === undefined) continue;
        if (figures.firstPageMs !== undefined)
          tally.firstPageMs = Math.min(tally.firstPageMs ?? Infinity, figures.firstPageMs);
        tally.pages += figures.pages;
        tally.records += figures.records;
        if (figures.error !== undefined) {
          tally.errors.push(figures.error);
          if (figures.error === TIMEOUT_CODE) tally.deadlineHits += 1;
        }
      }
    },
  };
}
