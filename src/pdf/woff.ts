import zlib from 'node:zlib';

const WOFF_SIGNATURE = 0x774f4646; // 'wOFF'
const WOFF_HEADER_BYTES = 44;
const WOFF_ENTRY_BYTES = 20;
const SFNT_HEADER_BYTES = 12;
const SFNT_ENTRY_BYTES = 16;

/** Whether `bytes` is a WOFF 1.0 font file. */
export function isWoff(bytes: Uint8Array): boolean {
  return bytes.byteLength >= WOFF_HEADER_BYTES && Buffer.from(bytes.buffer, bytes.byteOffset, 4).readUInt32BE(0) === WOFF_SIGNATURE;
}

/**
 * The plain OpenType (sfnt) font inside a WOFF 1.0 file: each table inflated once, laid out as an
 * sfnt file with its directory. fontkit reads WOFF too, but inflates a table again every time a
 * subset asks it for a glyph, which made embedding a handwriting font cost tens of milliseconds per
 * document; the sfnt is read as it is.
 */
export function sfntFromWoff(woff: Uint8Array): Buffer {
  const input = Buffer.from(woff.buffer, woff.byteOffset, woff.byteLength);
  if (!isWoff(input)) throw new Error('not a WOFF font (no wOFF signature)');
  const flavor = input.readUInt32BE(4);
  const numTables = input.readUInt16BE(12);
  if (WOFF_HEADER_BYTES + numTables * WOFF_ENTRY_BYTES > input.length) throw new Error('WOFF font: table directory past the end of the file');

  const tables = Array.from({ length: numTables }, (_, i) => {
    const at = WOFF_HEADER_BYTES + i * WOFF_ENTRY_BYTES;
    const tag = input.readUInt32BE(at);
    const offset = input.readUInt32BE(at + 4);
    const compLength = input.readUInt32BE(at + 8);
    const origLength = input.readUInt32BE(at + 12);
    const checksum = input.readUInt32BE(at + 16);
    if (offset + compLength > input.length) throw new Error('WOFF font: a table runs past the end of the file');
    const stored = input.subarray(offset, offset + compLength);
    const data = compLength < origLength ? zlib.inflateSync(stored) : stored;
    if (data.length !== origLength) throw new Error('WOFF font: a table does not inflate to its declared length');
    return { tag, checksum, data };
  });

  const padded = (n: number) => (n + 3) & ~3;
  const size = tables.reduce((sum, t) => sum + padded(t.data.length), SFNT_HEADER_BYTES + numTables * SFNT_ENTRY_BYTES);
  const out = Buffer.alloc(size);
  // searchRange and friends, as the OpenType table directory defines them.
  const entrySelector = Math.floor(Math.log2(numTables));
  const searchRange = 2 ** entrySelector * 16;
  out.writeUInt32BE(flavor, 0);
  out.writeUInt16BE(numTables, 4);
  out.writeUInt16BE(searchRange, 6);
  out.writeUInt16BE(entrySelector, 8);
  out.writeUInt16BE(numTables * 16 - searchRange, 10);
  let offset = SFNT_HEADER_BYTES + numTables * SFNT_ENTRY_BYTES;
  tables.forEach((table, i) => {
    const at = SFNT_HEADER_BYTES + i * SFNT_ENTRY_BYTES;
    out.writeUInt32BE(table.tag, at);
    out.writeUInt32BE(table.checksum, at + 4);
    out.writeUInt32BE(offset, at + 8);
    out.writeUInt32BE(table.data.length, at + 12);
    table.data.copy(out, offset);
    offset += padded(table.data.length);
  });
  return out;
}
