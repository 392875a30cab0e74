// Where the browser tests find Chromium: $CHROMIUM, else the first of Debian's and other distributions'
// names on the PATH. Found at run time; no browser download.
import { execFileSync } from 'node:child_process';

export const MISSING =
  'chromium not found: the HTML report test needs it (Debian: `apt-get install -y chromium`, or set CHROMIUM to its path); under CI=true it fails';

function find(): string | null {
  const candidates = [process.env.CHROMIUM, 'chromium', 'chromium-browser', 'google-chrome'].filter(
    (name): name is string => name !== undefined && name !== '',
  );
  for (const name of candidates) {
    try {
      execFileSync(name, ['--version'], { stdio: 'ignore' });
      return name.includes('/') ? name : execFileSync('which', [name], { encoding: 'utf8' }).trim();
    } catch {
      // not this one
    }
  }
  return null;
}

const found = find();

/** The path to launch, or an empty string when none was found (the test then fails with MISSING). */
export const CHROMIUM = found ?? '';

export function chromiumAvailable(): boolean {
  return found !== null;
}
