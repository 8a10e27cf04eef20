// The usage chart: one bar a day, drawn as SVG by hand (no chart library, so
// nothing to fetch and nothing that would need inline script or style). The
// figure has a text alternative; the table beside it carries the same numbers.
import { h, s } from "./dom";

export interface Bar {
  label: string;
  value: number;
}

export function barChart(title: string, bars: Bar[], unit: string): HTMLElement {
  const width = 720;
  const height = 220;
  const pad = { top: 16, right: 8, bottom: 36, left: 48 };
  const max = Math.max(1, ...bars.map((b) => b.value));
  const slot = (width - pad.left - pad.right) / Math.max(1, bars.length);
  const plotH = height - pad.top - pad.bottom;
  const total = bars.reduce((n, b) => n + b.value, 0);
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": `${title}: ${total} ${unit} in total`, class: "chart" });
  svg.append(s("title", {}, `${title}: ${total} ${unit} in total`));
  // Axis: zero and the maximum.
  svg.append(
    s("line", { x1: pad.left, x2: width - pad.right, y1: pad.top + plotH, y2: pad.top + plotH, class: "axis" }),
    s("text", { x: pad.left - 6, y: pad.top + plotH, "text-anchor": "end", class: "tick" }, "0"),
    s("text", { x: pad.left - 6, y: pad.top + 10, "text-anchor": "end", class: "tick" }, String(max)),
  );
  bars.forEach((b, i) => {
    const barH = (b.value / max) * plotH;
    const x = pad.left + i * slot + slot * 0.15;
    const rect = s("rect", { x: x.toFixed(1), y: (pad.top + plotH - barH).toFixed(1), width: (slot * 0.7).toFixed(1), height: barH.toFixed(1), class: "bar" });
    rect.append(s("title", {}, `${b.label}: ${b.value} ${unit}`));
    svg.append(rect);
    // Every fifth label, and the last, so dates stay readable.
    if (i % 5 === 0 || i === bars.length - 1)
      svg.append(s("text", { x: (x + slot * 0.35).toFixed(1), y: height - pad.bottom + 16, "text-anchor": "middle", class: "tick" }, b.label.slice(5)));
  });
  return h("figure", {}, svg, h("figcaption", {}, `${title} (${unit} a day)`));
}

/** Horizontal bars, one a row (usage by tool, by key): long labels stay readable. */
export function shareChart(title: string, bars: Bar[], unit: string): HTMLElement {
  const row = 26;
  const width = 720;
  const labelW = 260;
  const height = row * bars.length + 8;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const total = bars.reduce((n, b) => n + b.value, 0);
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": `${title}: ${total} ${unit} in total`, class: "chart" });
  svg.append(s("title", {}, `${title}: ${total} ${unit} in total`));
  bars.forEach((b, i) => {
    const y = 4 + i * row;
    const barW = (b.value / max) * (width - labelW - 80);
    svg.append(
      s("text", { x: labelW - 8, y: y + 16, "text-anchor": "end", class: "tick" }, b.label.length > 40 ? `${b.label.slice(0, 39)}…` : b.label),
      s("rect", { x: labelW, y: y + 3, width: barW.toFixed(1), height: row - 8, class: "bar" }, s("title", {}, `${b.label}: ${b.value} ${unit}`)),
      s("text", { x: (labelW + barW + 6).toFixed(1), y: y + 16, class: "tick" }, String(b.value)),
    );
  });
  return h("figure", {}, svg, h("figcaption", {}, `${title} (${unit})`));
}
