const DARK = 150;
/** In points: a rule is at least this long, at most this thick. */
const MIN_LENGTH = 30;
const MIN_VERTICAL = 10;
const MAX_THICKNESS = 4;
/** Pixels of gap (scanner noise, a dotted rule) that do not break a run. */
const GAP = 2;
export function rulesFromPixels(rgba, width, height, scale) {
    const minH = Math.round(MIN_LENGTH * scale);
    const minV = Math.round(MIN_VERTICAL * scale);
    const thick = Math.ceil(MAX_THICKNESS * scale);
    const row = new Uint8Array(width);
    // Horizontal runs, row by row; runs of neighbouring rows that overlap are one rule.
    const open = [];
    const hRuns = [];
    // Vertical runs, per column, carried from row to row.
    const vStart = new Int32Array(width).fill(-1);
    const vLast = new Int32Array(width).fill(-1);
    const vPieces = [];
    const closeH = (r) => {
        if (r.last - r.first + 1 <= thick)
            hRuns.push({ from: r.from, to: r.to, at: (r.first + r.last + 1) / 2 });
    };
    for (let y = 0; y < height; y++) {
        const base = y * width * 4;
        for (let x = 0; x < width; x++) {
            const i = base + x * 4;
            const on = (rgba[i] * 77 + rgba[i + 1] * 150 + rgba[i + 2] * 29) >> 8 < DARK ? 1 : 0;
            row[x] = on;
            if (on) {
                if (vStart[x] < 0)
                    vStart[x] = y;
                vLast[x] = y;
            }
            else if (vStart[x] >= 0 && y - vLast[x] > GAP) {
                if (vLast[x] - vStart[x] + 1 >= minV)
                    vPieces.push({ col: x, from: vStart[x], to: vLast[x] + 1 });
                vStart[x] = -1;
            }
        }
        const found = [];
        let start = -1;
        let last = -1;
        for (let x = 0; x <= width; x++) {
            if (x < width && row[x] === 1) {
                if (start < 0)
                    start = x;
                last = x;
            }
            else if (start >= 0 && (x === width || x - last > GAP)) {
                if (last - start + 1 >= minH)
                    found.push({ from: start, to: last + 1 });
                start = -1;
            }
        }
        for (let k = open.length - 1; k >= 0; k--) {
            const r = open[k];
            const next = found.findIndex((f) => f.from < r.to && f.to > r.from);
            if (next === -1) {
                closeH(r);
                open.splice(k, 1);
            }
            else {
                const f = found[next];
                r.from = Math.min(r.from, f.from);
                r.to = Math.max(r.to, f.to);
                r.last = y;
                found.splice(next, 1);
            }
        }
        for (const f of found)
            open.push({ ...f, first: y, last: y });
    }
    for (const r of open)
        closeH(r);
    for (let x = 0; x < width; x++) {
        if (vStart[x] >= 0 && vLast[x] - vStart[x] + 1 >= minV) {
            vPieces.push({ col: x, from: vStart[x], to: vLast[x] + 1 });
        }
    }
    // Vertical pieces in neighbouring columns that overlap are one rule; a wide one is a filled area.
    const vGroups = [];
    for (const p of vPieces.sort((a, b) => a.col - b.col)) {
        const g = vGroups.find((v) => v.last >= p.col - 1 && p.from < v.to && p.to > v.from);
        if (g) {
            g.from = Math.min(g.from, p.from);
            g.to = Math.max(g.to, p.to);
            g.last = p.col;
        }
        else {
            vGroups.push({ from: p.from, to: p.to, first: p.col, last: p.col });
        }
    }
    const horizontal = hRuns.map((r) => ({ x0: r.from / scale, x1: r.to / scale, y: r.at / scale }));
    const verticals = vGroups
        .filter((g) => g.last - g.first + 1 <= thick)
        .map((g) => ({ x: (g.first + g.last + 1) / 2 / scale, y0: g.from / scale, y1: g.to / scale }));
    return { segments: horizontal, verticals };
}
//# sourceMappingURL=ocr-lines.js.map