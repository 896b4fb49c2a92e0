/**
 * From what a page shows to where its fields go. Pure: the input is one page in display coordinates (PDF
 * points, origin top-left, y downward, after /Rotate) with its words, horizontal rules, boxes and form
 * widgets, whether they came from the text layer or from OCR; the output is field suggestions.
 *
 * A label from the lexicon becomes a field when geometry says where the blank is (`label_with_geometry`:
 * a run of underscores or dots after it, a drawn line beside, under or over it, a box beside or around
 * it) or, failing that, when there is room to write beside or below it (`label_with_whitespace`).
 * AcroForm widgets are fields already (`acroform`). One spot gets one suggestion.
 */
import { NOT_A_FIELD, STOPWORDS, fieldFromName, isArabic, isFillToken, matchLabels, partyAt, roleFromName, splitWord, } from './detect-lexicon.js';
/** Height of a field standing on a line, and the width taken when nothing bounds it. */
export const FIELD_HEIGHT = { signature: 40, initials: 30, date: 20, text: 20 };
export const FIELD_WIDTH = { signature: 180, initials: 60, date: 110, text: 160 };
const MIN_BESIDE = { signature: 100, initials: 36, date: 70, text: 80 };
const MAX_LABEL_SIZE = 15;
const ROLE_SEARCH = 160;
export function suggestFields(page) {
    const out = page.widgets.map((w) => fromWidget(page, w));
    const geo = sortRules(page);
    const lines = buildLines(page.words);
    const labels = findLabels(lines);
    const used = new Set();
    const claim = (label, type, rect, reason, base) => {
        label.done = true;
        const s = suggestion(page, label, type, rect, reason, base);
        if (s)
            out.push(s);
    };
    // A label next to a form widget describes that widget.
    for (const label of labels)
        if (page.widgets.some((w) => widgetNear(label, w.box)))
            label.done = true;
    // Geometry on the label's own line, in its table cell, around it or right above it.
    for (const label of labels) {
        if (label.done)
            continue;
        const type = label.entry.type;
        const fill = fillAfter(label);
        if (fill) {
            used.add(fill.segment);
            claim(label, type, standOn(type, fill.x0, fill.x1, fill.y, label, lines), 'label_with_geometry', 0.9);
            continue;
        }
        const cell = cellAt(geo, (label.box.x0 + label.box.x1) / 2, (label.box.y0 + label.box.y1) / 2);
        if (cell) {
            // In a table the cell decides: a blank beside or below it, or nothing.
            label.done = true;
            const blank = cellBlank(label, cell, geo, page);
            if (blank)
                claim(label, type, blank, 'label_with_geometry', 0.92);
            continue;
        }
        const beside = segmentBeside(label, geo.free, used);
        if (beside) {
            used.add(beside);
            claim(label, type, standOn(type, beside.x0, beside.x1, beside.y, label, lines), 'label_with_geometry', 0.92);
            continue;
        }
        const box = boxBeside(label, geo.boxes) ?? boxAround(label, geo.boxes);
        if (box) {
            claim(label, type, box, 'label_with_geometry', 0.93);
            continue;
        }
    }
    // A bare "By" only counts with a blank on its own line.
    for (const label of labels)
        if (label.entry.leading)
            label.done = true;
    for (const label of labels) {
        if (label.done)
            continue;
        const over = segmentOver(label, geo.free, used);
        if (over) {
            used.add(over);
            claim(label, label.entry.type, standOn(label.entry.type, over.x0, over.x1, over.y, label, lines), 'label_with_geometry', 0.88);
        }
    }
    // Geometry below the label.
    for (const label of labels) {
        if (label.done)
            continue;
        const below = geometryBelow(label, geo, lines, used);
        if (!below)
            continue;
        if ('y' in below) {
            used.add(below);
            const rect = standOn(label.entry.type, below.x0, below.x1, below.y, label, lines);
            rect.y0 = Math.max(rect.y0, label.box.y1 + 2);
            claim(label, label.entry.type, rect, 'label_with_geometry', 0.87);
        }
        else {
            claim(label, label.entry.type, below, 'label_with_geometry', 0.9);
        }
    }
    // Room to write.
    for (const label of labels) {
        if (label.done || !label.bare || label.entry.leading)
            continue;
        const order = label.colon ? [besideSpace, belowSpace] : [belowSpace, besideSpace];
        for (const find of order) {
            const rect = find(label, page, lines, geo);
            if (rect) {
                claim(label, label.entry.type, rect, 'label_with_whitespace', label.colon ? 0.76 : 0.73);
                break;
            }
        }
    }
    return dedupe(out);
}
// ------------------------------------------------------------------------------------------ widgets
function fromWidget(page, w) {
    const role = roleFromName(w.name) ?? (w.label ? roleFromName(w.label) : undefined);
    const base = { page: page.page, ...xywh(clip(w.box, page)), reason: 'acroform', ...(role ? { roleHint: role } : {}) };
    if (w.kind === 'signature')
        return { ...base, type: 'signature', confidence: 0.98 };
    const meaning = fieldFromName(w.name) ?? (w.label ? fieldFromName(w.label) : null);
    if (!meaning)
        return { ...base, type: 'text', confidence: 0.88 };
    // Only text fields take a field_key other than sign_date (which is for date fields).
    const type = meaning.type === 'signature' || meaning.type === 'date' ? meaning.type : 'text';
    return { ...base, type, confidence: meaning.fieldKey ? 0.95 : 0.9, ...(meaning.fieldKey ? { fieldKey: meaning.fieldKey } : {}) };
}
function widgetNear(label, box) {
    const { reach, line } = label;
    if (contains(box, label.box, 2))
        return true;
    const sameRow = overlap1(box.y0, box.y1, reach.y0, reach.y1) > 0.5 * (reach.y1 - reach.y0);
    const gap = line.rtl ? reach.x0 - box.x1 : box.x0 - reach.x1;
    if (sameRow && gap >= -2 && gap <= 150)
        return true;
    const below = box.y0 - label.box.y1;
    return below >= -2 && below <= 3 * line.size + 16 && overlap1(box.x0, box.x1, label.box.x0 - 10, label.box.x1 + 10) > 0;
}
// ------------------------------------------------------------------------------------------ lines
/** Words on one baseline that are close together, in reading order. Columns stay apart. */
export function buildLines(words) {
    const sorted = [...words].filter((w) => w.text.trim()).sort((a, b) => a.baseline - b.baseline || a.box.x0 - b.box.x0);
    const rows = [];
    for (const w of sorted) {
        const row = rows.find((r) => {
            const first = r[0];
            return Math.abs(first.baseline - w.baseline) <= 0.35 * Math.max(first.size, w.size);
        });
        if (row)
            row.push(w);
        else
            rows.push([w]);
    }
    const lines = [];
    for (const row of rows) {
        row.sort((a, b) => a.box.x0 - b.box.x0);
        let run = [];
        for (const w of row) {
            const last = run[run.length - 1];
            if (last && w.box.x0 - last.box.x1 > Math.max(2.2 * Math.max(last.size, w.size), 16)) {
                lines.push(makeLine(run));
                run = [];
            }
            run.push(w);
        }
        if (run.length)
            lines.push(makeLine(run));
    }
    return lines;
}
function makeLine(run) {
    const arabic = run.filter((w) => isArabic(w.text)).length;
    const rtl = arabic * 2 > run.filter((w) => !isFillToken(w.text)).length;
    const words = rtl ? [...run].reverse() : run;
    const tokens = [];
    const tokenWord = [];
    words.forEach((w, i) => {
        const parts = isFillToken(w.text) ? ['\0'] : splitWord(w.text);
        for (const p of parts) {
            tokens.push(p);
            tokenWord.push(i);
        }
    });
    const sizes = words.map((w) => w.size).sort((a, b) => a - b);
    return {
        words,
        tokens,
        tokenWord,
        rtl,
        size: sizes[Math.floor(sizes.length / 2)] ?? 10,
        baseline: Math.max(...words.map((w) => w.baseline)),
        box: union(words.map((w) => w.box)),
    };
}
// ------------------------------------------------------------------------------------------ labels
function findLabels(lines) {
    const labels = [];
    for (const line of lines) {
        if (line.size > MAX_LABEL_SIZE)
            continue;
        // "Company A" names a party; "Company" alone asks for one.
        const partyTokens = new Set();
        for (let k = 0; k < line.tokens.length; k++) {
            const party = partyAt(line.tokens, k);
            if (party && party.length > 1)
                for (let j = 0; j < party.length; j++)
                    partyTokens.add(k + j);
        }
        const matches = matchLabels(line.tokens).filter((m) => ![...Array(m.end - m.start + 1).keys()].some((j) => partyTokens.has(m.start + j)));
        if (matches.length === 0)
            continue;
        if (line.tokens.some((t) => NOT_A_FIELD.has(t)))
            continue;
        const labelTokens = new Set();
        for (const m of matches)
            for (let k = m.start; k <= m.end; k++)
                labelTokens.add(k);
        const extra = new Set();
        for (let k = 0; k < line.tokens.length; k++) {
            const party = partyAt(line.tokens, k);
            if (party)
                for (let j = 0; j < party.length; j++)
                    extra.add(k + j);
        }
        // Whatever is neither label, party, filler nor blank: a filled-in value or a sentence.
        const residue = line.tokens.filter((t, k) => t !== '\0' && !labelTokens.has(k) && !extra.has(k) && !STOPWORDS.has(t));
        if (residue.length > 2 || residue.join('').length > 14)
            continue;
        if (paragraphTail(line, lines))
            continue;
        matches.forEach((m, i) => {
            const nextMatch = matches[i + 1];
            const stop = nextMatch ? nextMatch.start : line.tokens.length;
            const anchorWord = line.tokenWord[m.anchor];
            const firstWord = line.tokenWord[m.start];
            // The label reaches over the party words and stopwords that follow it ("Signature of the Client").
            let reachWord = anchorWord;
            let k = m.end + 1;
            while (k < stop) {
                const t = line.tokens[k];
                if (t === '\0')
                    break;
                const party = partyAt(line.tokens, k);
                if (!party && !STOPWORDS.has(t))
                    break;
                k += party ? party.length : 1;
                reachWord = line.tokenWord[k - 1];
            }
            // Punctuation after it (a colon) belongs to it too.
            let next = reachWord + 1;
            while (next < line.words.length && isPunctuation(line.words[next].text)) {
                const gap = line.rtl ? line.words[next - 1].box.x0 - line.words[next].box.x1 : line.words[next].box.x0 - line.words[next - 1].box.x1;
                if (gap > line.size)
                    break;
                next++;
            }
            const trailing = line.words.slice(reachWord, next).map((w) => w.text).join('');
            const colon = /[:：]/.test(trailing.slice(-3));
            if (/[^.]\.\s*$/.test(trailing) && !colon)
                return;
            const labelWords = line.words.slice(Math.min(firstWord, anchorWord), anchorWord + 1);
            const box = m.entry.tokens.includes('*') ? line.words[anchorWord].box : union(labelWords.map((w) => w.box));
            const reach = union([box, ...line.words.slice(anchorWord, next).map((w) => w.box)]);
            const limitWord = nextMatch ? line.words[line.tokenWord[nextMatch.start]] : undefined;
            labels.push({
                line,
                entry: m.entry,
                box,
                reach,
                next: next < line.words.length ? next : -1,
                limit: limitWord ? (line.rtl ? limitWord.box.x1 : limitWord.box.x0) : undefined,
                colon,
                bare: line.tokens.slice(k, stop).every((t) => t === '\0'),
                role: roleOnLine(line) ?? roleAbove(line, lines),
                confidence: Math.min(...labelWords.map((w) => w.confidence)),
                done: false,
            });
        });
    }
    // "Signature: ____   Date: ____": the date belongs to whoever the signature on its row belongs to.
    for (const label of labels) {
        if (label.role)
            continue;
        const row = labels
            .filter((o) => o.role && o !== label && Math.abs(o.line.baseline - label.line.baseline) <= 0.5 * label.line.size)
            .sort((a, b) => Math.abs(a.box.x0 - label.box.x0) - Math.abs(b.box.x0 - label.box.x0))[0];
        if (row)
            label.role = row.role;
    }
    return labels;
}
const isPunctuation = (text) => text.trim().length <= 2 && /^[^\p{L}\p{N}_.…\-~]*$/u.test(text.trim());
/** The last line of a paragraph: right under a long line of the same size. */
function paragraphTail(line, lines) {
    return lines.some((l) => l !== line &&
        l.tokens.length >= 8 &&
        Math.abs(l.size - line.size) < 1 &&
        line.baseline - l.baseline > 0 &&
        line.baseline - l.baseline <= 1.7 * line.size &&
        overlap1(l.box.x0, l.box.x1, line.box.x0, line.box.x1) > 0);
}
function roleOnLine(line) {
    for (let k = 0; k < line.tokens.length; k++) {
        const party = partyAt(line.tokens, k);
        if (party)
            return party.role;
    }
    return undefined;
}
/** The party named by a short line above, in the same column (a block heading such as "The Client"). */
function roleAbove(line, lines) {
    const column = line.rtl ? { x0: line.box.x1 - 220, x1: line.box.x1 + 20 } : { x0: line.box.x0 - 20, x1: line.box.x0 + 220 };
    const above = lines
        .filter((l) => l !== line && l.baseline < line.baseline - 1 && line.baseline - l.baseline <= ROLE_SEARCH)
        .filter((l) => overlap1(l.box.x0, l.box.x1, column.x0, column.x1) > 0)
        .filter((l) => (line.rtl ? Math.abs(l.box.x1 - line.box.x1) <= 40 : Math.abs(l.box.x0 - line.box.x0) <= 40))
        .sort((a, b) => b.baseline - a.baseline);
    for (const l of above) {
        if (l.tokens.length > 6)
            return undefined;
        const role = roleOnLine(l);
        if (role)
            return role;
    }
    return undefined;
}
// ------------------------------------------------------------------------------------------ geometry
/** A run of underscores or dots right after the label on its line. */
function fillAfter(label) {
    if (label.next === -1)
        return undefined;
    const word = label.line.words[label.next];
    if (!isFillToken(word.text))
        return undefined;
    const gap = label.line.rtl ? label.reach.x0 - word.box.x1 : word.box.x0 - label.reach.x1;
    if (gap > 3 * label.line.size)
        return undefined;
    const y = word.baseline + Math.min(2, 0.2 * word.size);
    return { x0: word.box.x0, x1: word.box.x1, y, segment: { x0: word.box.x0, x1: word.box.x1, y } };
}
function afterGap(label, x0, x1) {
    return label.line.rtl ? label.reach.x0 - x1 : x0 - label.reach.x1;
}
function beforeLimit(label, x0, x1) {
    if (label.limit === undefined)
        return true;
    return label.line.rtl ? x0 >= label.limit - 2 : x1 <= label.limit + 2;
}
/** A drawn line on the label's baseline, after it in reading order. */
function segmentBeside(label, segments, used) {
    const { line } = label;
    const candidates = segments.filter((s) => {
        if (used.has(s))
            return false;
        if (s.y < line.baseline - 0.45 * line.size || s.y > line.baseline + 0.6 * line.size + 2)
            return false;
        const gap = afterGap(label, s.x0, s.x1);
        return gap >= -2 && gap <= Math.max(60, 5 * line.size) && beforeLimit(label, s.x0, s.x1);
    });
    return nearest(candidates, (s) => afterGap(label, s.x0, s.x1));
}
/** A box on the label's row, after it. */
function boxBeside(label, boxes) {
    const { reach } = label;
    const candidates = boxes.filter((b) => {
        const rowOverlap = overlap1(b.y0, b.y1, reach.y0, reach.y1);
        if (rowOverlap < 0.5 * (reach.y1 - reach.y0))
            return false;
        const gap = afterGap(label, b.x0, b.x1);
        return gap >= -2 && gap <= 80 && beforeLimit(label, b.x0, b.x1);
    });
    return nearest(candidates, (b) => afterGap(label, b.x0, b.x1));
}
/** A box the label is written in: the field is the rest of the box. */
function boxAround(label, boxes) {
    const inside = boxes.filter((b) => contains(b, label.box, 1) && b.y1 - b.y0 >= 16 && b.x1 - b.x0 >= 40);
    const box = inside.sort((a, b) => area(a) - area(b))[0];
    if (!box)
        return undefined;
    const h = box.y1 - box.y0;
    if (label.box.y0 - box.y0 <= 0.45 * h)
        return { x0: box.x0, y0: label.box.y1 + 2, x1: box.x1, y1: box.y1 };
    if (box.y1 - label.box.y1 <= 0.45 * h)
        return { x0: box.x0, y0: box.y0, x1: box.x1, y1: label.box.y0 - 2 };
    return undefined;
}
/** A caption right under a drawn line ("Signature" printed below the line it names). */
function segmentOver(label, segments, used) {
    const { box, line } = label;
    const candidates = segments.filter((s) => {
        if (used.has(s))
            return false;
        const gap = box.y0 - s.y;
        if (gap < -1 || gap > Math.max(0.9 * line.size + 2, 6))
            return false;
        return s.x0 <= box.x0 + 6 && s.x1 >= box.x1 - 6 && s.x1 - s.x0 >= 40;
    });
    return nearest(candidates, (s) => box.y0 - s.y);
}
/** A drawn line or a box under the label, with nothing written in between. */
function geometryBelow(label, geo, lines, used) {
    const { box, line } = label;
    const type = label.entry.type;
    const reach = type === 'signature' ? 3.5 * line.size + 24 : 2.5 * line.size + 14;
    const aligned = (x0, x1) => (line.rtl ? Math.abs(x1 - box.x1) <= 40 : Math.abs(x0 - box.x0) <= 40) || (x0 <= box.x0 + 4 && x1 >= box.x1 - 4);
    const clear = (top, x0, x1) => !lines.some((l) => l !== line && l.box.y0 >= box.y1 - 1 && l.box.y1 <= top + 1 && overlap1(l.box.x0, l.box.x1, x0, x1) > 0);
    const hits = [];
    for (const s of geo.free) {
        const d = s.y - box.y1;
        if (used.has(s) || d < 4 || d > reach || s.x1 - s.x0 < 40 || !aligned(s.x0, s.x1) || !clear(s.y, s.x0, s.x1))
            continue;
        hits.push({ item: s, distance: d });
    }
    for (const b of geo.boxes) {
        const d = b.y0 - box.y1;
        if (d < 0 || d > reach || !aligned(b.x0, b.x1) || !clear(b.y0, b.x0, b.x1))
            continue;
        hits.push({ item: b, distance: d });
    }
    return hits.sort((a, b) => a.distance - b.distance)[0]?.item;
}
/** The field standing on a line from x0 to x1 at height y, kept below the text above it. */
function standOn(type, x0, x1, y, label, lines) {
    let top = y - FIELD_HEIGHT[type];
    for (const l of lines) {
        if (l.box.y1 <= y - 1 && l.box.y1 > top && overlap1(l.box.x0, l.box.x1, x0, x1) > 0 && l !== label.line)
            top = l.box.y1 + 1;
    }
    if (y - top < 12)
        top = y - 12;
    return { x0, y0: top, x1, y1: y };
}
/** Blank space after the label on its line. */
function besideSpace(label, page, lines, geo) {
    const type = label.entry.type;
    const { line, reach } = label;
    const margin = 24;
    const obstacles = [
        ...lines.flatMap((l) => l.words.map((w) => w.box)),
        ...geo.boxes,
        ...geo.v.map((v) => ({ x0: v.x, y0: v.y0, x1: v.x, y1: v.y1 })),
        ...page.widgets.map((w) => w.box),
    ];
    const y1 = line.baseline + 4;
    const y0 = y1 - FIELD_HEIGHT[type];
    let x0;
    let x1;
    if (line.rtl) {
        x1 = reach.x0 - 6;
        x0 = Math.max(margin, x1 - FIELD_WIDTH[type]);
        for (const o of obstacles)
            if (o.x1 <= x1 && o.x1 > x0 && overlap1(o.y0, o.y1, line.box.y0, line.box.y1) > 0)
                x0 = o.x1 + 6;
    }
    else {
        x0 = reach.x1 + 6;
        x1 = Math.min(page.width - margin, x0 + FIELD_WIDTH[type]);
        for (const o of obstacles)
            if (o.x0 >= x0 && o.x0 < x1 && overlap1(o.y0, o.y1, line.box.y0, line.box.y1) > 0)
                x1 = o.x0 - 6;
    }
    if (x1 - x0 < MIN_BESIDE[type])
        return undefined;
    let top = y0;
    for (const o of obstacles)
        if (o.y1 <= line.box.y0 + 1 && o.y1 > top && overlap1(o.x0, o.x1, x0, x1) > 0)
            top = o.y1 + 2;
    if (y1 - top < Math.min(14, FIELD_HEIGHT[type]))
        return undefined;
    return { x0, y0: top, x1, y1 };
}
/** Blank space under the label. */
function belowSpace(label, page, lines, geo) {
    const type = label.entry.type;
    const { line, box } = label;
    const width = FIELD_WIDTH[type];
    const x0 = line.rtl ? Math.max(0, box.x1 - width) : box.x0;
    const x1 = Math.min(page.width, x0 + width);
    const y0 = box.y1 + 4;
    let y1 = y0 + FIELD_HEIGHT[type];
    const obstacles = [
        ...lines.filter((l) => l !== line).map((l) => l.box),
        ...geo.boxes,
        ...geo.h.map((h) => ({ x0: h.x0, y0: h.y, x1: h.x1, y1: h.y })),
        ...page.widgets.map((w) => w.box),
    ];
    for (const o of obstacles)
        if (o.y0 >= y0 - 3 && o.y0 < y1 && overlap1(o.x0, o.x1, x0, x1) > 0)
            y1 = o.y0 - 2;
    if (obstacles.some((o) => o.y0 < y0 - 3 && o.y1 > y0 && overlap1(o.x0, o.x1, x0, x1) > 0))
        return undefined;
    if (y1 - y0 < 0.7 * FIELD_HEIGHT[type] || y1 > page.height)
        return undefined;
    return { x0, y0, x1, y1 };
}
// ------------------------------------------------------------------------------------------ rules and cells
const TOLERANCE = 3;
function sortRules(page) {
    const h = page.segments;
    const v = page.verticals;
    const touches = (x, y) => v.some((r) => Math.abs(r.x - x) <= TOLERANCE && r.y0 <= y + TOLERANCE && r.y1 >= y - TOLERANCE);
    const framed = new Set(h.filter((s) => touches(s.x0, s.y) && touches(s.x1, s.y)));
    const boxes = [...page.boxes];
    const sorted = [...framed].sort((a, b) => a.y - b.y);
    for (let i = 0; i < sorted.length; i++) {
        const top = sorted[i];
        for (let j = i + 1; j < sorted.length; j++) {
            const bottom = sorted[j];
            if (Math.abs(top.x0 - bottom.x0) > TOLERANCE || Math.abs(top.x1 - bottom.x1) > TOLERANCE)
                continue;
            if (bottom.y - top.y < 10 || bottom.y - top.y > 300)
                break;
            // A rule across the middle makes it a table row, not a box.
            const divided = v.some((r) => r.x > top.x0 + TOLERANCE && r.x < top.x1 - TOLERANCE && r.y0 < bottom.y - TOLERANCE && r.y1 > top.y + TOLERANCE);
            if (!divided)
                boxes.push({ x0: Math.min(top.x0, bottom.x0), y0: top.y, x1: Math.max(top.x1, bottom.x1), y1: bottom.y });
            break;
        }
    }
    return { free: h.filter((s) => !framed.has(s)), boxes, h, v };
}
/** The table cell (four rules around it) holding the point, if any. */
export function cellAt(geo, x, y) {
    let top;
    let bottom;
    for (const s of geo.h) {
        if (s.x0 - TOLERANCE > x || s.x1 + TOLERANCE < x)
            continue;
        if (s.y <= y && (!top || s.y > top.y))
            top = s;
        if (s.y > y && (!bottom || s.y < bottom.y))
            bottom = s;
    }
    let left;
    let right;
    for (const r of geo.v) {
        if (r.y0 - TOLERANCE > y || r.y1 + TOLERANCE < y)
            continue;
        if (r.x <= x && (!left || r.x > left.x))
            left = r;
        if (r.x > x && (!right || r.x < right.x))
            right = r;
    }
    if (!top || !bottom || !left || !right)
        return undefined;
    const cell = { x0: left.x, y0: top.y, x1: right.x, y1: bottom.y };
    if (cell.x1 - cell.x0 < 16 || cell.y1 - cell.y0 < 8 || cell.y1 - cell.y0 > 400)
        return undefined;
    // The four rules must close the cell, not merely lie around the point.
    const spansH = (s) => s.x0 <= cell.x0 + TOLERANCE && s.x1 >= cell.x1 - TOLERANCE;
    const spansV = (r) => r.y0 <= cell.y0 + TOLERANCE && r.y1 >= cell.y1 - TOLERANCE;
    return spansH(top) && spansH(bottom) && spansV(left) && spansV(right) ? cell : undefined;
}
/** Where to write for a label in a table cell: the rest of a tall cell, the empty cell after it or under it. */
function cellBlank(label, cell, geo, page) {
    const { box, reach, line } = label;
    const inset = (r) => ({ x0: r.x0 + 1, y0: r.y0 + 1, x1: r.x1 - 1, y1: r.y1 - 1 });
    const empty = (r) => !page.words.some((w) => {
        const cx = (w.box.x0 + w.box.x1) / 2;
        const cy = (w.box.y0 + w.box.y1) / 2;
        return cx > r.x0 && cx < r.x1 && cy > r.y0 && cy < r.y1 && !isFillToken(w.text);
    });
    const below = cell.y1 - box.y1;
    if (below >= Math.max(16, 1.2 * (box.y1 - cell.y0)))
        return inset({ x0: cell.x0, y0: box.y1 + 1, x1: cell.x1, y1: cell.y1 });
    const middle = (cell.y0 + cell.y1) / 2;
    const next = cellAt(geo, line.rtl ? cell.x0 - TOLERANCE - 1 : cell.x1 + TOLERANCE + 1, middle);
    if (next && empty(next) && next.x1 - next.x0 >= 30)
        return inset(next);
    const room = line.rtl ? reach.x0 - cell.x0 : cell.x1 - reach.x1;
    if (room >= MIN_BESIDE[label.entry.type]) {
        return inset(line.rtl ? { x0: cell.x0, y0: cell.y0, x1: reach.x0 - 4, y1: cell.y1 } : { x0: reach.x1 + 4, y0: cell.y0, x1: cell.x1, y1: cell.y1 });
    }
    const under = cellAt(geo, (cell.x0 + cell.x1) / 2, cell.y1 + TOLERANCE + 1);
    if (under && empty(under))
        return inset(under);
    return undefined;
}
// ------------------------------------------------------------------------------------------ output
function suggestion(page, label, type, rect, reason, base) {
    const r = clip(rect, page);
    if (r.x1 - r.x0 < 4 || r.y1 - r.y0 < 4)
        return undefined;
    let c = base;
    if (label.entry.strength === 'weak')
        c -= 0.1;
    if (label.bare)
        c += 0.03;
    if (label.role)
        c += 0.02;
    if (page.ocr)
        c *= 0.88 + 0.12 * label.confidence;
    const fieldKey = label.entry.fieldKey;
    return {
        type,
        page: page.page,
        ...xywh(r),
        confidence: round(Math.min(0.99, Math.max(0.65, c)), 100),
        reason,
        ...(label.role ? { roleHint: label.role } : {}),
        ...(fieldKey && (type === 'text' || (type === 'date' && fieldKey === 'sign_date')) ? { fieldKey } : {}),
    };
}
const RANK = { acroform: 3, label_with_geometry: 2, label_with_whitespace: 1 };
/** One suggestion per spot: a form field beats a label, geometry beats blank space, then confidence. */
export function dedupe(list) {
    const sorted = [...list].sort((a, b) => RANK[b.reason] - RANK[a.reason] || b.confidence - a.confidence);
    const kept = [];
    for (const s of sorted) {
        if (kept.some((k) => k.page === s.page && sameSpot(rectOf(k), rectOf(s))))
            continue;
        kept.push(s);
    }
    return kept.sort((a, b) => a.page - b.page || a.y - b.y || a.x - b.x);
}
function sameSpot(a, b) {
    const inter = area({ x0: Math.max(a.x0, b.x0), y0: Math.max(a.y0, b.y0), x1: Math.min(a.x1, b.x1), y1: Math.min(a.y1, b.y1) });
    if (inter <= 0)
        return false;
    return inter / (area(a) + area(b) - inter) >= 0.3 || inter / Math.min(area(a), area(b)) >= 0.6;
}
// ------------------------------------------------------------------------------------------ boxes
export function union(rects) {
    return {
        x0: Math.min(...rects.map((r) => r.x0)),
        y0: Math.min(...rects.map((r) => r.y0)),
        x1: Math.max(...rects.map((r) => r.x1)),
        y1: Math.max(...rects.map((r) => r.y1)),
    };
}
function area(r) {
    return Math.max(0, r.x1 - r.x0) * Math.max(0, r.y1 - r.y0);
}
function overlap1(a0, a1, b0, b1) {
    return Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
}
function contains(outer, inner, tolerance) {
    return inner.x0 >= outer.x0 - tolerance && inner.y0 >= outer.y0 - tolerance && inner.x1 <= outer.x1 + tolerance && inner.y1 <= outer.y1 + tolerance;
}
function nearest(items, distance) {
    return [...items].sort((a, b) => distance(a) - distance(b))[0];
}
function clip(r, page) {
    return { x0: Math.max(0, r.x0), y0: Math.max(0, r.y0), x1: Math.min(page.width, r.x1), y1: Math.min(page.height, r.y1) };
}
function rectOf(s) {
    return { x0: s.x, y0: s.y, x1: s.x + s.width, y1: s.y + s.height };
}
/** Rounded to 0.01 pt (within the contract's edge tolerance of the page). */
function xywh(r) {
    const x = round(r.x0, 100);
    const y = round(r.y0, 100);
    return { x, y, width: round(round(r.x1, 100) - x, 100), height: round(round(r.y1, 100) - y, 100) };
}
function round(n, by) {
    return Math.round(n * by) / by;
}
//# sourceMappingURL=detect-rules.js.map