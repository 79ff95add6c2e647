import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Analysis, AnalyzeOptions, Analyzer, Policy, Question } from '@mosaic/spec';
import { InvalidArgumentError } from '@mosaic/spec';
import { CONTROL_FIELDS } from '@mosaic/policy-schema';
import { forwardedWarmUp } from './warm-up.js';

/** One line of the policy log: the question and its Analysis. */
export interface PolicyLogRecord extends Analysis {
  questionId?: string;
  question: string;
}

export interface PolicyLog {
  readonly path: string;
  /** Append one analysis as one JSON line. Appends are serialised; the promise settles when written. */
  append(options: { question: Question; analysis: Analysis }): Promise<void>;
  /** Resolves when every append issued so far has been written (rejects with the first write error). */
  flush(): Promise<void>;
}

/** Build the log record of one analysis. */
export function policyLogRecord(options: { question: Question; analysis: Analysis }): PolicyLogRecord {
  const { question, analysis } = options;
  const record: PolicyLogRecord = {
    questionId: question.id,
    question: question.text,
    policy: analysis.policy,
    changes: analysis.changes,
    analyzer: analysis.analyzer,
    latencyMs: analysis.latencyMs,
  };
  if (analysis.fallback) record.fallback = analysis.fallback;
  if (analysis.cacheHit !== undefined) record.cacheHit = analysis.cacheHit;
  return record;
}

/**
 * A JSON-lines policy log at `path` (parent folders created on first write). Every append writes one
 * complete line with one `appendFile` call, chained on a promise so that concurrent appends in one process
 * never interleave.
 */
export function createPolicyLog(options: { path: string }): PolicyLog {
  if (!options || typeof options.path !== 'string' || options.path === '') {
    throw new InvalidArgumentError({ argument: 'path', message: 'must be a non-empty string' });
  }
  const path = options.path;
  let chain: Promise<void> = Promise.resolve();
  let firstError: unknown;
  let madeDir = false;
  return {
    path,
    append(entry) {
      const line = `${JSON.stringify(policyLogRecord(entry))}\n`;
      const write = chain.then(async () => {
        if (!madeDir) {
          await mkdir(dirname(path), { recursive: true });
          madeDir = true;
        }
        await appendFile(path, line, 'utf8');
      });
      // Keep the chain alive after a failed write; report the failure to this caller and to flush().
      chain = write.catch((error: unknown) => {
        firstError ??= error;
      });
      return write;
    },
    async flush() {
      await chain;
      if (firstError !== undefined) {
        const error = firstError;
        firstError = undefined;
        throw error;
      }
    },
  };
}

/** Read a policy log; malformed lines are skipped and counted. */
export async function readPolicyLog(options: { path: string }): Promise<{ records: PolicyLogRecord[]; malformed: number }> {
  const text = await readFile(options.path, 'utf8');
  const records: PolicyLogRecord[] = [];
  let malformed = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const value = JSON.parse(line) as PolicyLogRecord;
      if (value && typeof value === 'object' && value.policy && typeof value.policy === 'object') records.push(value);
      else malformed++;
    } catch {
      malformed++;
    }
  }
  return { records, malformed };
}

/** An analyzer that appends every analysis it returns to a policy log (its `warmUp`, the analyzer's, appends nothing). */
export function createLoggedAnalyzer(options: { analyzer: Analyzer; log: PolicyLog }): Analyzer {
  const { analyzer, log } = options;
  return {
    specificationVersion: 'v1',
    id: analyzer.id,
    // The analyzer's own warm-up: warm-up questions get no line.
    ...forwardedWarmUp(analyzer),
    async analyze(analyzeOptions: AnalyzeOptions): Promise<Analysis> {
      const analysis = await analyzer.analyze(analyzeOptions);
      await log.append({ question: analyzeOptions.question, analysis });
      return analysis;
    },
  };
}

export interface NumberRange {
  min: number;
  max: number;
}

/** The policy-diversity figures of report §7.4 over a set of analyses. */
export interface PolicySummary {
  count: number;
  /** Distinct control settings (diagnostics ignored). */
  uniquePolicies: number;
  /** Share of questions per maxDepth, e.g. { 2: 0.26, 3: 0.43, 4: 0.31 }. */
  depthDistribution: Record<number, number>;
  seedRange: NumberRange;
  evidenceRange: NumberRange;
  minEvidenceRange: NumberRange;
  /** Share of questions per stop regime. */
  stopRegimeDistribution: Record<string, number>;
  /** Share of questions with each mechanism active. */
  activation: {
    connector: number;
    adaptiveEvidence: number;
    hybridSelection: number;
    perTargetSeeding: number;
    compactSeeding: number;
    /** anchorStrength ≥ 0.4 (the report's threshold for target-aware scoring). */
    anchoring: number;
  };
  /** Mean analyzer latency (ms) over records that carry one. */
  meanLatencyMs?: number;
  /** Share of records produced by a fallback analyzer. */
  fallbackRate: number;
}

/** Canonical string of a policy's controls (diagnostics ignored). */
export function controlsKey(policy: Policy): string {
  return JSON.stringify(CONTROL_FIELDS.map((field) => policy[field]));
}

/** Summarise analyses (or log records) into the report's §7.4 policy-diversity figures. */
export function summarizePolicies(records: readonly { policy: Policy; latencyMs?: number; fallback?: unknown }[]): PolicySummary {
  const n = records.length;
  const share = (count: number) => (n === 0 ? 0 : count / n);
  const range = (values: number[]): NumberRange =>
    values.length === 0
      ? { min: 0, max: 0 }
      : values.reduce((r, v) => ({ min: Math.min(r.min, v), max: Math.max(r.max, v) }), { min: Infinity, max: -Infinity });
  const distribution = <K extends string | number>(keys: K[]): Record<K, number> => {
    const counts = {} as Record<K, number>;
    for (const k of keys) counts[k] = (counts[k] ?? 0) + 1;
    for (const k of Object.keys(counts) as K[]) counts[k] = share(counts[k]);
    return counts;
  };
  const policies = records.map((r) => r.policy);
  const count = (predicate: (p: Policy) => boolean) => share(policies.filter(predicate).length);
  const latencies = records.map((r) => r.latencyMs).filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
  return {
    count: n,
    uniquePolicies: new Set(policies.map(controlsKey)).size,
    depthDistribution: distribution(policies.map((p) => p.maxDepth)),
    seedRange: range(policies.map((p) => p.seedLimit)),
    evidenceRange: range(policies.map((p) => p.evidenceCount)),
    minEvidenceRange: range(policies.map((p) => p.minEvidence)),
    stopRegimeDistribution: distribution(policies.map((p) => p.stopRegime)),
    activation: {
      connector: count((p) => p.useConnector),
      adaptiveEvidence: count((p) => p.adaptiveFinalEvidence),
      hybridSelection: count((p) => p.selectionMode === 'hybrid'),
      perTargetSeeding: count((p) => p.seedQueryMode === 'per-target'),
      compactSeeding: count((p) => p.seedQueryMode === 'compact'),
      anchoring: count((p) => p.anchorStrength >= 0.4),
    },
    meanLatencyMs: latencies.length > 0 ? latencies.reduce((a, b) => a + b, 0) / latencies.length : undefined,
    fallbackRate: share(records.filter((r) => r.fallback !== undefined).length),
  };
}
