// Compiles the YAML tables into src/generated/ once before any test file imports them.
import { execFileSync } from 'node:child_process';

export default function setup(): void {
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-tables.ts'], { stdio: 'inherit' });
}
