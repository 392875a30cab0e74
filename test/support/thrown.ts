// The TollgateError a call throws, for tests of misuse: fails the test when nothing (or another error) is thrown.
import { isTollgateError } from '../../src/index.js';

/** The TollgateError `make` throws; rethrows any other error, and fails when nothing is thrown. */
export function thrown(make: () => unknown): { code: string; message: string; details: readonly string[] } {
  try {
    make();
  } catch (error) {
    if (isTollgateError(error)) return error;
    throw error;
  }
  throw new Error('no error thrown');
}
