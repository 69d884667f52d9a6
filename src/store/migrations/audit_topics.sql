-- What each write changed, as the live server tells phones: one row per topic the write names (`round`,
-- `result`, `clock`, `note`, `call`, `self-report`), with the round, table and player it concerns where they
-- apply (NULL: the whole event, round or table). Written with the audit entry, in the same transaction; a write
-- no page shows (a login, the card reference) has none.
CREATE TABLE audit_topic (
    audit_id  INTEGER NOT NULL REFERENCES audit(id) ON DELETE CASCADE,
    topic     TEXT NOT NULL,
    round     INTEGER,
    table_no  INTEGER,
    player_id INTEGER REFERENCES player(id) ON DELETE SET NULL
) STRICT;

CREATE INDEX audit_topic_by_audit ON audit_topic (audit_id);
CREATE INDEX audit_topic_by_player ON audit_topic (player_id) WHERE player_id IS NOT NULL;
