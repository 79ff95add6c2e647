import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './cli-error.js';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

/** Strict flag parsing: unknown flags and missing values become one CliError line. */
export interface ParsedCommandArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** A value that starts with a dash but is a number (`-1`, `-0.5`): the value of the flag before it, not a flag. */
const NEGATIVE_NUMBER = /^-\d/;

/**
 * Joins `--name -1` into `--name=-1` for string options, so that a negative number reaches the
 * option's own check ("must be a positive integer, got '-1'") instead of node's "argument is ambiguous".
 */
function joinNegativeValues(argv: readonly string[], options: OptionSpec): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    const name = arg.startsWith('--') ? arg.slice(2) : undefined;
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && NEGATIVE_NUMBER.test(next)) {
      out.push(`${arg}=${next}`);
      i += 1;
    } else {
      out.push(arg);
    }
  }
  return out;
}

export function parseCommandArgs(command: string, argv: string[], options: OptionSpec): ParsedCommandArgs {
  try {
    const parsed = parseArgs({
      args: joinNegativeValues(argv, options),
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    return { values: parsed.values as ParsedCommandArgs['values'], positionals: parsed.positionals };
  } catch (error) {
    const message = (error as Error).message.split('\n')[0]!;
    // node's text for an unknown flag goes on about positionals; the flag is what matters.
    const unknown = /^Unknown option '([^']+)'/.exec(message);
    throw new CliError(`${unknown ? `unknown option '${unknown[1]}'` : message} (see mosaic ${command} --help)`);
  }
}

export function requireString(command: string, values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.length === 0) throw new CliError(`--${name} is required (see mosaic ${command} --help)`);
  return value;
}

export function positiveInteger(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new CliError(`--${name} must be a positive integer, got '${String(value)}'`);
  return n;
}

/** `value` (a positive number of seconds, named `label` in the error) as milliseconds; undefined when not given. */
export function secondsAsMs(label: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new CliError(`${label} must be a positive number of seconds, got '${String(value)}'`);
  return Math.ceil(seconds * 1000);
}

export function oneOf<T extends string>(name: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw new CliError(`--${name} must be one of ${allowed.join(', ')}, got '${String(value)}'`);
}
