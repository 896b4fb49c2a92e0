import fs from 'node:fs';

/** procfs and sysfs: the kernel's views, where no file of paraph's can be made (and Node's compile cache never returns). */
const VIRTUAL_FILE_SYSTEMS = new Set([0x9fa0, 0x62656572]);

/** Whether `at` is on procfs or sysfs (bin/paraph.js reads this before anything else is loaded: it imports nothing of paraph's). */
export function onVirtualFileSystem(at: string): boolean {
  try {
    return VIRTUAL_FILE_SYSTEMS.has(Number(fs.statfsSync(at).type));
  } catch {
    return false;
  }
}
