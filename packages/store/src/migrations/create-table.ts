import type { Knex } from 'knex';

/** Column widths shared by every migration. */
export const KEY = 255;

export const isMysql = (knex: Knex): boolean => knex.client.dialect === 'mysql';
export const isSqlite = (knex: Knex): boolean => knex.client.dialect === 'sqlite3';

/** Creates a table; on MySQL with binary collation so keys compare exactly as on the other engines. */
export function createTable(knex: Knex, table: string, build: (t: Knex.CreateTableBuilder) => void): Knex.SchemaBuilder {
  return knex.schema.createTable(table, (t) => {
    if (isMysql(knex)) {
      t.engine('InnoDB');
      t.charset('utf8mb4');
      t.collate('utf8mb4_bin');
    }
    build(t);
  });
}
