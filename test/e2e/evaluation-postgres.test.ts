/** The core evaluation flow end to end against a real `ensign server` on PostgreSQL. */
import anyTest from 'ava';
import { registerCoreFlow } from '../helpers/evaluation-flow.js';
import { type EvalTest, useEvaluationServer } from '../helpers/evaluation-harness.js';

const test = anyTest as EvalTest;
useEvaluationServer(test, 'postgres');
registerCoreFlow(test);
