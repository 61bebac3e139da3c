import { SEVERITIES, type FindingDoc, type Severity } from "../domain/types.js";
import { Chunker } from "./chunker.js";

const COLORS: Record<Severity, string> = {
  critical: "#8b0000",
  high: "#d9480f",
  medium: "#e0a800",
  low: "#2f6fb5",
  info: "#6c757d",
};

const MARGIN = 40;
const ROW_H = 26;
const COLUMNS = [
  { title: "#", width: 30 },
  { title: "Severity", width: 48 },
  { title: "Title", width: 145 },
  { title: "Target / component", width: 125 },
  { title: "Status", width: 58 },
  { title: "CVSS", width: 30 },
  { title: "CVE", width: 79 },
] as const;

/** The standard PDF fonts cover Latin-1 only; anything else would print as garbage. */
const latin1 = (s: string) => s.replace(/[^\n\x20-\x7e\xa0-\xff]/g, "?");

export interface PdfSummary {
  total: number;
  bySeverity: Record<Severity, number>;
  generatedAt: Date;
  filters: string;
}

/**
 * A readable report: title, summary with a severity bar chart, then a table of findings that
 * continues over as many A4 pages as needed (about 27 rows a page). pdfkit writes each page
 * out when the next one starts, and this generator hands the bytes on as they come, so memory
 * stays flat whatever the number of findings.
 */
export async function* pdfExport(rows: AsyncIterable<FindingDoc>, summary: PdfSummary): AsyncGenerator<Buffer> {
  // Imported on the first PDF export, not at start: pdfkit with its fonts is ~10 MiB an idle
  // findings process would hold for nothing (docs/decisions.md, "Compiled deployables").
  const { default: PDFDocument } = await import("pdfkit");
  const doc = new PDFDocument({ size: "A4", margin: MARGIN, autoFirstPage: true, info: { Title: "Findings report", Creator: "vulnscan" } });
  const chunker = new Chunker();
  const ready: Buffer[] = [];
  doc.on("data", (b: Buffer) => ready.push(...chunker.push(b)));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on("end", () => resolve());
    doc.on("error", reject);
  });
  let pageNo = 1;
  const pageW = doc.page.width;
  const pageH = doc.page.height;
  const footer = () => {
    doc
      .fontSize(7)
      .fillColor("#888888")
      .text(`vulnscan findings report - page ${pageNo}`, MARGIN, pageH - MARGIN + 10, { lineBreak: false });
  };

  // Title and summary.
  doc.fillColor("#111111").fontSize(20).text("Findings report", MARGIN, MARGIN);
  doc
    .moveDown(0.3)
    .fontSize(9)
    .fillColor("#555555")
    .text(`Generated ${summary.generatedAt.toISOString()}   Filters: ${latin1(summary.filters || "none")}`);
  doc.moveDown(0.8).fontSize(13).fillColor("#111111").text("Summary");
  doc
    .moveDown(0.3)
    .fontSize(10)
    .text(`${summary.total} finding${summary.total === 1 ? "" : "s"} in this export.`);

  // Severity bar chart: one horizontal bar per severity, scaled to the largest count.
  const chartTop = doc.y + 10;
  const labelW = 60;
  const barMaxW = pageW - 2 * MARGIN - labelW - 50;
  const max = Math.max(1, ...SEVERITIES.map((s) => summary.bySeverity[s]));
  SEVERITIES.forEach((s, i) => {
    const y = chartTop + i * 20;
    const n = summary.bySeverity[s];
    doc
      .fontSize(9)
      .fillColor("#111111")
      .text(s, MARGIN, y + 3, { width: labelW, lineBreak: false });
    const w = n === 0 ? 0 : Math.max(2, (n / max) * barMaxW);
    if (w > 0) doc.rect(MARGIN + labelW, y, w, 14).fill(COLORS[s]);
    doc.fillColor("#111111").text(String(n), MARGIN + labelW + w + 6, y + 3, { lineBreak: false });
  });
  doc
    .moveTo(MARGIN + labelW, chartTop - 3)
    .lineTo(MARGIN + labelW, chartTop + SEVERITIES.length * 20)
    .strokeColor("#999999")
    .stroke();
  let y = chartTop + SEVERITIES.length * 20 + 20;

  const header = () => {
    let x = MARGIN;
    doc.rect(MARGIN, y, pageW - 2 * MARGIN, 16).fill("#222222");
    doc.fontSize(8).fillColor("#ffffff");
    for (const c of COLUMNS) {
      doc.text(c.title, x + 3, y + 4, { width: c.width - 6, lineBreak: false });
      x += c.width;
    }
    y += 16;
  };
  doc.fontSize(13).fillColor("#111111").text("Findings", MARGIN, y);
  y = doc.y + 4;
  header();

  let n = 0;
  for await (const f of rows) {
    if (y + ROW_H > pageH - MARGIN) {
      footer();
      doc.addPage();
      pageNo++;
      y = MARGIN;
      header();
    }
    n++;
    if (n % 2 === 0) doc.rect(MARGIN, y, pageW - 2 * MARGIN, ROW_H).fill("#f2f2f2");
    const cells = [
      String(n),
      f.severity,
      latin1(f.title),
      latin1(`${f.target}\n${f.affected_component}`),
      f.status.replace("_", " "),
      f.cvss_score.toFixed(1),
      latin1(f.cve_ids.slice(0, 2).join("\n")),
    ];
    let x = MARGIN;
    COLUMNS.forEach((c, i) => {
      doc
        .fontSize(7.5)
        .fillColor(i === 1 ? COLORS[f.severity] : "#111111")
        .text(cells[i] ?? "", x + 3, y + 3, { width: c.width - 6, height: ROW_H - 4, ellipsis: true });
      x += c.width;
    });
    y += ROW_H;
    if (ready.length) yield* ready.splice(0);
  }
  if (n === 0)
    doc
      .fontSize(9)
      .fillColor("#555555")
      .text("No findings match the filters.", MARGIN, y + 6);
  footer();
  doc.end();
  await ended;
  yield* ready.splice(0);
  yield* chunker.flush();
}
