// The Markdown tables bench/chat.mjs prints, from the medians of a run's rounds: one of every
// target on chat per Node line, and one per group of scenarios against chat (Responses, Messages).

/**
 * One timed run of one target (load.mjs's or wrk.mjs's summary) with what chat.mjs adds: CPU
 * time and sleeps per call, in all and by process name.
 * @typedef {import('./load.mjs').Summary & {
 *   cpuUsPerRequest: number,
 *   cpuUsPerRequestByProcess: Record<string, number>,
 *   sleepsPerRequest: number,
 *   sleepsPerRequestByProcess: Record<string, number>,
 * }} Round
 */
/** A run's rounds: {scenarioId: {targetKey: [round results]}}. @typedef {Record<string, Record<string, Round[]>>} ByScenario */
/** @typedef {{ version: string, label: string }} NodeLine */
/** A table's row: the target (or target and call) measured, by its key in ByScenario. @typedef {{ key: string, label: string }} Row */

/**
 * The median of the finite values; NaN when there are none.
 * @param {number[]} values
 */
export const median = (values) => {
  const v = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? (v[mid] ?? NaN) : ((v[mid - 1] ?? NaN) + (v[mid] ?? NaN)) / 2;
};
/** A figure in chat.mjs's progress on stderr. @param {number} n */
export const fmt = (n, d = 2) => (Number.isFinite(n) ? n.toFixed(d) : '-');

/** @param {number} n */
const int = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–');
/** @param {number} a @param {number} b */
const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}×` : '–');
/** @param {number} n */
const ms = (n) => (Number.isFinite(n) ? `${n >= 0 ? '+' : '−'}${Math.abs(n).toFixed(2)}` : '–');

/**
 * Medians of one run's rounds: a figure, and a figure added to direct's in the same round.
 * @param {ByScenario} byScenario
 */
function figures(byScenario) {
  /** @param {string} id @param {string} key @returns {Round[]} */
  const rounds = (id, key) => byScenario[id]?.[key] ?? [];
  /** @param {string} id @param {string} key @param {(r: Round) => number} f */
  const med = (id, key, f) => median(rounds(id, key).map(f));
  // Added latency: the median over rounds of (target − direct) in the same round.
  /** @param {string} id @param {string} key @param {(r: Round) => number} f */
  const added = (id, key, f) => {
    const direct = rounds(id, 'direct');
    return median(rounds(id, key).map((r, i) => (direct[i] ? f(r) - f(direct[i]) : NaN)));
  };
  /** @param {string} id @param {string} key @param {(r: Round) => number} f */
  const addedCell = (id, key, f) =>
    key === 'direct' ? (Number.isFinite(med(id, key, f)) ? `(${med(id, key, f).toFixed(2)})` : '–') : ms(added(id, key, f));
  return { rounds, med, added, addedCell };
}

/**
 * A Markdown table: a title, a header, rows of cells; every column but the first and `text` ones right-aligned.
 * @param {string} title
 * @param {string[]} header
 * @param {string[][]} rows
 * @param {string[]} [text] the headers of the columns left-aligned
 */
function markdown(title, header, rows, text = []) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const numeric = header.map((h, i) => i > 0 && !text.includes(h));
  /** @param {string} v @param {number} i */
  const cell = (v, i) => (numeric[i] ? v.padStart(widths[i] ?? 0) : v.padEnd(widths[i] ?? 0));
  return [
    title,
    '',
    `| ${header.map(cell).join(' | ')} |`,
    `| ${widths.map((w, i) => (numeric[i] ? `${'-'.repeat(w - 1)}:` : '-'.repeat(w))).join(' | ')} |`,
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ].join('\n');
}

/**
 * A Node line's table of every target on chat: throughput, CPU, added latency, peak RSS, errors.
 * @param {NodeLine} line
 * @param {Row[]} targets
 * @param {ByScenario} byScenario
 * @param {Record<string, Record<string, number>>} rss each target's peak RSS in MiB, by process name
 */
export function table(line, targets, byScenario, rss) {
  const { med, addedCell } = figures(byScenario);
  const header = [
    'target',
    'plain req/s, 50 conn.',
    '÷ Portkey',
    '÷ yardstick',
    'CPU µs/call',
    'added p50 ms, one at a time',
    'added p99 ms, 300 req/s',
    'streams/s, 50 conn.',
    '÷ Portkey',
    '÷ yardstick',
    'CPU µs/stream',
    'added first chunk p50 ms',
    'peak RSS MiB',
    'errors',
  ];
  const rows = targets.map((t) => {
    const plain = med('plain50', t.key, (r) => r.rps);
    const streams = med('stream50', t.key, (r) => r.rps);
    const errors = Object.values(byScenario).reduce((s, byTarget) => s + (byTarget[t.key] ?? []).reduce((a, r) => a + r.errors, 0), 0);
    const peaks = Object.entries(rss[t.key] ?? {});
    return [
      t.label,
      int(plain),
      ratio(
        plain,
        med('plain50', 'portkey', (r) => r.rps),
      ),
      ratio(
        plain,
        med('plain50', 'yardstick', (r) => r.rps),
      ),
      int(med('plain50', t.key, (r) => r.cpuUsPerRequest)),
      addedCell('plainSeq', t.key, (r) => r.p50),
      addedCell('plain300', t.key, (r) => r.p99),
      int(streams),
      ratio(
        streams,
        med('stream50', 'portkey', (r) => r.rps),
      ),
      ratio(
        streams,
        med('stream50', 'yardstick', (r) => r.rps),
      ),
      int(med('stream50', t.key, (r) => r.cpuUsPerRequest)),
      addedCell('streamSpaced', t.key, (r) => r.firstP50),
      peaks.length ? peaks.map(([n, v]) => `${n ? `${n} ` : ''}${int(v)}`).join(', ') : '–',
      String(errors),
    ];
  });
  return markdown(`### Node ${line.version} (${line.label})`, header, rows, ['peak RSS MiB']);
}

/**
 * A group against chat (Responses, scenarios 5-7; Messages, 8-10): each gateway's chat call and
 * the group's calls, each figure with its ratio to the same gateway's chat call in the same run.
 * @param {NodeLine} line
 * @param {Row[]} entries what the group's scenarios load: direct, and each gateway's chat call
 *   (its own key) and the group's calls (keyed `<gateway's key>:<call>`)
 * @param {ByScenario} byScenario
 * @param {{ title: string, ids: { plain50: string, plainSeq: string, stream50: string } }} group
 */
export function againstTable(line, entries, byScenario, group) {
  const { med, added, addedCell } = figures(byScenario);
  const { plain50, plainSeq, stream50 } = group.ids;
  /** @param {string} id @param {string} key */
  const cpu = (id, key) => med(id, key, (r) => r.cpuUsPerRequest);
  /** @param {Round} r */
  const p50 = (r) => r.p50;
  /** @param {string} id @param {string} key */
  const perProcess = (id, key) => {
    const rs = byScenario[id]?.[key] ?? [];
    const names = Object.keys(rs[0]?.cpuUsPerRequestByProcess ?? {});
    return names.length < 2 ? '' : names.map((n) => `${n} ${int(median(rs.map((r) => r.cpuUsPerRequestByProcess[n] ?? NaN)))}`).join(', ');
  };
  const header = [
    'target, call',
    'plain req/s, 50 conn.',
    '÷ chat',
    'CPU µs/call',
    '÷ chat',
    'by process',
    'added p50 ms, one at a time',
    '÷ chat',
    'streams/s, 50 conn.',
    'CPU µs/stream',
    '÷ chat',
    'errors',
  ];
  const rows = entries.map((e) => {
    const chat = /** @type {string} */ (e.key.split(':')[0]);
    const direct = e.key === 'direct';
    const errors = [plain50, plainSeq, stream50].reduce(
      (s, id) => s + (byScenario[id]?.[e.key] ?? []).reduce((a, r) => a + r.errors, 0),
      0,
    );
    return [
      direct ? 'direct (chat)' : e.label,
      int(med(plain50, e.key, (r) => r.rps)),
      direct
        ? '–'
        : ratio(
            med(plain50, e.key, (r) => r.rps),
            med(plain50, chat, (r) => r.rps),
          ),
      int(cpu(plain50, e.key)),
      direct ? '–' : ratio(cpu(plain50, e.key), cpu(plain50, chat)),
      perProcess(plain50, e.key),
      addedCell(plainSeq, e.key, p50),
      direct ? '–' : ratio(added(plainSeq, e.key, p50), added(plainSeq, chat, p50)),
      int(med(stream50, e.key, (r) => r.rps)),
      int(cpu(stream50, e.key)),
      direct ? '–' : ratio(cpu(stream50, e.key), cpu(stream50, chat)),
      String(errors),
    ];
  });
  return markdown(`### ${group.title} against chat, Node ${line.version} (${line.label})`, header, rows, ['by process']);
}
