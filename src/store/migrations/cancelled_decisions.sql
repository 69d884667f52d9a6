-- Decisions a judge cancelled (started by mistake): nothing is recorded for the player, but the cancellation is a
-- record of the match's clock, so a later start replayed from a page's queue cannot claim a moment before it.
CREATE TABLE cancelled_decision (
    id           INTEGER PRIMARY KEY,
    match_id     INTEGER NOT NULL REFERENCES match(id) ON DELETE CASCADE,
    player_id    INTEGER NOT NULL REFERENCES player(id),
    started_at   TEXT NOT NULL,
    cancelled_at TEXT NOT NULL
) STRICT;
CREATE INDEX cancelled_decision_by_match ON cancelled_decision(match_id);
