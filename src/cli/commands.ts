/** The CLI's commands, each loaded on demand from its own file. */
import type { Command } from './io.js';

export const commands: Record<string, () => Promise<Command>> = {
  explain: async () => (await import('./explain-command.js')).explainCommand,
  endpoints: async () => (await import('./endpoints-command.js')).endpointsCommand,
  validate: async () => (await import('./validate-command.js')).validateCommand,
  limits: async () => (await import('./limits-command.js')).limitsCommand,
  check: async () => (await import('./check-command.js')).checkCommand,
  simulate: async () => (await import('./simulate-command.js')).simulateCommand,
};
