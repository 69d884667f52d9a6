-- Players' own word from `mmjudge serve`. A self-report is a result one player gives with their code; it counts
-- nowhere until the opponent gives the same one (then the match's result is recorded as a judge's would be) or
-- a judge records the result (which settles it: the match's reports are removed when any result is recorded).
-- One waiting report per player and match; a player's new report replaces their own.
CREATE TABLE self_report (
    match_id  INTEGER NOT NULL REFERENCES match(id) ON DELETE CASCADE,
    player_id INTEGER NOT NULL REFERENCES player(id) ON DELETE CASCADE,
    outcome   TEXT NOT NULL CHECK (outcome IN ('A', 'B', 'draw')),
    reason    TEXT NOT NULL,
    life_a    INTEGER,
    life_b    INTEGER,
    at        TEXT NOT NULL,
    PRIMARY KEY (match_id, player_id)
) STRICT;

-- A player calls a judge to their table; the call stays open until a judge closes it. One open call per match:
-- a second call from the table while one is open is the same call.
CREATE TABLE judge_call (
    id        INTEGER PRIMARY KEY,
    match_id  INTEGER NOT NULL REFERENCES match(id) ON DELETE CASCADE,
    player_id INTEGER NOT NULL REFERENCES player(id) ON DELETE CASCADE,
    at        TEXT NOT NULL,
    closed_at TEXT,
    closed_by TEXT
) STRICT;

CREATE UNIQUE INDEX judge_call_open ON judge_call (match_id) WHERE closed_at IS NULL;
