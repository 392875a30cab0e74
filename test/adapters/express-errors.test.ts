import { errorContract } from './errors.case.js';

errorContract('express');
