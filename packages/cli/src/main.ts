#!/usr/bin/env node
/** The `ensign` executable, as `npm start` and `npx ensign` run it. */
import { runProcess } from './process-main.js';

await runProcess();
