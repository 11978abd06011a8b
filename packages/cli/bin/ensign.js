#!/usr/bin/env node
// Committed entry point: npm links `bin` at install time, before `tsc -b` has built dist/.
import '../dist/src/main.js';
