// Express 4 (installed as `express4`): the suites whose behaviour depends on the framework's error
// and connection handling.
import { errorContract } from './errors.case.js';
import { slotContract } from './slots.case.js';

slotContract('express4');
errorContract('express4');
