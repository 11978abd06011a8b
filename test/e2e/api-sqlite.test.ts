/** The whole management API over HTTP against a real `ensign server` on sqlite. */
import anyTest from 'ava';
import { type ApiTest, useServer } from '../helpers/harness.js';
import { registerApiSuites } from '../suites/index.js';

const test = anyTest as ApiTest;
useServer(test, 'sqlite');
registerApiSuites(test);
