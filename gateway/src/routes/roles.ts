/** D8 roles and the groups the route table is written in (docs/roles.md shows the result). */
export const ROLES = ['admin', 'analyst', 'viewer', 'worker'] as const;
export type Role = (typeof ROLES)[number];

/** Everyone signed in. */
export const ANYONE: Role[] = ['admin', 'analyst', 'viewer', 'worker'];
/** `viewer` reads only. */
export const READERS: Role[] = ['admin', 'analyst', 'viewer'];
/** `analyst` reads and writes buy boxes, discovery, pipeline, leads. */
export const WRITERS: Role[] = ['admin', 'analyst'];
/** `admin` and `worker`: internal endpoints and reveal. */
export const INTERNAL: Role[] = ['admin', 'worker'];
