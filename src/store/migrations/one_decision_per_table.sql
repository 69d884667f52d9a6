-- One decision per table: at most one decision without an end at a match, so the live screen and a second
-- terminal cannot both time a table. An older file could hold two running decisions at one table (two
-- terminals at once): all but the newest are closed where they began (zero length) before the index is made.
UPDATE decision SET ended_at = started_at, duration_ms = 0, limit_ms = 0, overrun_ms = 0
WHERE ended_at IS NULL
  AND EXISTS (SELECT 1 FROM decision AS later
              WHERE later.match_id = decision.match_id AND later.ended_at IS NULL AND later.id > decision.id);
CREATE UNIQUE INDEX decision_one_running ON decision(match_id) WHERE ended_at IS NULL;
