import test from 'ava';
import { emptyDraft } from '../src/lib/constraint-draft.js';
import { changesOf, constraintProblems, hasProblems, keyProblem, nameKeyProblems, withoutProblem } from '../src/lib/form-checks.js';

test('every problem of a name and key at once', (t) => {
  t.deepEqual(nameKeyProblems({ name: ' ', key: 'bad key!' }), {
    name: 'Enter a name.',
    key: 'Use only letters, digits, hyphens (-), underscores (_) and commas in the key.',
  });
  t.deepEqual(nameKeyProblems({ name: 'Beta', key: 'beta_1,-x' }), {});
  t.deepEqual(nameKeyProblems({ name: '', key: '' }, false), { name: 'Enter a name.' }, 'an existing key is not checked');
});

test('keys: required, the pattern, at most 255 characters', (t) => {
  t.is(keyProblem(''), 'Enter a key.');
  t.is(keyProblem('x'.repeat(256)), 'Shorten the key to 255 characters or fewer.');
  t.is(keyProblem(' ok '), undefined);
});

test('an edited field loses its problem; the others keep theirs', (t) => {
  const problems = { name: 'Enter a name.', key: 'Enter a key.' };
  t.deepEqual(withoutProblem(problems, 'name'), { key: 'Enter a key.' });
  t.is(withoutProblem(problems, 'description'), problems);
  t.deepEqual(changesOf({ name: 'a', key: 'a' }, { name: 'ab', key: 'a' }), { name: 'ab' });
  t.false(hasProblems({}));
});

test('a constraint needs a property and the value its operator compares with', (t) => {
  const draft = emptyDraft('UTC');
  t.deepEqual(constraintProblems(draft), { property: 'Enter a property, such as plan or country.', value: 'Enter a value.' });
  t.deepEqual(constraintProblems({ ...draft, property: 'plan', operator: 'present' }), {});
  t.deepEqual(constraintProblems({ ...draft, property: 'age', type: 'NUMBER_COMPARISON_TYPE', text: 'ten' }), { value: 'Enter a number, such as 42 or 3.5.' });
  t.deepEqual(constraintProblems({ ...draft, property: 'age', type: 'NUMBER_COMPARISON_TYPE', text: '' }, true), { value: 'Enter a number, such as 42 or 3.5.' });
  t.deepEqual(constraintProblems({ ...draft, property: 'plan', operator: 'isoneof', items: ['', ' '] }), { value: 'Enter at least one value.' });
  t.deepEqual(constraintProblems({ ...draft, property: 'at', type: 'DATETIME_COMPARISON_TYPE', operator: 'gt' }), { value: 'Enter a date and time.' });
});
