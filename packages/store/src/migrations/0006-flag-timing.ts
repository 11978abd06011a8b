import type { Knex } from 'knex';
import { createTable, KEY } from './create-table.js';

/**
 * Flags that follow the clock and each other: prerequisites on flags, validity windows on rules and
 * rollouts, ramps on threshold rollouts (JSON as text, NULL when unset), and `flag_steps`, every
 * moment a flag's evaluation changes by itself: the schedules users set (`schedule`) and the
 * window edges and ramp steps of its rules and rollouts (`window`, `ramp`), so each is taken once,
 * in order, by whichever control plane claims it first, and recorded as a change.
 */
export const name = '0006_flag_timing';

const STAMP = 32;
const ID = 36;
const ENUM = 40;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('flags', (t) => {
    t.text('prerequisites').nullable();
  });
  for (const table of ['rules', 'rollouts']) {
    await knex.schema.alterTable(table, (t) => {
      t.string('valid_from', STAMP).nullable();
      t.string('valid_until', STAMP).nullable();
    });
  }
  await knex.schema.alterTable('rollout_thresholds', (t) => {
    t.text('ramp').nullable();
  });
  await createTable(knex, 'flag_steps', (t) => {
    t.string('id', ID).notNullable();
    t.primary(['id'], 'flag_steps_pkey');
    t.string('namespace_key', KEY).notNullable();
    t.string('flag_key', KEY).notNullable();
    t.string('at', STAMP).notNullable();
    t.string('kind', ENUM).notNullable();
    /** The rule or rollout a window edge or ramp step belongs to; `''` for a schedule. */
    t.string('ref_id', ID).notNullable();
    t.boolean('enabled').nullable();
    t.text('detail').nullable();
    t.string('status', ENUM).notNullable();
    t.string('created_by_id', ID).nullable();
    t.string('created_by_method', ENUM).nullable();
    t.string('created_by_name', KEY).nullable();
    t.string('created_at', STAMP).notNullable();
    t.string('applied_at', STAMP).nullable();
    t.foreign(['namespace_key', 'flag_key'], 'flag_steps_flag_fk').references(['namespace_key', 'key']).inTable('flags').onDelete('CASCADE');
    t.index(['status', 'at'], 'flag_steps_due_idx');
    t.index(['namespace_key', 'flag_key', 'at'], 'flag_steps_flag_idx');
    t.index(['ref_id'], 'flag_steps_ref_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('flag_steps');
  await knex.schema.alterTable('rollout_thresholds', (t) => t.dropColumn('ramp'));
  for (const table of ['rules', 'rollouts']) {
    await knex.schema.alterTable(table, (t) => {
      t.dropColumn('valid_from');
      t.dropColumn('valid_until');
    });
  }
  await knex.schema.alterTable('flags', (t) => t.dropColumn('prerequisites'));
}
