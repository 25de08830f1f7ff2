import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { StackedSeries } from './chart';

type ChartProps = { days: string[]; series: StackedSeries[]; testid: string; height?: number };

/** uPlot is most of the script's weight and only two views draw a chart: it loads with the first of them. */
let loaded: Promise<ComponentType<ChartProps>> | undefined;

export function StackedBars(props: ChartProps) {
  const [Chart, setChart] = useState<ComponentType<ChartProps> | undefined>();
  useEffect(() => {
    loaded ??= import('./chart').then((module) => module.StackedBars);
    let live = true;
    loaded.then((component) => {
      if (live) setChart(() => component);
    });
    return () => {
      live = false;
    };
  }, []);
  return Chart ? <Chart {...props} /> : <div class="chart" data-testid={props.testid} aria-busy="true" />;
}
