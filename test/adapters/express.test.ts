import { gateContract } from './gate.case.js';

gateContract('express');
