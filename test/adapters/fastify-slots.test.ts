import { slotContract } from './slots.case.js';

slotContract('fastify');
