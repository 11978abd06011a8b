import type { Knex } from 'knex';
import { createTable, isSqlite, KEY } from './create-table.js';

/** Every table of the management API, and the protected `default` namespace. */
export const name = '0001_initial_schema';

type Table = Knex.CreateTableBuilder;

const ID = 36;
const STAMP = 32;
const ENUM = 40;

function timestamps(t: Table): void {
  t.string('created_at', STAMP).notNullable();
  t.string('updated_at', STAMP).notNullable();
}

export async function up(knex: Knex): Promise<void> {
  await createTable(knex, 'namespaces', (t) => {
    t.string('key', KEY).notNullable();
    t.primary(['key'], 'namespaces_pkey');
    t.text('name').notNullable();
    t.text('description').notNullable();
    t.boolean('protected').notNullable().defaultTo(false);
    t.bigInteger('revision').notNullable().defaultTo(1);
    t.string('state_modified_at', STAMP).notNullable();
    timestamps(t);
  });

  await createTable(knex, 'flags', (t) => {
    t.string('namespace_key', KEY).notNullable();
    t.string('key', KEY).notNullable();
    t.text('name').notNullable();
    t.text('description').notNullable();
    t.boolean('enabled').notNullable().defaultTo(false);
    t.string('type', ENUM).notNullable();
    t.string('default_variant_id', ID).nullable();
    t.text('metadata', 'mediumtext').nullable();
    timestamps(t);
    t.primary(['namespace_key', 'key'], 'flags_pkey');
    t.foreign('namespace_key', 'flags_namespace_fk').references('key').inTable('namespaces').onDelete('CASCADE');
    // SQLite cannot add a foreign key later, but resolves it lazily, so it is declared here.
    if (isSqlite(knex)) {
      t.foreign('default_variant_id', 'flags_default_variant_fk').references('id').inTable('variants').onDelete('SET NULL');
    }
  });

  await createTable(knex, 'variants', (t) => {
    t.string('id', ID).notNullable();
    t.primary(['id'], 'variants_pkey');
    t.string('namespace_key', KEY).notNullable();
    t.string('flag_key', KEY).notNullable();
    t.string('key', KEY).notNullable();
    t.text('name').notNullable();
    t.text('description').notNullable();
    t.text('attachment', 'mediumtext').nullable();
    timestamps(t);
    t.unique(['namespace_key', 'flag_key', 'key'], { indexName: 'variants_flag_key_uq' });
    t.foreign(['namespace_key', 'flag_key'], 'variants_flag_fk')
      .references(['namespace_key', 'key'])
      .inTable('flags')
      .onDelete('CASCADE');
  });

  if (!isSqlite(knex)) {
    await knex.schema.alterTable('flags', (t) => {
      t.foreign('default_variant_id', 'flags_default_variant_fk').references('id').inTable('variants').onDelete('SET NULL');
    });
  }

  await createTable(knex, 'segments', (t) => {
    t.string('namespace_key', KEY).notNullable();
    t.string('key', KEY).notNullable();
    t.text('name').notNullable();
    t.text('description').notNullable();
    t.string('match_type', ENUM).notNullable();
    timestamps(t);
    t.primary(['namespace_key', 'key'], 'segments_pkey');
    t.foreign('namespace_key', 'segments_namespace_fk').references('key').inTable('namespaces').onDelete('CASCADE');
  });

  await createTable(knex, 'constraints', (t) => {
    t.string('id', ID).notNullable();
    t.primary(['id'], 'constraints_pkey');
    t.string('namespace_key', KEY).notNullable();
    t.string('segment_key', KEY).notNullable();
    t.string('type', ENUM).notNullable();
    t.text('property').notNullable();
    t.string('operator', ENUM).notNullable();
    t.text('value', 'mediumtext').notNullable();
    t.text('description').notNullable();
    timestamps(t);
    t.foreign(['namespace_key', 'segment_key'], 'constraints_segment_fk')
      .references(['namespace_key', 'key'])
      .inTable('segments')
      .onDelete('CASCADE');
  });

  await createTable(knex, 'rules', (t) => {
    t.string('id', ID).notNullable();
    t.primary(['id'], 'rules_pkey');
    t.string('namespace_key', KEY).notNullable();
    t.string('flag_key', KEY).notNullable();
    t.integer('rank').notNullable();
    t.string('segment_operator', ENUM).notNullable();
    timestamps(t);
    t.index(['namespace_key', 'flag_key', 'rank'], 'rules_flag_rank_idx');
    t.foreign(['namespace_key', 'flag_key'], 'rules_flag_fk')
      .references(['namespace_key', 'key'])
      .inTable('flags')
      .onDelete('CASCADE');
  });

  // RESTRICT on the segment: a segment that a rule uses cannot be deleted.
  await createTable(knex, 'rule_segments', (t) => {
    t.string('rule_id', ID).notNullable();
    t.string('namespace_key', KEY).notNullable();
    t.string('segment_key', KEY).notNullable();
    t.integer('position').notNullable();
    t.primary(['rule_id', 'segment_key'], 'rule_segments_pkey');
    t.index(['namespace_key', 'segment_key'], 'rule_segments_segment_idx');
    t.foreign('rule_id', 'rule_segments_rule_fk').references('id').inTable('rules').onDelete('CASCADE');
    t.foreign(['namespace_key', 'segment_key'], 'rule_segments_segment_fk')
      .references(['namespace_key', 'key'])
      .inTable('segments')
      .onDelete('RESTRICT');
  });

  await createTable(knex, 'distributions', (t) => {
    t.string('id', ID).notNullable();
    t.primary(['id'], 'distributions_pkey');
    t.string('rule_id', ID).notNullable();
    t.string('variant_id', ID).notNullable();
    t.double('rollout').notNullable();
    timestamps(t);
    t.index(['rule_id'], 'distributions_rule_idx');
    t.index(['variant_id'], 'distributions_variant_idx');
    t.foreign('rule_id', 'distributions_rule_fk').references('id').inTable('rules').onDelete('CASCADE');
    t.foreign('variant_id', 'distributions_variant_fk').references('id').inTable('variants').onDelete('CASCADE');
  });

  await createTable(knex, 'rollouts', (t) => {
    t.string('id', ID).notNullable();
    t.primary(['id'], 'rollouts_pkey');
    t.string('namespace_key', KEY).notNullable();
    t.string('flag_key', KEY).notNullable();
    t.string('type', ENUM).notNullable();
    t.integer('rank').notNullable();
    t.text('description').notNullable();
    timestamps(t);
    t.index(['namespace_key', 'flag_key', 'rank'], 'rollouts_flag_rank_idx');
    t.foreign(['namespace_key', 'flag_key'], 'rollouts_flag_fk')
      .references(['namespace_key', 'key'])
      .inTable('flags')
      .onDelete('CASCADE');
  });

  await createTable(knex, 'rollout_thresholds', (t) => {
    t.string('rollout_id', ID).notNullable();
    t.primary(['rollout_id'], 'rollout_thresholds_pkey');
    t.double('percentage').notNullable();
    t.boolean('value').notNullable();
    t.foreign('rollout_id', 'rollout_thresholds_rollout_fk').references('id').inTable('rollouts').onDelete('CASCADE');
  });

  await createTable(knex, 'rollout_segments', (t) => {
    t.string('rollout_id', ID).notNullable();
    t.primary(['rollout_id'], 'rollout_segments_pkey');
    t.string('segment_operator', ENUM).notNullable();
    t.boolean('value').notNullable();
    t.foreign('rollout_id', 'rollout_segments_rollout_fk').references('id').inTable('rollouts').onDelete('CASCADE');
  });

  await createTable(knex, 'rollout_segment_references', (t) => {
    t.string('rollout_id', ID).notNullable();
    t.string('namespace_key', KEY).notNullable();
    t.string('segment_key', KEY).notNullable();
    t.integer('position').notNullable();
    t.primary(['rollout_id', 'segment_key'], 'rollout_segment_references_pkey');
    t.index(['namespace_key', 'segment_key'], 'rollout_segment_refs_segment_idx');
    t.foreign('rollout_id', 'rollout_segment_refs_rollout_fk')
      .references('rollout_id')
      .inTable('rollout_segments')
      .onDelete('CASCADE');
    t.foreign(['namespace_key', 'segment_key'], 'rollout_segment_refs_segment_fk')
      .references(['namespace_key', 'key'])
      .inTable('segments')
      .onDelete('RESTRICT');
  });

  const now = new Date().toISOString();
  await knex('namespaces').insert({
    key: 'default',
    name: 'Default',
    description: 'Default namespace',
    protected: true,
    revision: 1,
    state_modified_at: now,
    created_at: now,
    updated_at: now,
  });
}

export async function down(knex: Knex): Promise<void> {
  if (!isSqlite(knex)) {
    await knex.schema.alterTable('flags', (t) => t.dropForeign('default_variant_id', 'flags_default_variant_fk'));
  }
  for (const table of [
    'rollout_segment_references',
    'rollout_segments',
    'rollout_thresholds',
    'rollouts',
    'distributions',
    'rule_segments',
    'rules',
    'constraints',
    'segments',
    'variants',
    'flags',
    'namespaces',
  ]) {
    await knex.schema.dropTable(table);
  }
}
