import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './cli-error.js';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

/** Strict flag parsing: unknown flags and missing values become one CliError line. */
export interface ParsedCommandArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

export function parseCommandArgs(command: string, argv: string[], options: OptionSpec): ParsedCommandArgs {
  try {
    const parsed = parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
    return { values: parsed.values as ParsedCommandArgs['values'], positionals: parsed.positionals };
  } catch (error) {
    throw new CliError(`${command}: ${(error as Error).message.split('\n')[0]}`);
  }
}

export function requireString(command: string, values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.length === 0) throw new CliError(`${command}: --${name} is required (see mosaic ${command} --help)`);
  return value;
}

export function positiveInteger(command: string, name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new CliError(`${command}: --${name} must be a positive integer, got '${String(value)}'`);
  return n;
}

export function oneOf<T extends string>(command: string, name: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw new CliError(`${command}: --${name} must be one of ${allowed.join(', ')}, got '${String(value)}'`);
}
