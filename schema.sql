-- mmjudge: one Mental Magic event in one SQLite file.
-- This file is migration 0, embedded in the binary with include_str!. Later changes are appended as new
-- migrations in src/store/migrate.rs (keyed on PRAGMA user_version); this file never changes meaning.
-- Instants are RFC 3339 text in UTC ("2026-05-01T10:00:00Z" with optional fraction).

-- Event settings as key/value pairs; the keys, defaults and validation live in src/domain/settings.rs.
-- The event's name and creation instant are the settings `name` and `created`.
CREATE TABLE setting (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) STRICT;

-- The audit log: one row per command that wrote anything (who, when, which command line, what changed).
CREATE TABLE audit (
    id           INTEGER PRIMARY KEY,
    at           TEXT NOT NULL,
    judge        TEXT NOT NULL,
    command_line TEXT NOT NULL,
    summary      TEXT NOT NULL
) STRICT;

-- Which players an audit entry concerns (for `log --player`).
CREATE TABLE audit_player (
    audit_id  INTEGER NOT NULL REFERENCES audit(id) ON DELETE CASCADE,
    player_id INTEGER NOT NULL REFERENCES player(id) ON DELETE CASCADE,
    PRIMARY KEY (audit_id, player_id)
) STRICT;

-- Players of the event. `name_key` is the trimmed, case-folded name that must be unique.
-- `joined_round` is the first round the player can be paired in (late entries join the next pairing);
-- `dropped_after` is the last round the player played before dropping.
CREATE TABLE player (
    id            INTEGER PRIMARY KEY,
    name          TEXT NOT NULL,
    name_key      TEXT NOT NULL UNIQUE,
    ext_id        TEXT,
    email         TEXT,
    joined_round  INTEGER NOT NULL DEFAULT 1,
    dropped_after INTEGER,
    disqualified  INTEGER NOT NULL DEFAULT 0 CHECK (disqualified IN (0, 1))
) STRICT;

-- The card reference: every real card a player may declare. Replaced whole by `cards import`.
-- `kinds` lists excluded kinds space-separated (joke digital ante portal); `name_fold` is the folded name
-- used for lookups (see domain::names::fold).
CREATE TABLE card (
    id        INTEGER PRIMARY KEY,
    name      TEXT NOT NULL UNIQUE,
    name_fold TEXT NOT NULL,
    mana_cost TEXT,
    type_line TEXT NOT NULL,
    layout    TEXT NOT NULL DEFAULT 'normal',
    is_land   INTEGER NOT NULL DEFAULT 0,
    is_basic  INTEGER NOT NULL DEFAULT 0,
    kinds     TEXT NOT NULL DEFAULT '',
    sets      TEXT NOT NULL DEFAULT ''
) STRICT;
CREATE INDEX card_by_fold ON card(name_fold);
CREATE INDEX card_by_name_nocase ON card(name COLLATE NOCASE);

-- The faces of split, double-faced, adventure and flip cards (none for ordinary cards).
CREATE TABLE card_face (
    card_id   INTEGER NOT NULL REFERENCES card(id) ON DELETE CASCADE,
    idx       INTEGER NOT NULL,
    name      TEXT NOT NULL,
    mana_cost TEXT,
    type_line TEXT NOT NULL,
    PRIMARY KEY (card_id, idx)
) STRICT;

-- Binding-class keys per binding rule (domain::binding::binding_keys): two cards may stand for each other
-- when they share a key. `combined_only` marks keys that exist only through a split card's combined cost.
CREATE TABLE card_key (
    rule          TEXT NOT NULL,
    key           TEXT NOT NULL,
    card_id       INTEGER NOT NULL REFERENCES card(id) ON DELETE CASCADE,
    combined_only INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (rule, key, card_id)
) STRICT, WITHOUT ROWID;

-- The event's ban list (seeded with the ruleset's default list when the event is created).
CREATE TABLE ban (
    card_name TEXT PRIMARY KEY COLLATE NOCASE,
    grp       TEXT NOT NULL,
    reason    TEXT NOT NULL
) STRICT;

-- The judges' physical card pool. One row per distinct card, with its number of copies.
CREATE TABLE pool_card (
    id        INTEGER PRIMARY KEY,
    name      TEXT NOT NULL UNIQUE COLLATE NOCASE,
    mana_cost TEXT,
    type_line TEXT NOT NULL,
    copies    INTEGER NOT NULL CHECK (copies >= 0),
    is_land   INTEGER NOT NULL DEFAULT 0,
    excluded  INTEGER NOT NULL DEFAULT 0,
    known     INTEGER NOT NULL DEFAULT 1
) STRICT;

-- Cards the judges watch for abuse (a cost whose class holds one is flagged abusive).
CREATE TABLE watch (
    card_name TEXT PRIMARY KEY COLLATE NOCASE,
    note      TEXT NOT NULL DEFAULT ''
) STRICT;

-- Libraries: fixed at a table and seat ('A' or 'B'), or (sealed events) travelling with a player.
CREATE TABLE library (
    id        INTEGER PRIMARY KEY,
    table_no  INTEGER,
    seat      TEXT CHECK (seat IN ('A', 'B')),
    player_id INTEGER REFERENCES player(id),
    utopia    INTEGER NOT NULL DEFAULT 30,
    UNIQUE (table_no, seat)
) STRICT;

-- The physical copies in each main library (one row per copy) and sealed sideboards.
CREATE TABLE library_card (
    library_id INTEGER NOT NULL REFERENCES library(id) ON DELETE CASCADE,
    position   INTEGER NOT NULL,
    pool_id    INTEGER REFERENCES pool_card(id),
    name       TEXT NOT NULL,
    mana_cost  TEXT,
    sideboard  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (library_id, position)
) STRICT;

-- Rounds that have been paired; the clock columns are set by `round start` / `round end`.
CREATE TABLE round (
    number     INTEGER PRIMARY KEY,
    movement   TEXT NOT NULL,
    paired_at  TEXT NOT NULL,
    started_at TEXT,
    ended_at   TEXT
) STRICT;

-- Matches (one game each). A bye is a row with b_player NULL and table_no NULL, result 'A', reason 'bye'.
-- result: 'A' (seat A won), 'B', 'draw', or NULL while playing.
CREATE TABLE match (
    id        INTEGER PRIMARY KEY,
    round     INTEGER NOT NULL REFERENCES round(number) ON DELETE CASCADE,
    table_no  INTEGER,
    a_player  INTEGER NOT NULL REFERENCES player(id),
    b_player  INTEGER REFERENCES player(id),
    a_library INTEGER REFERENCES library(id),
    b_library INTEGER REFERENCES library(id),
    result    TEXT CHECK (result IN ('A', 'B', 'draw')),
    reason    TEXT,
    life_a    INTEGER,
    life_b    INTEGER,
    note      TEXT,
    result_at TEXT,
    UNIQUE (round, table_no)
) STRICT;
CREATE INDEX match_by_a ON match(a_player);
CREATE INDEX match_by_b ON match(b_player);

-- Template notes: declarations made in a game (`B1: Demonic Tutor`), or unnamed cards of a cost.
CREATE TABLE template_note (
    id        INTEGER PRIMARY KEY,
    match_id  INTEGER NOT NULL REFERENCES match(id) ON DELETE CASCADE,
    player_id INTEGER NOT NULL REFERENCES player(id),
    cost      TEXT NOT NULL,
    card_name TEXT,
    at        TEXT NOT NULL
) STRICT;
CREATE INDEX note_by_match ON template_note(match_id);

-- Challenges heard by a judge. `loser` is the player whose position lost.
CREATE TABLE challenge (
    id         INTEGER PRIMARY KEY,
    match_id   INTEGER NOT NULL REFERENCES match(id) ON DELETE CASCADE,
    by_player  INTEGER NOT NULL REFERENCES player(id),
    about      TEXT NOT NULL,
    by_says    TEXT,
    other_says TEXT,
    ruling     TEXT NOT NULL CHECK (ruling IN ('upheld', 'denied')),
    loser      INTEGER NOT NULL REFERENCES player(id),
    judge      TEXT NOT NULL,
    at         TEXT NOT NULL
) STRICT;

-- The notes a judge used as evidence for a challenge.
CREATE TABLE challenge_evidence (
    challenge_id INTEGER NOT NULL REFERENCES challenge(id) ON DELETE CASCADE,
    note_id      INTEGER NOT NULL REFERENCES template_note(id) ON DELETE CASCADE,
    PRIMARY KEY (challenge_id, note_id)
) STRICT;

-- Penalties after the infraction procedure guide; `upgraded` explains an upgrade.
CREATE TABLE penalty (
    id         INTEGER PRIMARY KEY,
    player_id  INTEGER NOT NULL REFERENCES player(id),
    match_id   INTEGER REFERENCES match(id) ON DELETE SET NULL,
    infraction TEXT NOT NULL,
    penalty    TEXT NOT NULL,
    upgraded   TEXT,
    note       TEXT,
    judge      TEXT NOT NULL,
    at         TEXT NOT NULL
) STRICT;

-- Judges' rulings that are not penalties.
CREATE TABLE ruling (
    id       INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES match(id) ON DELETE CASCADE,
    text     TEXT NOT NULL,
    judge    TEXT NOT NULL,
    at       TEXT NOT NULL
) STRICT;

-- Extra round time for one table (judge calls, deck checks, long pauses of the decision clock).
CREATE TABLE extension (
    id       INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES match(id) ON DELETE CASCADE,
    seconds  INTEGER NOT NULL CHECK (seconds > 0),
    reason   TEXT NOT NULL,
    at       TEXT NOT NULL
) STRICT;

-- Timed decisions. A row with ended_at NULL is the decision in progress at that table.
-- overrun_ms > 0 is a possible slow-play/stalling event for a judge to review.
CREATE TABLE decision (
    id          INTEGER PRIMARY KEY,
    match_id    INTEGER NOT NULL REFERENCES match(id) ON DELETE CASCADE,
    player_id   INTEGER NOT NULL REFERENCES player(id),
    started_at  TEXT NOT NULL,
    ended_at    TEXT,
    duration_ms INTEGER,
    limit_ms    INTEGER,
    overrun_ms  INTEGER
) STRICT;
CREATE INDEX decision_by_match ON decision(match_id);

-- Stalls logged on the spot from the live clock (`s`), for a judge to review.
CREATE TABLE stall (
    id        INTEGER PRIMARY KEY,
    match_id  INTEGER NOT NULL REFERENCES match(id) ON DELETE CASCADE,
    player_id INTEGER NOT NULL REFERENCES player(id),
    at        TEXT NOT NULL
) STRICT;
