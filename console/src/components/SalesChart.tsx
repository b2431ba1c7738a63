import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { formatAmount } from '../format/formatAmount.js';
import { formatBusinessDate } from '../format/formatDate.js';

export interface ChartSeries {
  readonly label: string;
  /** One decimal string per date, or null where the series has no sale that day. */
  readonly values: readonly (string | null)[];
}

interface SalesChartProps {
  readonly currency: string;
  readonly dates: readonly string[];
  readonly series: readonly ChartSeries[];
}

const palette = ['#1f6feb', '#d1242f', '#1a7f37', '#9a6700', '#8250df', '#bf3989', '#0a7c86', '#6e7781'];

/**
 * Daily net sales of one currency, one line per partner or store. The drawing converts amounts to
 * floating point because pixels need numbers; every figure shown as text (legend, table) stays the
 * exact decimal string.
 */
export function SalesChart({ currency, dates, series }: SalesChartProps) {
  const holder = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = holder.current;
    if (!element) return undefined;
    const xs = dates.map((date) => Date.parse(`${date}T00:00:00Z`) / 1000);
    const data: uPlot.AlignedData = [xs, ...series.map((s) => s.values.map((v) => (v === null ? null : Number(v))))];
    const decimalAt = (seriesIndex: number, index: number): string | null => series[seriesIndex - 1]?.values[index] ?? null;
    const plot = new uPlot(
      {
        width: Math.max(280, element.clientWidth),
        height: 260,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        scales: { x: { time: true } },
        axes: [
          {
            values: (_u, ticks) =>
              ticks.map((ts) => formatBusinessDate(new Date(ts * 1000).toISOString().slice(0, 10), undefined, 'short')),
          },
          { size: 80, values: (_u, ticks) => ticks.map((tick) => new Intl.NumberFormat(undefined, { notation: 'compact' }).format(tick)) },
        ],
        series: [
          {
            label: 'Date',
            value: (_u, ts) => (!Number.isFinite(ts) ? '—' : formatBusinessDate(new Date(ts * 1000).toISOString().slice(0, 10))),
          },
          ...series.map((s, i) => ({
            label: s.label,
            stroke: palette[i % palette.length] ?? '#1f6feb',
            width: 2,
            points: { show: true },
            value: (_u: uPlot, _v: number | null, seriesIndex: number, index: number | null) => {
              const decimal = index === null ? null : decimalAt(seriesIndex, index);
              return decimal === null ? '—' : formatAmount(decimal, currency);
            },
          })),
        ],
      },
      data,
      element,
    );
    const resize = new ResizeObserver(() => {
      plot.setSize({ width: Math.max(280, element.clientWidth), height: 260 });
    });
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [currency, dates, series]);

  return <div class="chart" ref={holder} role="img" aria-label={`Daily net sales in ${currency}; the table below lists every figure.`} />;
}
