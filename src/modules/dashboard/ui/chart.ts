// A uPlot line chart of one series over time, sized to its container (phones included).

import { html } from 'htm/preact';
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';

/** Seconds of history a chart shows. */
const WINDOW_S = 120;

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
      // The last SAMPLES seconds, whatever the count of points (one point would span years otherwise).
      scales: {
        x: {
          time: true,
          range: (_u, _min, max) => [(max ?? Date.now() / 1000) - WINDOW_S, max ?? Date.now() / 1000],
        },
      },
      series: [{}, { label: unit, stroke: '#1d4ed8', width: 2, fill: 'rgba(29, 78, 216, 0.08)' }],
      axes: [
        // UTC clock times, as in the live feed; spaced so that labels never overlap.
        {
          space: 70,
          values: (_u, splits) => splits.map((t) => new Date(t * 1000).toISOString().slice(11, 19)),
        },
        { label: unit, size: 56 },
      ],
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
