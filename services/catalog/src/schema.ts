/** The PostgreSQL schema this service owns. */
export const SCHEMA = 'catalog';
