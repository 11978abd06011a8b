import type { ChangeRequest } from '@ensign/core';
import test from 'ava';
import { actionsIn, approvalsText, changeIndexOf, messageOfChange, ownDraft, protectedNamespaceOf, shortPath } from '../src/lib/change-requests.js';

const request = (id: string, state: ChangeRequest['state'], authenticationId?: string): Pick<ChangeRequest, 'state' | 'author'> & { id: string } => ({
  id,
  state,
  ...(authenticationId === undefined ? {} : { author: { authenticationId, method: 'METHOD_TOKEN' } }),
});

test('the caller’s draft is the first draft they wrote; with authentication off, the first without an author', (t) => {
  const list = [request('a', 'draft', 'bob'), request('b', 'in_review', 'alice'), request('c', 'draft', 'alice'), request('d', 'draft', 'alice'), request('e', 'draft')];
  t.is(ownDraft(list, 'alice')?.id, 'c');
  t.is(ownDraft(list, 'carol'), undefined);
  t.is(ownDraft(list, undefined)?.id, 'e');
});

test('what each state allows', (t) => {
  t.like(actionsIn('draft'), { submit: true, approve: false, apply: false, cancel: true, edit: true });
  t.like(actionsIn('in_review'), { submit: false, approve: true, reject: true, apply: false, cancel: true });
  t.like(actionsIn('approved'), { approve: true, apply: true, schedule: true, reject: true, cancel: true });
  t.like(actionsIn('scheduled'), { approve: false, apply: true, schedule: true, reject: true, cancel: true });
  for (const state of ['applied', 'rejected', 'cancelled'] as const) t.deepEqual(Object.values(actionsIn(state)), [false, false, false, false, false, false, false], state);
});

test('a protected namespace’s refusal names it', (t) => {
  t.is(protectedNamespaceOf('namespace "prod" is protected: changes to it are made through a change request (POST /api/v1/namespaces/prod/change-requests)'), 'prod');
  t.is(protectedNamespaceOf('flag "prod/x" not found'), undefined);
});

test('a refusal of one change of a request is said of that change alone', (t) => {
  const message = 'changes[2] (PUT /api/v1/namespaces/prod/flags/checkout): invalid field name: must not be empty';
  t.is(messageOfChange(message, 2), 'invalid field name: must not be empty');
  t.is(messageOfChange(message, 1), undefined);
  t.is(changeIndexOf(message), 2);
  t.is(changeIndexOf('invalid field changes[0].path: no PUT route of the API is "/x"'), 0);
  t.is(changeIndexOf('flag "prod/x" not found'), undefined);
});

test('approvals against the policy, and short paths', (t) => {
  t.is(approvalsText(0, 1), '0 of 1 approval');
  t.is(approvalsText(1, 2), '1 of 2 approvals');
  t.is(approvalsText(0, 0), '0 of 1 approval', 'a request needs at least one');
  t.is(shortPath({ method: 'PUT', path: '/api/v1/namespaces/prod/flags/checkout' }, 'prod'), 'flags/checkout');
});
