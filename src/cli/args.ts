import { CliError } from './errors.ts';
import { EXCERPT_CHARS, printable, quoted } from '../core/limits.ts';

export interface OptionSpec {
  /** Long name without dashes. */
  name: string;
  /** 'flag' takes no value; 'string' takes one. */
  kind: 'flag' | 'string';
  short?: string;
}

export interface ParsedArgs {
  positionals: string[];
  options: Record<string, string | boolean>;
}

/** Parses `--name value`, `--name=value`, `-o value` and flags; '-' alone is a positional (stdin). */
export function parseArgs(argv: string[], specs: OptionSpec[]): ParsedArgs {
  const positionals: string[] = [];
  // Null prototype: a lookup such as options.constructor must never reach Object.prototype.
  const options: Record<string, string | boolean> = Object.create(null);
  const byName = new Map(specs.map((s) => [s.name, s]));
  const byShort = new Map(specs.filter((s) => s.short).map((s) => [s.short!, s]));
  for (let k = 0; k < argv.length; k++) {
    const arg = argv[k];
    if (arg === '--') {
      positionals.push(...argv.slice(k + 1));
      break;
    }
    let spec: OptionSpec | undefined;
    let inline: string | undefined;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
      inline = eq >= 0 ? arg.slice(eq + 1) : undefined;
      spec = byName.get(name);
      if (!spec) throw new CliError(`unknown option --${printable(name, EXCERPT_CHARS)} (see --help)`);
    } else if (arg.startsWith('-') && arg.length > 1 && !/^-\d/.test(arg)) {
      spec = byShort.get(arg.slice(1));
      if (!spec) throw new CliError(`unknown option ${printable(arg, EXCERPT_CHARS)} (see --help)`);
    } else {
      positionals.push(arg);
      continue;
    }
    if (spec.kind === 'flag') {
      if (inline !== undefined) throw new CliError(`option --${spec.name} takes no value`);
      options[spec.name] = true;
    } else {
      const value = inline ?? argv[++k];
      if (value === undefined) throw new CliError(`option --${spec.name} needs a value`);
      options[spec.name] = value;
    }
  }
  return { positionals, options };
}

/** A finite number option within [min, max]. */
export function numberOption(options: ParsedArgs['options'], name: string, fallback: number, min: number, max: number): number {
  const raw = options[name];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (typeof raw !== 'string' || raw.trim() === '' || !Number.isFinite(value))
    throw new CliError(`--${name} must be a number, got ${quoted(String(raw))}`);
  if (value < min || value > max) throw new CliError(`--${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

/** A string option that must be one of `choices`. */
export function choiceOption<T extends string>(options: ParsedArgs['options'], name: string, choices: readonly T[], fallback: T): T {
  const raw = options[name];
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !(choices as readonly string[]).includes(raw))
    throw new CliError(`--${name} must be ${choices.join(' or ')}, got ${quoted(String(raw))}`);
  return raw as T;
}
