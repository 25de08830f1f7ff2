import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatUsd } from './format';

const COLORS = ['#2563eb', '#f59e0b', '#10b981', '#ef4444', '#8b5cf6', '#06b6d4', '#ec4899', '#84cc16', '#64748b', '#f97316'];

export interface StackedSeries {
  label: string;
  /** One value per day, in the order of `days`. */
  values: number[];
}

/** Days `YYYY-MM-DD` as Unix seconds at 00:00 UTC. */
function dayStart(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / 1000;
}

/**
 * Spend per day as stacked bars, one colour per series (model group). uPlot draws series in
 * order, so the stacks are given tallest first and each lower one is painted over it; the legend
 * shows each group's own amount for the day under the cursor, not the running sum.
 */
export function StackedBars(props: { days: string[]; series: StackedSeries[]; testid: string; height?: number }) {
  const container = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | undefined>(undefined);
  const shape = useRef('');

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const { days, series } = props;
    const x = days.map(dayStart);
    const sums: number[][] = [];
    let running = days.map(() => 0);
    for (const one of series) {
      running = running.map((total, i) => total + (one.values[i] ?? 0));
      sums.push(running);
    }
    // Tallest stack first.
    const order = series.map((_, i) => series.length - 1 - i);
    const data: uPlot.AlignedData = [x, ...order.map((i) => sums[i] ?? [])];
    const key = JSON.stringify([days.length, series.map((s) => s.label)]);
    if (plot.current && shape.current === key) {
      plot.current.setData(data);
      return;
    }
    plot.current?.destroy();
    shape.current = key;
    const bars = uPlot.paths.bars?.({ size: [0.7, 48], align: 0 });
    const options: uPlot.Options = {
      width: Math.max(320, element.clientWidth),
      height: props.height ?? 280,
      cursor: { points: { show: false } },
      scales: { x: { time: true, range: (_u, min, max) => [min - 43_200, max + 43_200] } },
      axes: [{}, { values: (_u, ticks) => ticks.map((tick) => formatUsd(tick)), size: 90 }],
      series: [
        { label: 'Day', value: (_u, value) => (value === null ? '—' : new Date(value * 1000).toISOString().slice(0, 10)) },
        ...order.map((i) => {
          const color = COLORS[i % COLORS.length] ?? '#64748b';
          const one: uPlot.Series = {
            label: series[i]?.label ?? '',
            fill: color,
            stroke: color,
            width: 0,
            points: { show: false },
            value: (_u, _value, _series, day) => (day === null ? '—' : formatUsd(series[i]?.values[day] ?? 0)),
          };
          if (bars) one.paths = bars;
          return one;
        }),
      ],
    };
    plot.current = new uPlot(options, data, element);
  }, [props.days, props.series]);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const observer = new ResizeObserver(() => {
      plot.current?.setSize({ width: Math.max(320, element.clientWidth), height: props.height ?? 280 });
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      plot.current?.destroy();
      plot.current = undefined;
    };
  }, [props.height]);

  return <div class="chart" ref={container} data-testid={props.testid} />;
}
