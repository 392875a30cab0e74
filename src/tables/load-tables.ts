/** Loads tables from files (Node): the shipped ones plus overlays, validated with positions. */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from 'node:fs';
import { isTollgateError, TollgateError } from '../core/errors.js';
import { errnoReason, fileKind } from '../core/file-system-words.js';
import { type Issue, issuesError } from '../core/issue.js';
import { compileTables } from '../policy/compile-tables.js';
import { shippedSources } from '../policy/shipped-tables.js';
import type { PolicyTables, RawPermissionsTable } from '../policy/tables.js';
import { loadTableText } from './load-table-text.js';

/** The largest input file read (64 MiB): far above any table, token or scenario; a bigger one is refused. */
export const MAX_INPUT_BYTES = 64 * 1024 * 1024;

function refused(file: string, problem: string): TollgateError {
  return new TollgateError('TOLLGATE_INVALID_INPUT', `${file}: ${problem}`);
}

function notRegular(file: string, stats: Stats): TollgateError {
  return refused(file, `is ${fileKind(stats)}, not a regular file; give a file (a link to one is followed)`);
}

const mebibytes = (bytes: number) => `${Math.ceil(bytes / 1024 / 1024)} MiB`;

function tooLarge(file: string, size: number): TollgateError {
  return refused(file, `is ${mebibytes(size)}; files over ${mebibytes(MAX_INPUT_BYTES)} are refused`);
}

/**
 * Reads at most `MAX_INPUT_BYTES + 1` bytes of an open regular file, in pieces: a file that grows
 * while read, or one whose size says 0 (under /proc), cannot take more than that.
 */
function readCapped(fd: number, file: string): Buffer {
  const pieces: Buffer[] = [];
  let total = 0;
  for (;;) {
    const piece = Buffer.allocUnsafe(Math.min(1024 * 1024, MAX_INPUT_BYTES + 1 - total));
    const read = readSync(fd, piece, 0, piece.length, null);
    if (read === 0) break;
    pieces.push(read === piece.length ? piece : piece.subarray(0, read));
    total += read;
    if (total > MAX_INPUT_BYTES) throw tooLarge(file, total);
  }
  return Buffer.concat(pieces, total);
}

/** The bytes of `file`, refused unless it is a regular file (links followed) of at most MAX_INPUT_BYTES. */
function readRegularFile(file: string): Buffer {
  // Checked before opening, so a FIFO is never opened (that blocks until a writer comes) and a
  // device never read (/dev/zero has no end); checked again on the open file, which is what is read.
  const before = statSync(file);
  if (!before.isFile()) throw notRegular(file, before);
  const fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw notRegular(file, stats);
    if (stats.size > MAX_INPUT_BYTES) throw tooLarge(file, stats.size);
    return readCapped(fd, file);
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads a file as UTF-8 text, turning an unreadable file into a TollgateError naming it: a missing
 * file, one that is not a regular file (a folder, FIFO, device or socket; a link is followed), one
 * over MAX_INPUT_BYTES (64 MiB) and one holding a NUL byte (not text: a program, an image).
 * @example
 * import { loadTableText, readTextFile } from 'tollgate/tables';
 * const loaded = loadTableText(readTextFile('data/scopes.yaml'), 'data/scopes.yaml', 'scopes');
 * loaded.issues.length; // 0
 */
export function readTextFile(file: string): string {
  let bytes: Buffer;
  try {
    bytes = readRegularFile(file);
  } catch (error) {
    if (isTollgateError(error)) throw error;
    throw new TollgateError('TOLLGATE_INVALID_INPUT', `cannot read \`${file}\`: ${errnoReason(error)}`, {
      cause: error,
    });
  }
  const nul = bytes.indexOf(0);
  if (nul !== -1) throw refused(file, `is not a text file (a NUL byte at offset ${nul})`);
  return bytes.toString('utf8');
}

/** Throws one TOLLGATE_INVALID_TABLE error that lists every issue, one per line. */
export function throwIssues(issues: readonly Issue[]): never {
  throw issuesError('TOLLGATE_INVALID_TABLE', issues, 'the tables');
}

/**
 * Compiles the shipped tables with overlay files applied in order (their own endpoints, or facts
 * the seeds leave "not shown"). Every problem of every file is reported at once.
 * @example
 * import { loadTables } from 'tollgate/tables';
 * const tables = loadTables(['examples/overlay-public-contents.yaml']);
 * tables.endpoints.length; // 535: the overlay changes one endpoint of the shipped tables
 */
export function loadTables(files: readonly string[] = []): PolicyTables {
  const issues: Issue[] = [];
  const overlays = files.flatMap((file) => {
    const loaded = loadTableText<RawPermissionsTable>(readTextFile(file), file, 'permissions');
    issues.push(...loaded.issues);
    return loaded.value === undefined ? [] : [{ file, value: loaded.value, locate: loaded.document.locate }];
  });
  if (issues.length > 0) throwIssues(issues);
  const compiled = compileTables({ ...shippedSources, overlays });
  if (compiled.tables === undefined) throwIssues(compiled.issues);
  return compiled.tables;
}
