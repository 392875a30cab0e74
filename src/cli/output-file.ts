/** Output files of the CLI (`simulate --html`, `check --write-overlay`): checked before the run, written whole or not at all. */
import { randomBytes } from 'node:crypto';
import {
  accessSync,
  closeSync,
  constants,
  fchmodSync,
  fsyncSync,
  openSync,
  realpathSync,
  renameSync,
  type Stats,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { errnoReason, fileKind } from '../core/file-system-words.js';
import { UsageError } from './io.js';

/** Why a write failed, in words: a missing file here means its folder is missing. */
const reasonOf = (error: unknown): string =>
  (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'its folder does not exist' : errnoReason(error);

function quietly(step: () => void): void {
  try {
    step();
  } catch {
    // The caller reports the error that matters.
  }
}

const cannotWrite = (flag: string, path: string, reason: string) =>
  new UsageError(`${flag}: cannot write \`${path}\`: ${reason}`);

/** The file a path names once links are followed (a link to a file is written through), or the path itself when new. */
function targetOf(path: string): { target: string; existing: Stats | undefined } {
  let existing: Stats | undefined;
  try {
    existing = statSync(path);
  } catch {
    return { target: resolve(path), existing: undefined };
  }
  return { target: realpathSync(path), existing };
}

/**
 * Checks, before a possibly long run, that `path` can take an output file: a name is given, it is
 * not a folder or a device, its folder exists and may be written. Throws a one-line UsageError
 * (exit 2) naming the flag, the path and the reason.
 * @example
 * import { checkOutputPath } from './output-file.js';
 * checkOutputPath('--html', 'report.html'); // nothing: the current folder takes it
 */
export function checkOutputPath(flag: string, path: string): void {
  if (path === '') throw new UsageError(`${flag}: the file name is empty; give a file path`);
  const { target, existing } = targetOf(path);
  // A device or FIFO is not replaced by a file (a rename over /dev/null would be), nor written
  // (a FIFO without a reader blocks): the output is a file.
  if (existing !== undefined && !existing.isFile())
    throw cannotWrite(flag, path, `it is ${fileKind(existing)}; give a file path`);
  const folder = dirname(target);
  let folderStats: Stats;
  try {
    folderStats = statSync(folder);
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw cannotWrite(flag, path, missing ? `no folder \`${folder}\`` : reasonOf(error));
  }
  if (!folderStats.isDirectory()) throw cannotWrite(flag, path, `\`${folder}\` is not a folder`);
  try {
    accessSync(folder, constants.W_OK);
    if (existing !== undefined) accessSync(target, constants.W_OK);
  } catch (error) {
    throw cannotWrite(flag, path, reasonOf(error));
  }
}

/**
 * Writes `text` to `path` whole or not at all: into a temporary file beside it, then renamed over
 * it, so a full disk, a file size limit or a kill mid-write leaves the old file (or none), never
 * half a page; a failure it sees also removes the temporary file (a kill cannot: it may leave
 * `.<name>.<hex>.tmp` beside the target). A failure is a one-line UsageError naming the path and why.
 * @example
 * import { writeOutputFile } from './output-file.js';
 * writeOutputFile('--html', 'report.html', '<!doctype html>...');
 */
export function writeOutputFile(flag: string, path: string, text: string): void {
  checkOutputPath(flag, path);
  const { target, existing } = targetOf(path);
  const temporary = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  let fd: number | undefined;
  try {
    // An existing file keeps its permissions; a new one gets the usual 0o666 less the umask.
    fd = openSync(temporary, 'wx', 0o666);
    if (existing !== undefined) fchmodSync(fd, existing.mode & 0o777);
    const bytes = Buffer.from(text, 'utf8');
    for (let written = 0; written < bytes.length; )
      written += writeSync(fd, bytes, written, bytes.length - written);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temporary, target);
  } catch (error) {
    // Each may fail harmlessly: the file not created, or already renamed.
    if (fd !== undefined) quietly(() => closeSync(fd!));
    quietly(() => unlinkSync(temporary));
    throw cannotWrite(flag, path, reasonOf(error));
  }
}
