// Lines for a person at a terminal: time, level, service, message, then the fields as
// key=value; an access line reads "POST /v1/chat/completions 200 12.3ms". Coloured when the
// output is a terminal. Redaction has already happened: pino serialises (and censors) first.

const LEVELS: Readonly<Record<string, { label: string; colour: number }>> = {
  trace: { label: 'TRACE', colour: 90 },
  debug: { label: 'DEBUG', colour: 36 },
  info: { label: 'INFO ', colour: 32 },
  warn: { label: 'WARN ', colour: 33 },
  error: { label: 'ERROR', colour: 31 },
  fatal: { label: 'FATAL', colour: 35 },
};
/** Shown in the line's head, or not at all. */
const HEAD_FIELDS = new Set(['time', 'level', 'msg', 'service', 'pid', 'hostname']);
const ACCESS_FIELDS = new Set(['method', 'route', 'status', 'ms']);

function paint(colour: boolean, code: number, text: string): string {
  return colour ? `\u001b[${code}m${text}\u001b[39m` : text;
}

function value(v: unknown): string {
  if (typeof v === 'string') return /[\s"=]/.test(v) || v === '' ? JSON.stringify(v) : v;
  return JSON.stringify(v) ?? String(v);
}

/** One JSON log line as a person reads it. */
export function prettyLine(json: string, colour: boolean): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const level = LEVELS[String(entry.level)] ?? { label: String(entry.level).toUpperCase().padEnd(5), colour: 39 };
  const time = typeof entry.time === 'string' ? entry.time.slice(11, 23) : '';
  const service = typeof entry.service === 'string' ? paint(colour, 90, `[${entry.service}] `) : '';
  const access = entry.msg === 'request' && typeof entry.method === 'string';
  let message = String(entry.msg ?? '');
  if (access) {
    const status = Number(entry.status);
    const shade = status >= 500 ? 31 : status >= 400 ? 33 : 32;
    message = `${entry.method} ${entry.route} ${paint(colour, shade, String(entry.status))} ${entry.ms}ms`;
  }
  const rest: string[] = [];
  let stack = '';
  for (const [k, v] of Object.entries(entry)) {
    if (HEAD_FIELDS.has(k) || (access && ACCESS_FIELDS.has(k)) || v === undefined) continue;
    if (k === 'err' && typeof v === 'object' && v !== null) {
      const err = v as { type?: unknown; message?: unknown; stack?: unknown };
      rest.push(`err=${value(`${err.type ?? 'Error'}: ${err.message ?? ''}`)}`);
      if (typeof err.stack === 'string') stack = `\n${err.stack.split('\n').slice(1).join('\n')}`;
      continue;
    }
    rest.push(`${paint(colour, 90, `${k}=`)}${value(v)}`);
  }
  return `${paint(colour, 90, time)} ${paint(colour, level.colour, level.label)} ${service}${message}${rest.length ? `  ${rest.join(' ')}` : ''}${stack}\n`;
}

/** A pino destination that writes pretty lines to `out` (standard output, or a test's stream). */
export function prettyDestination(
  out: { write(text: string): unknown; isTTY?: boolean },
  colour = out.isTTY === true,
): { write(line: string): void } {
  return { write: (line: string) => void out.write(prettyLine(line, colour)) };
}
