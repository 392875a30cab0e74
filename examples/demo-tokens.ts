// Example tokens for the example servers: the secret a client sends, and the token it stands for.
// A real server looks the secret up in its own store (a database, an identity provider).
import type { LookupToken, Token } from 'tollgate';

export const DEMO_TOKENS: Readonly<Record<string, Token>> = {
  'demo-issues-reader': {
    kind: 'fine-grained',
    user: 'mona',
    permissions: { issues: 'read', metadata: 'read' },
    repositories: ['acme/app'],
  },
  'demo-variables-admin': {
    kind: 'fine-grained',
    user: 'hubot',
    permissions: { variables: 'write', issues: 'read' },
    repositories: 'all',
  },
  'demo-classic-notifications': { kind: 'classic', user: 'octocat', scopes: ['notifications'] },
  'demo-installation': {
    kind: 'app-installation',
    installation: '42',
    repositoriesCount: 3,
    usersCount: 5,
    permissions: { issues: 'read' },
    repositories: 'all',
  },
};

/** The lookup the example servers give the gate: a secret it does not know is bad credentials (401). */
export const lookupToken: LookupToken = (secret) => DEMO_TOKENS[secret] ?? null;
