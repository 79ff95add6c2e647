const MAX_STRING = 200;
const MAX_ITEMS = 5;
const MAX_KEYS = 8;
const MAX_DEPTH = 2;

/**
 * A bounded, JSON-safe rendering of any value for change reports and logs.
 * Never throws: throwing getters, proxies, cycles, bigints and symbols are rendered as markers.
 */
export function renderValue(value: unknown): unknown {
  try {
    return render(value, 0);
  } catch {
    return '[unrenderable]';
  }
}

function render(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string':
      return truncate(value, MAX_STRING);
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'boolean':
      return value;
    case 'undefined':
      return undefined;
    case 'bigint':
      return `${value.toString()}n`;
    case 'symbol':
      return value.toString();
    case 'function':
      return '[function]';
    default:
      break;
  }
  if (value === null) return null;
  if (Array.isArray(value)) {
    if (depth >= MAX_DEPTH) return `[array(${value.length})]`;
    const out: unknown[] = [];
    const n = Math.min(value.length, MAX_ITEMS);
    for (let i = 0; i < n; i++) out.push(safeRender(() => value[i], depth + 1));
    if (value.length > MAX_ITEMS) out.push(`…(+${value.length - MAX_ITEMS})`);
    return out;
  }
  if (depth >= MAX_DEPTH) return '[object]';
  const keys = Object.keys(value as object);
  const entries: [string, unknown][] = [];
  for (const key of keys.slice(0, MAX_KEYS)) {
    entries.push([truncate(key, 60), safeRender(() => (value as Record<string, unknown>)[key], depth + 1)]);
  }
  if (keys.length > MAX_KEYS) entries.push(['…', `+${keys.length - MAX_KEYS} keys`]);
  // fromEntries defines own data properties, so a '__proto__' key stays an ordinary key.
  return Object.fromEntries(entries);
}

function safeRender(read: () => unknown, depth: number): unknown {
  try {
    return render(read(), depth);
  } catch {
    return '[unreadable]';
  }
}

/** Truncate to at most `max` UTF-16 units without splitting a surrogate pair; appends '…' when cut. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, Math.max(0, max - 1));
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return `${cut}…`;
}
