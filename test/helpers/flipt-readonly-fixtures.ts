/**
 * Flipt's readonly integration test data (build/testing/integration/readonly/testdata at v1.61.1),
 * kept as Flipt wrote it under test/fixtures/flipt-readonly.
 */
import { join } from 'node:path';
import { repositoryRoot } from '@ensign/testkit';

/** `main` is what Flipt's suite serves; `alternate` is its other git branch, read through `reference`. */
export type ReadonlyTree = 'main' | 'alternate';

/** The directory Flipt serves declaratively (its `.flipt.yml` lists the files). */
export const fliptReadonlyDir = (tree: ReadonlyTree): string => join(repositoryRoot, 'test/fixtures/flipt-readonly', tree);

/** The files of a tree, one namespace each, in the order Flipt's suite imports them. */
export const FLIPT_READONLY_FILES = ['default.yaml', 'production.yaml'] as const;

/** The namespace each file holds. */
export const namespaceOfFile = (file: (typeof FLIPT_READONLY_FILES)[number]): string => file.replace(/\.yaml$/, '');
