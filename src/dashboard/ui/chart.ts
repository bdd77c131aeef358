// A uPlot line chart of one series over time, sized to its container (phones included).

import { html } from 'htm/preact';
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';

export interface Series {
  /** Seconds since the epoch (uPlot's time axis). */
  t: number[];
  v: number[];
}

export function LineChart({ title, unit, data }: { title: string; unit: string; data: Series }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  useEffect(() => {
    const el = box.current;
    if (el === null) return;
    const width = () => Math.max(240, el.clientWidth);
    const opts: uPlot.Options = {
      width: width(),
      height: 180,
      legend: { show: false },
      series: [{}, { label: unit, stroke: '#1d4ed8', width: 2, fill: 'rgba(29, 78, 216, 0.08)' }],
      axes: [{}, { label: unit, size: 56 }],
    };
    const p = new uPlot(opts, [[], []], el);
    plot.current = p;
    const ro = new ResizeObserver(() => p.setSize({ width: width(), height: 180 }));
    ro.observe(el);
    return () => {
      ro.disconnect();
      p.destroy();
    };
  }, [unit]);
  useEffect(() => {
    plot.current?.setData([data.t, data.v]);
  }, [data]);
  const last = data.v[data.v.length - 1];
  return html`<figure class="chart">
    <figcaption>${title}: <strong>${last === undefined ? '–' : `${Math.round(last * 10) / 10} ${unit}`}</strong></figcaption>
    <div ref=${box} role="img" aria-label=${`${title} over the last ${data.t.length} samples`}></div>
  </figure>`;
}
