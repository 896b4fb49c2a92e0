import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { App } from '../app-type.js';
import { PDFJS_BUILD_DIR } from '../../platform/vendored.js';

/**
 * The libraries both browser pages load, at one place: pdf.js and its worker under `/vendor/`
 * (the signing page draws the document with it, the dashboard its preview), from pdf.js's legacy
 * build (no newer JavaScript than the pages' browsers run). Nothing else of the
 * package is reachable.
 */
export async function registerUiVendor(app: App): Promise<void> {
  await app.register(fastifyStatic, {
    root: PDFJS_BUILD_DIR,
    prefix: '/vendor/',
    decorateReply: false,
    index: false,
    allowedPath: (p) => /^\/pdf(\.worker)?\.min\.mjs$/.test(p),
  });
}

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
};

/**
 * The files of a browser page's folder that are served, with their content types: every page, script
 * and stylesheet in it (read from the folder, so a new module is served without being listed).
 */
export function uiFiles(dir: string): ReadonlyMap<string, string> {
  const files = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const type = TYPES[path.extname(entry.name)];
    if (entry.isFile() && type !== undefined) files.set(entry.name, type);
  }
  return files;
}
