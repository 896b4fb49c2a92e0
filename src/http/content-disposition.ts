/**
 * `Content-Disposition: attachment` for a downloaded file, the same wherever paraph serves one (the API's
 * artifacts, the signer's copy, the dashboard): an ASCII fallback name (accents dropped, other characters
 * `_`) and the exact name in RFC 5987 form.
 */
export function attachment(filename: string): string {
  const ascii = filename
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
