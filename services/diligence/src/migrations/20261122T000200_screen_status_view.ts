import type { Kysely } from 'kysely';
import { statements } from '@landscreen/db';

// D21: the pipeline board shows each card's job status as `screen_status`. This view is the
// diligence schema's published read model for it: the pipeline service joins it (reads only) and
// never sees the job table itself, so diligence may change its tables behind it.
export const up = (db: Kysely<any>) =>
  statements(
    `create view diligence.screen_statuses as
      select tenant_id, property_id, id as job_id, status from diligence.jobs`,
  )(db);

export const down = (db: Kysely<any>) => statements('drop view diligence.screen_statuses')(db);
