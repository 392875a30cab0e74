/** The CLI's commands, each loaded on demand from its own file. */
import type { Command } from './io.js';

export const commands: Record<string, () => Promise<Command>> = {};
