/** Every management-API suite, registered on one test file's shared server. */
import type { ApiTest } from '../helpers/harness.js';
import { constraintsSuite } from './constraints.suite.js';
import { flagsSuite } from './flags.suite.js';
import { namespacesSuite } from './namespaces.suite.js';
import { rolloutsSuite } from './rollouts.suite.js';
import { routingSuite } from './routing.suite.js';
import { rulesSuite } from './rules.suite.js';
import { segmentsSuite } from './segments.suite.js';
import { variantsSuite } from './variants.suite.js';

export function registerApiSuites(test: ApiTest): void {
  routingSuite(test);
  namespacesSuite(test);
  flagsSuite(test);
  variantsSuite(test);
  segmentsSuite(test);
  constraintsSuite(test);
  rulesSuite(test);
  rolloutsSuite(test);
}
