/** One expectation of a conformance suite and how it went. */
export interface ConformanceCheck {
  name: string;
  passed: boolean;
  /** Why it failed. */
  message?: string;
}

/** What a `check…Conformance` function returns: every check, and the failed ones as lines. */
export interface ConformanceReport {
  /** What was checked, e.g. 'Traverser my-traverser'. */
  subject: string;
  passed: boolean;
  checks: ConformanceCheck[];
  /** `<check>: <message>` per failed check; empty when everything passed. */
  failures: string[];
}

/** Thrown by `ensure`; a check that throws anything fails with its message. */
export class ConformanceViolation extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MosaicConformanceViolation';
  }
}

/** Fail the current check with `message` unless `condition` holds. */
export function ensure(condition: unknown, message: string): asserts condition {
  if (!condition) throw new ConformanceViolation(message);
}

/** Fail unless the two values serialise to the same JSON (Float32Arrays as arrays). */
export function ensureSame(actual: unknown, expected: unknown, message: string): void {
  const json = (value: unknown) => JSON.stringify(value, (_key, v: unknown) => (v instanceof Float32Array ? Array.from(v) : v));
  ensure(json(actual) === json(expected), message);
}

/** Fail unless `run` rejects with MosaicAbortedError when handed an already aborted signal. */
export async function ensureAbortHonoured(run: (abortSignal: AbortSignal) => Promise<unknown>): Promise<void> {
  const controller = new AbortController();
  controller.abort();
  let settled: 'resolved' | { name: string };
  try {
    await run(controller.signal);
    settled = 'resolved';
  } catch (error) {
    settled = { name: (error as Error)?.name ?? String(error) };
  }
  ensure(settled !== 'resolved', 'resolved although the abort signal had fired');
  ensure(settled.name === 'MosaicAbortedError', `rejected with ${settled.name}, expected MosaicAbortedError`);
}

/** Collects checks into a ConformanceReport. Each check runs on its own; a throw fails only that check. */
export interface ConformanceRun {
  check(name: string, body: () => unknown): Promise<void>;
  report(): ConformanceReport;
}

export function createConformanceRun(subject: string): ConformanceRun {
  const checks: ConformanceCheck[] = [];
  return {
    async check(name, body) {
      try {
        await body();
        checks.push({ name, passed: true });
      } catch (error) {
        const message =
          error instanceof ConformanceViolation ? error.message : `threw ${(error as Error)?.name ?? 'error'}: ${(error as Error)?.message ?? String(error)}`;
        checks.push({ name, passed: false, message });
      }
    },
    report() {
      const failures = checks.filter((check) => !check.passed).map((check) => `${check.name}: ${check.message}`);
      return { subject, passed: failures.length === 0, checks: [...checks], failures };
    },
  };
}
