/** The file system's answers in words, for one-line messages: what kind of file a path is, and why a call failed. */

/** What `fileKind` reads of a file's stats (node:fs `Stats` has it; named here, core imports no node module). */
export interface FileStatsLike {
  isFile(): boolean;
  isDirectory(): boolean;
  isFIFO(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isSocket(): boolean;
}

/**
 * What a file is, in words: `a folder`, `a FIFO`, `a character device`, ...
 * @example
 * import { fileKind } from './file-system-words.js';
 * const fifo = { isFile: () => false, isDirectory: () => false, isFIFO: () => true, isCharacterDevice: () => false, isBlockDevice: () => false, isSocket: () => false };
 * fileKind(fifo); // 'a FIFO'
 */
export function fileKind(stats: FileStatsLike): string {
  if (stats.isFile()) return 'a regular file';
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  return stats.isSocket() ? 'a socket' : 'not a regular file';
}

const REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  ENOTDIR: 'a part of the path is not a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EFBIG: 'the file is too large (over the file size limit)',
  EISDIR: 'it is a folder',
  ENAMETOOLONG: 'the name is too long',
  EIO: 'an input/output error',
};

/**
 * Why a file system call failed, in words, from its error code; the error's own message otherwise.
 * @example
 * import { errnoReason } from './file-system-words.js';
 * errnoReason(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })); // 'no space left on the device'
 */
export function errnoReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const known = typeof code === 'string' ? REASONS[code] : undefined;
  return known ?? (error instanceof Error ? error.message : String(error));
}
