// A line chart as a small hand-built SVG (no charting library): categories along x, one line per
// series, the y axis from 0 to the largest value. For the curves docs/benchmarks.md shows.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const WIDTH = 640;
const HEIGHT = 360;
const MARGIN = { left: 56, right: 16, top: 36, bottom: 110 };
const COLORS = [
  '#1f77b4',
  '#ff7f0e',
  '#2ca02c',
  '#d62728',
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#7f7f7f',
  '#bcbd22',
  '#17becf',
];

const escape = (text) => String(text).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** Writes `file`: `{ title, xLabels: string[], yLabel, series: [{ name, values: number[] }] }`. */
export function writeSvgPlot(file, { title, xLabels, yLabel, series }) {
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const max = Math.max(...series.flatMap((s) => s.values), 1e-9) * 1.1;
  const x = (i) => MARGIN.left + (xLabels.length === 1 ? plotW / 2 : (i * plotW) / (xLabels.length - 1));
  const y = (v) => MARGIN.top + plotH - (v / max) * plotH;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${WIDTH / 2}" y="20" text-anchor="middle" font-size="13">${escape(title)}</text>`,
    `<line x1="${MARGIN.left}" y1="${MARGIN.top + plotH}" x2="${MARGIN.left + plotW}" y2="${MARGIN.top + plotH}" stroke="black"/>`,
    `<line x1="${MARGIN.left}" y1="${MARGIN.top}" x2="${MARGIN.left}" y2="${MARGIN.top + plotH}" stroke="black"/>`,
    `<text x="14" y="${MARGIN.top + plotH / 2}" transform="rotate(-90 14 ${MARGIN.top + plotH / 2})" text-anchor="middle">${escape(yLabel)}</text>`,
  ];
  for (let t = 0; t <= 4; t++) {
    const v = (max * t) / 4;
    parts.push(
      `<line x1="${MARGIN.left - 4}" y1="${y(v)}" x2="${MARGIN.left + plotW}" y2="${y(v)}" stroke="#ddd"/>`,
      `<text x="${MARGIN.left - 6}" y="${y(v) + 4}" text-anchor="end">${v.toPrecision(2)}</text>`,
    );
  }
  xLabels.forEach((label, i) =>
    parts.push(`<text x="${x(i)}" y="${MARGIN.top + plotH + 16}" text-anchor="middle">${escape(label)}</text>`),
  );
  series.forEach((s, k) => {
    const color = COLORS[k % COLORS.length];
    const points = s.values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
    parts.push(`<polyline points="${points}" fill="none" stroke="${color}" stroke-width="2"/>`);
    const legendY = MARGIN.top + plotH + 34 + Math.floor(k / 2) * 14;
    const legendX = MARGIN.left + (k % 2) * (plotW / 2);
    parts.push(
      `<rect x="${legendX}" y="${legendY - 9}" width="10" height="10" fill="${color}"/>`,
      `<text x="${legendX + 14}" y="${legendY}">${escape(s.name)}</text>`,
    );
  });
  parts.push('</svg>');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${parts.join('\n')}\n`);
}
