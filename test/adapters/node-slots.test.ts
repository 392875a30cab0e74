import { slotContract } from './slots.case.js';

slotContract('node');
