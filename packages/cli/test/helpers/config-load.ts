/** Loading a configuration in tests: from a YAML file's text, and the one-line error a bad one is refused with. */
import { loadConfig, type LoadOptions } from '../../src/config/config.loader.js';

/** The configuration read from `yaml` as `ensign.yml`, with `env` on top. */
export const fromYaml = (yaml: string, env: LoadOptions['env'] = {}) => loadConfig({ configPath: 'ensign.yml', env, readFile: () => yaml });

/** The message of the error `load` throws; a load that throws nothing fails the test. */
export const errorOf = (load: () => unknown): string => {
  try {
    load();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected the load to fail');
};
