import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
// A small hand-built SVG line chart for benchmark curves (no dependency): x on a log or linear axis,
// one or more series, an optional dashed goal line, axis ticks at the measured x values.
const W = 560;
const H = 300;
const M = { left: 64, right: 150, top: 36, bottom: 44 };
const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd'];

const esc = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const num = (value) => (Math.abs(value) >= 100 ? value.toFixed(0) : Number(value.toPrecision(3)).toString());

/**
 * `series`: [{ label, points: [[x, y], ...] }]; `goal`: { y, label } drawn dashed; `logX`: log10 x axis.
 * Returns the SVG document as a string.
 */
export function lineChart({ title, xLabel, yLabel, series, goal, logX = true }) {
  const xs = [...new Set(series.flatMap((s) => s.points.map(([x]) => x)))].sort((a, b) => a - b);
  const ys = series.flatMap((s) => s.points.map(([, y]) => y));
  // Round ticks: a step of 1, 2 or 5 times a power of ten, about four of them.
  const top = Math.max(...ys, goal?.y ?? 0) * 1.1 || 1;
  const magnitude = 10 ** Math.floor(Math.log10(top / 4));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((candidate) => candidate * 4 >= top) ?? top / 4;
  const ticks = Math.ceil(top / step);
  const yMax = ticks * step;
  const fx = logX ? Math.log10 : (x) => x;
  const [x0, x1] = [fx(xs[0]), fx(xs[xs.length - 1])];
  const px = (x) => M.left + ((fx(x) - x0) / (x1 - x0 || 1)) * (W - M.left - M.right);
  const py = (y) => H - M.bottom - (y / yMax) * (H - M.top - M.bottom);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" ` +
      `font-family="sans-serif" font-size="11">`,
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
    `<text x="${W / 2 - M.right / 2}" y="18" text-anchor="middle" font-size="13">${esc(title)}</text>`,
    `<line x1="${M.left}" y1="${H - M.bottom}" x2="${W - M.right}" y2="${H - M.bottom}" stroke="#333"/>`,
    `<line x1="${M.left}" y1="${M.top}" x2="${M.left}" y2="${H - M.bottom}" stroke="#333"/>`,
    `<text x="${(M.left + W - M.right) / 2}" y="${H - 8}" text-anchor="middle">${esc(xLabel)}</text>`,
    `<text transform="translate(14 ${(M.top + H - M.bottom) / 2}) rotate(-90)" text-anchor="middle">${esc(yLabel)}</text>`,
  ];
  for (const x of xs) {
    parts.push(`<text x="${px(x)}" y="${H - M.bottom + 15}" text-anchor="middle">${x.toLocaleString('en-US')}</text>`);
  }
  for (let i = 0; i <= ticks; i++) {
    const y = step * i;
    parts.push(
      `<line x1="${M.left}" y1="${py(y)}" x2="${W - M.right}" y2="${py(y)}" stroke="#eee"/>`,
      `<text x="${M.left - 6}" y="${py(y) + 4}" text-anchor="end">${num(y)}</text>`,
    );
  }
  if (goal !== undefined) {
    parts.push(
      `<line x1="${M.left}" y1="${py(goal.y)}" x2="${W - M.right}" y2="${py(goal.y)}" stroke="#888" stroke-dasharray="5 4"/>`,
      `<text x="${W - M.right + 6}" y="${py(goal.y) + 4}" fill="#555">${esc(goal.label)}</text>`,
    );
  }
  series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length];
    const path = s.points.map(([x, y]) => `${px(x).toFixed(1)},${py(y).toFixed(1)}`).join(' ');
    parts.push(`<polyline points="${path}" fill="none" stroke="${color}" stroke-width="2"/>`);
    for (const [x, y] of s.points) {
      parts.push(
        `<circle cx="${px(x).toFixed(1)}" cy="${py(y).toFixed(1)}" r="3" fill="${color}"/>`,
        `<text x="${px(x).toFixed(1)}" y="${(py(y) - 7).toFixed(1)}" text-anchor="middle" fill="${color}">${num(y)}</text>`,
      );
    }
    const ly = M.top + 16 + i * 16;
    parts.push(
      `<line x1="${W - M.right + 6}" y1="${ly - 4}" x2="${W - M.right + 22}" y2="${ly - 4}" stroke="${color}" stroke-width="2"/>`,
      `<text x="${W - M.right + 26}" y="${ly}">${esc(s.label)}</text>`,
    );
  });
  parts.push('</svg>', '');
  return parts.join('\n');
}

/**
 * Writes `file`: a chart over categories (`xLabels`, in order, named along the x axis), one line per
 * series: `{ title, xLabels: string[], yLabel, series: [{ name, values: number[] }] }`.
 */
export function writeSvgPlot(file, { title, xLabels, yLabel, series }) {
  const svg = lineChart({
    title,
    xLabel: xLabels.map((label, i) => `${i}: ${label}`).join(', '),
    yLabel,
    logX: false,
    series: series.map((s) => ({ label: s.name, points: s.values.map((value, i) => [i, value]) })),
  });
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, svg);
}
