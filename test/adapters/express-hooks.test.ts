import { hookContract } from './hooks.case.js';

hookContract('express');
