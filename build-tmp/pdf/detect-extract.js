/**
 * What pdf.js sees on a page, in the contract's display geometry (points, origin top-left of the page as
 * displayed after /Rotate, y downward): words of the text layer, rules and boxes drawn by the
 * content stream, AcroForm widgets, and how much of the page images cover. Also renders a page to a bitmap
 * for OCR. Runs only inside the detection child process (see detect-child.ts).
 */
import path from 'node:path';
import { createRequire } from 'node:module';
import { AnnotationMode, OPS, Util, getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { isFillToken } from './detect-lexicon.js';
const PDFJS_DIR = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
const asset = (dir) => `${path.join(PDFJS_DIR, dir)}${path.sep}`;
/** Images above this many pixels are not decoded (a scan of A4 at 600 dpi is 35 million). */
const MAX_IMAGE_PIXELS = 40_000_000;
const MIN_RULE = 24;
const MAX_RULE_THICKNESS = 4;
export async function openPdf(bytes) {
    const task = getDocument({
        // pdf.js detaches what it is given (versions.md, pitfall 8).
        data: new Uint8Array(bytes),
        isEvalSupported: false,
        standardFontDataUrl: asset('standard_fonts'),
        cMapUrl: asset('cmaps'),
        cMapPacked: true,
        wasmUrl: asset('wasm'),
        iccUrl: asset('iccs'),
        useSystemFonts: false,
        disableFontFace: true,
        enableXfa: false,
        stopAtErrors: false,
        maxImageSize: MAX_IMAGE_PIXELS,
        verbosity: 0,
    });
    return task.promise;
}
export async function scanPage(page) {
    const viewport = page.getViewport({ scale: 1 });
    const vt = viewport.transform;
    // A damaged part of a page (its text, drawing or form fields) leaves the other parts usable.
    const [text, ops, annotations] = await Promise.all([
        page.getTextContent({ includeMarkedContent: false }).catch(() => ({ items: [] })),
        page.getOperatorList({ intent: 'display', annotationMode: AnnotationMode.DISABLE }).catch(() => ({ fnArray: [], argsArray: [] })),
        page.getAnnotations({ intent: 'display' }).catch(() => []),
    ]);
    const words = [];
    for (const item of text.items) {
        if (!('str' in item) || !item.str.trim())
            continue;
        const m = Util.transform(vt, item.transform);
        const size = Math.hypot(m[2], m[3]);
        // Only text that reads left to right across the displayed page: turned text is not a label.
        if (!(m[0] > 0 && Math.abs(m[1]) <= 0.05 * m[0] && size >= 3))
            continue;
        words.push(...splitItem(item.str, m[4], m[5], item.width, size, item.dir === 'rtl'));
    }
    const graphics = readGraphics(ops.fnArray, ops.argsArray, vt, viewport.width * viewport.height);
    const widgets = [];
    for (const a of annotations) {
        if (a.annotationType !== 20 || a.subtype !== 'Widget')
            continue;
        const flags = Number(a.annotationFlags ?? 0);
        // Hidden (2) or never shown (32), or a field nobody may fill.
        if (flags & 2 || flags & 32 || a.readOnly === true)
            continue;
        const kind = a.fieldType === 'Sig' ? 'signature' : a.fieldType === 'Tx' ? 'text' : undefined;
        if (!kind || !Array.isArray(a.rect))
            continue;
        const [x0, y0, x1, y1] = viewport.convertToViewportRectangle(a.rect);
        const box = normalize(x0 ?? 0, y0 ?? 0, x1 ?? 0, y1 ?? 0);
        if (box.x1 - box.x0 < 4 || box.y1 - box.y0 < 4)
            continue;
        const label = typeof a.alternativeText === 'string' ? a.alternativeText : undefined;
        widgets.push({ kind, name: String(a.fieldName ?? ''), ...(label ? { label } : {}), box });
    }
    return {
        width: viewport.width,
        height: viewport.height,
        rotation: viewport.rotation,
        words,
        segments: graphics.segments,
        verticals: graphics.verticals,
        boxes: graphics.boxes,
        widgets,
        imageCover: graphics.imageCover,
    };
}
// Approximate advance widths (thousandths of an em, Helvetica-like): text items come whole, and the
// position of a word or of a run of underscores inside one is estimated from them.
const NARROW = new Set([...' ilj.,:;\'!|`´fIt()[]/\\-']);
const WIDE = new Set([...'mwMW@%']);
function advance(ch) {
    if (NARROW.has(ch))
        return ch === 'f' || ch === 't' || ch === '-' || ch === '(' || ch === ')' ? 333 : 278;
    if (WIDE.has(ch))
        return 833;
    if (ch === '_')
        return 556;
    if (/[A-Z]/.test(ch))
        return 667;
    return 556;
}
/** One text item as words (and runs of blanks to fill, as their own words), each with its box. */
export function splitItem(str, x, baseline, width, size, rtl) {
    const chars = [...str];
    const total = chars.reduce((sum, ch) => sum + advance(ch), 0) || 1;
    const scale = width / total;
    const parts = [];
    let offset = 0;
    let current;
    for (const ch of chars) {
        const w = advance(ch) * scale;
        const blank = /\s/.test(ch);
        const fillChar = /[_.…\-‒—–]/.test(ch);
        if (blank) {
            if (current)
                parts.push(current);
            current = undefined;
        }
        else if (current && (current.fill === fillChar || (!fillChar && !current.fill))) {
            current.text += ch;
            current.end = offset + w;
        }
        else {
            if (current)
                parts.push(current);
            current = { text: ch, start: offset, end: offset + w, fill: fillChar };
        }
        offset += w;
    }
    if (current)
        parts.push(current);
    // Punctuation runs that are not blanks ("a." or ":") go back onto the word they follow.
    const merged = [];
    for (const p of parts) {
        const last = merged[merged.length - 1];
        if (last && /^[_.…\-‒—–]+$/.test(p.text) && !isFillToken(p.text) && last.end >= p.start - 0.01) {
            last.text += p.text;
            last.end = p.end;
        }
        else {
            merged.push({ ...p });
        }
    }
    return merged.map((p) => {
        const x0 = rtl ? x + width - p.end : x + p.start;
        const x1 = rtl ? x + width - p.start : x + p.end;
        return { text: p.text, box: { x0, y0: baseline - 0.78 * size, x1, y1: baseline + 0.22 * size }, baseline, size, confidence: 1 };
    });
}
const STROKES = new Set([OPS.stroke, OPS.closeStroke, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);
const FILLS = new Set([OPS.fill, OPS.eoFill]);
const IMAGES = new Set([
    OPS.paintImageXObject,
    OPS.paintInlineImageXObject,
    OPS.paintImageMaskXObject,
    OPS.paintImageXObjectRepeat,
    OPS.paintImageMaskXObjectRepeat,
    OPS.paintSolidColorImageMask,
    OPS.paintInlineImageXObjectGroup,
    OPS.paintImageMaskXObjectGroup,
]);
// pdf.js path buffer codes (DrawOPS).
const MOVE = 0;
const LINE = 1;
const CURVE = 2;
const QUAD = 3;
const CLOSE = 4;
/** Rules, boxes and image coverage from the operator list, following the transformation matrix. */
export function readGraphics(fnArray, argsArray, vt, pageArea) {
    let ctm = [1, 0, 0, 1, 0, 0];
    let lineWidth = 1;
    const stack = [];
    const horizontal = [];
    const vertical = [];
    const boxes = [];
    let imageArea = 0;
    for (let i = 0; i < fnArray.length; i++) {
        const fn = fnArray[i];
        const args = argsArray[i];
        if (fn === OPS.save)
            stack.push([ctm, lineWidth]);
        else if (fn === OPS.restore)
            [ctm, lineWidth] = stack.pop() ?? [ctm, lineWidth];
        else if (fn === OPS.transform && args)
            ctm = Util.transform(ctm, args);
        else if (fn === OPS.setLineWidth && args)
            lineWidth = Number(args[0]) || 0;
        else if (fn === OPS.paintFormXObjectBegin) {
            stack.push([ctm, lineWidth]);
            const matrix = args?.[0];
            if (matrix && matrix.length === 6)
                ctm = Util.transform(ctm, Array.from(matrix));
        }
        else if (fn === OPS.paintFormXObjectEnd)
            [ctm, lineWidth] = stack.pop() ?? [ctm, lineWidth];
        else if (fn !== undefined && IMAGES.has(fn)) {
            const m = Util.transform(vt, ctm);
            imageArea += Math.abs(m[0] * m[3] - m[1] * m[2]);
        }
        else if (fn === OPS.constructPath && args) {
            const paint = Number(args[0]);
            const buffer = args[1]?.[0];
            if (!buffer || !(STROKES.has(paint) || FILLS.has(paint)))
                continue;
            const m = Util.transform(vt, ctm);
            const width = lineWidth * Math.sqrt(Math.abs(m[0] * m[3] - m[1] * m[2]));
            for (const sub of subpaths(buffer, m)) {
                const rect = asRect(sub);
                if (rect) {
                    const w = rect.x1 - rect.x0;
                    const h = rect.y1 - rect.y0;
                    if (h <= MAX_RULE_THICKNESS && w >= MIN_RULE)
                        horizontal.push({ x0: rect.x0, x1: rect.x1, y: (rect.y0 + rect.y1) / 2 });
                    else if (w <= MAX_RULE_THICKNESS && h >= 8)
                        vertical.push({ x: (rect.x0 + rect.x1) / 2, y0: rect.y0, y1: rect.y1 });
                    else if (STROKES.has(paint) && w >= 12 && h >= 10 && w * h < 0.6 * pageArea)
                        boxes.push(rect);
                    continue;
                }
                if (!STROKES.has(paint) || width > MAX_RULE_THICKNESS)
                    continue;
                for (let k = 1; k < sub.length; k++) {
                    const a = sub[k - 1];
                    const b = sub[k];
                    if (Math.abs(a[1] - b[1]) < 0.5 && Math.abs(a[0] - b[0]) >= MIN_RULE) {
                        horizontal.push({ x0: Math.min(a[0], b[0]), x1: Math.max(a[0], b[0]), y: (a[1] + b[1]) / 2 });
                    }
                    else if (Math.abs(a[0] - b[0]) < 0.5 && Math.abs(a[1] - b[1]) >= 8) {
                        vertical.push({ x: (a[0] + b[0]) / 2, y0: Math.min(a[1], b[1]), y1: Math.max(a[1], b[1]) });
                    }
                }
            }
        }
    }
    return {
        segments: distinct(horizontal),
        verticals: distinctVerticals(vertical),
        boxes: distinctRects(boxes),
        imageCover: Math.min(1, imageArea / (pageArea || 1)),
    };
}
/** The straight subpaths of a pdf.js path buffer in display space; curved ones are left out. */
function subpaths(buffer, m) {
    const out = [];
    let current = [];
    let curved = false;
    const at = (x, y) => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
    const flush = () => {
        if (current.length >= 2 && !curved)
            out.push(current);
        current = [];
        curved = false;
    };
    for (let k = 0; k < buffer.length;) {
        const op = buffer[k++];
        if (op === MOVE) {
            flush();
            current.push(at(buffer[k], buffer[k + 1]));
            k += 2;
        }
        else if (op === LINE) {
            current.push(at(buffer[k], buffer[k + 1]));
            k += 2;
        }
        else if (op === CURVE) {
            curved = true;
            k += 6;
        }
        else if (op === QUAD) {
            curved = true;
            k += 4;
        }
        else if (op === CLOSE) {
            const first = current[0];
            if (first)
                current.push([first[0], first[1]]);
            flush();
        }
        else {
            break;
        }
    }
    flush();
    return out;
}
/** An axis-aligned rectangle drawn as one closed subpath, or undefined. */
function asRect(points) {
    const pts = points.length >= 2 && same(points[0], points[points.length - 1]) ? points.slice(0, -1) : points;
    if (pts.length !== 4)
        return undefined;
    for (let k = 0; k < 4; k++) {
        const a = pts[k];
        const b = pts[(k + 1) % 4];
        if (Math.abs(a[0] - b[0]) > 0.5 && Math.abs(a[1] - b[1]) > 0.5)
            return undefined;
    }
    const xs = pts.map((p) => p[0]);
    const ys = pts.map((p) => p[1]);
    return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}
const same = (a, b) => Math.abs(a[0] - b[0]) < 0.01 && Math.abs(a[1] - b[1]) < 0.01;
function distinct(segments) {
    const out = [];
    for (const s of segments) {
        if (out.some((o) => Math.abs(o.y - s.y) < 1 && Math.abs(o.x0 - s.x0) < 1 && Math.abs(o.x1 - s.x1) < 1))
            continue;
        out.push(s);
    }
    return out;
}
function distinctVerticals(rules) {
    const out = [];
    for (const v of rules) {
        if (out.some((o) => Math.abs(o.x - v.x) < 1 && Math.abs(o.y0 - v.y0) < 1 && Math.abs(o.y1 - v.y1) < 1))
            continue;
        out.push(v);
    }
    return out;
}
function distinctRects(rects) {
    const out = [];
    for (const r of rects) {
        if (out.some((o) => Math.abs(o.x0 - r.x0) < 1 && Math.abs(o.y0 - r.y0) < 1 && Math.abs(o.x1 - r.x1) < 1 && Math.abs(o.y1 - r.y1) < 1))
            continue;
        out.push(r);
    }
    return out;
}
function normalize(x0, y0, x1, y1) {
    return { x0: Math.min(x0, x1), y0: Math.min(y0, y1), x1: Math.max(x0, x1), y1: Math.max(y0, y1) };
}
/** The page as displayed, at `dpi` (fewer if the bitmap would exceed `maxPixels`). */
export async function renderPage(pdf, page, dpi, maxPixels) {
    const base = page.getViewport({ scale: 1 });
    let scale = dpi / 72;
    const pixels = base.width * base.height * scale * scale;
    if (pixels > maxPixels)
        scale *= Math.sqrt(maxPixels / pixels);
    const viewport = page.getViewport({ scale });
    const width = Math.max(1, Math.floor(viewport.width));
    const height = Math.max(1, Math.floor(viewport.height));
    const factory = pdf.canvasFactory;
    const target = factory.create(width, height);
    try {
        const params = { canvas: target.canvas, viewport, annotationMode: AnnotationMode.ENABLE };
        await page.render(params).promise;
        const png = await target.canvas.encode('png');
        return { png, pixels: target.context.getImageData(0, 0, width, height).data, width, height, scale };
    }
    finally {
        factory.destroy(target);
    }
}
//# sourceMappingURL=detect-extract.js.map