/**
 * Evaluations over time as a line chart (Chart.js, only the parts a line over a category axis
 * needs). The chart is made once and its data and colours replaced in place, without animation,
 * so a refresh every few seconds neither flickers nor moves the page.
 */
import { CategoryScale, Chart, Filler, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';
import { useEffect, useRef } from 'react';
import { useThemeColours } from '../../../hooks/theme-colours.js';
import type { TimelinePoint } from '../../../lib/usage-range.js';

Chart.register(LineController, LineElement, PointElement, LinearScale, CategoryScale, Filler, Tooltip);
// The page's own type, not Chart.js's Helvetica.
Chart.defaults.font.family = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";

const COLOURS = ['--accent', '--text-2', '--border', '--surface', '--text'] as const;
type Colours = Record<(typeof COLOURS)[number], string>;

/** `#rrggbb` (how a canvas writes an opaque colour) with an alpha, for the area under the line. */
function translucent(colour: string, alpha: number): string {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour);
  if (hex === null) return colour;
  const [r, g, b] = hex.slice(1).map((part) => Number.parseInt(part, 16));
  return `rgba(${r}, ${g}, ${b}, ${alpha})`;
}

function styleChart(chart: Chart<'line'>, colours: Colours): void {
  const dataset = chart.data.datasets[0];
  if (dataset !== undefined) {
    dataset.borderColor = colours['--accent'];
    dataset.backgroundColor = translucent(colours['--accent'], 0.15);
    dataset.pointBackgroundColor = colours['--accent'];
  }
  const { x, y } = chart.options.scales ?? {};
  for (const scale of [x, y]) {
    if (scale === undefined) continue;
    if (scale.ticks !== undefined) scale.ticks.color = colours['--text-2'];
    if (scale.grid !== undefined) scale.grid.color = colours['--border'];
    if (scale.border !== undefined) scale.border.color = colours['--border'];
  }
  const tooltip = chart.options.plugins?.tooltip;
  if (tooltip !== undefined) {
    tooltip.backgroundColor = colours['--surface'];
    tooltip.titleColor = colours['--text'];
    tooltip.bodyColor = colours['--text'];
    tooltip.borderColor = colours['--border'];
  }
}

function createChart(canvas: HTMLCanvasElement): Chart<'line'> {
  return new Chart(canvas, {
    type: 'line',
    data: { labels: [], datasets: [{ data: [], fill: true, cubicInterpolationMode: 'monotone', borderWidth: 2, pointRadius: 0, pointHoverRadius: 4, pointHitRadius: 10 }] },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      interaction: { mode: 'index', intersect: false },
      plugins: {
        tooltip: {
          displayColors: false,
          borderWidth: 1,
          callbacks: { label: (item) => `${Number(item.raw).toLocaleString()} evaluation${item.raw === 1 ? '' : 's'}` },
        },
      },
      scales: {
        x: { grid: { display: false }, ticks: { maxRotation: 0, autoSkip: true, maxTicksLimit: 7 } },
        y: { beginAtZero: true, suggestedMax: 4, ticks: { precision: 0, maxTicksLimit: 5 } },
      },
    },
  });
}

export default function EvaluationsChart({ points, label }: { points: readonly TimelinePoint[]; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<Chart<'line'>>(null);
  const colours = useThemeColours(COLOURS);

  useEffect(() => {
    if (canvas.current === null) return;
    const made = createChart(canvas.current);
    chart.current = made;
    return () => {
      made.destroy();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    const current = chart.current;
    if (current === null) return;
    current.data.labels = points.map((p) => p.label);
    const dataset = current.data.datasets[0];
    if (dataset !== undefined) dataset.data = points.map((p) => p.count);
    styleChart(current, colours);
    current.update('none');
  }, [points, colours]);

  return <canvas ref={canvas} role="img" aria-label={label} />;
}
