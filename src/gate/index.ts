/** The gate: limits then authorization for one request, whatever the server. */
export { createGate, type Gate, type GateOptions } from './create-gate.js';
export type { GateAnswer, PassAnswer, RespondAnswer, Settle } from './gate-answer.js';
export type { RequestFacts } from './request-facts.js';
export { type CredentialFacts, clientAddress, type LookupToken } from './resolve-token.js';
