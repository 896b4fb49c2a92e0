const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
/** `90s`, `2h`, `11d`, `1d12h` -> milliseconds; null for anything else (negative, zero, no unit). */
export function parseDuration(text) {
    if (!/^(\d+[smhdw])+$/.test(text))
        return null;
    let ms = 0;
    for (const [, amount, unit] of text.matchAll(/(\d+)([smhdw])/g))
        ms += Number(amount) * (UNIT_MS[unit] ?? 0);
    return ms > 0 && Number.isSafeInteger(ms) ? ms : null;
}
//# sourceMappingURL=duration.js.map