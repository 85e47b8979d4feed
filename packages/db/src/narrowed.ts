/**
 * A table as its migrations make it (the generated `tables.generated.ts` of a service), with some
 * columns narrowed to what the code knows better than PostgreSQL's catalog: a status union for a
 * text column a check constraint bounds, a format name, the shape of a jsonb value. Every narrowed
 * name must be a column of the table, so a column that a migration drops or renames stops the
 * build where the service still names it.
 */
export type Narrowed<Table, Narrow extends { [K in keyof Narrow]: K extends keyof Table ? unknown : never }> = Omit<Table, keyof Narrow> & Narrow;
