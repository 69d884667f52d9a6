-- A second laptop answered synchronously (see `replication.sql`): `required`, whether the primary's server runs
-- with `--standby-required` (its command line then waits for the standby too); `detached_at`, when a head judge
-- said the second laptop is gone for good (writes go on alone until a new standby key); `follower_id`, on a
-- standby, the id it names itself by to its primary (one standby per key).
ALTER TABLE replication ADD COLUMN required INTEGER NOT NULL DEFAULT 0;
ALTER TABLE replication ADD COLUMN detached_at TEXT;
ALTER TABLE replication ADD COLUMN follower_id TEXT;
