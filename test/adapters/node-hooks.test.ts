import { hookContract } from './hooks.case.js';

hookContract('node');
