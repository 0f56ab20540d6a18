import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every file under `folder` whose bytes contain `needle`, relative to `folder`: where a secret leaked to. A
 * file removed while the walk runs (a process still finishing) is skipped.
 */
export function filesHolding(folder: string, needle: string): string[] {
  const found: string[] = [];
  const walk = (directory: string): void => {
    for (const name of readdirSync(directory)) {
      const path = join(directory, name);
      const stats = statSync(path, { throwIfNoEntry: false });
      if (stats === undefined) continue;
      if (stats.isDirectory()) walk(path);
      else if (stats.isFile() && readFileSync(path).includes(needle))
        found.push(path.slice(folder.length + 1));
    }
  };
  walk(folder);
  return found;
}
