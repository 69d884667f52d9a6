-- A second laptop (a standby) following the event: this file's own replication bookkeeping, never itself
-- replicated. One row: the event's id (16 random bytes in hex, so that a copy of another event is refused), the
-- generation (raised by each promotion: a primary that meets a higher one stops taking writes), this file's role
-- (`primary`, or `standby` of `primary_url`), `seq` (the last change written here, or applied here on a
-- standby), the standby key's hash (a primary's, argon2 like the judges' PINs), what the standby acknowledged and
-- when it was last heard (on a standby: when the primary was last heard, and the last change it announced),
-- `moved_to`, where the event went once another laptop was promoted, and `standby_url`, the address the
-- standby advertises (a primary checks it when it starts: the event may have moved there).
CREATE TABLE replication (
    one          INTEGER PRIMARY KEY CHECK (one = 1),
    event_id     TEXT NOT NULL,
    generation   INTEGER NOT NULL DEFAULT 1,
    role         TEXT NOT NULL DEFAULT 'primary' CHECK (role = 'primary' OR role = 'standby'),
    primary_url  TEXT,
    seq          INTEGER NOT NULL DEFAULT 0,
    key_hash     TEXT,
    acked_seq    INTEGER NOT NULL DEFAULT 0,
    heard_at     TEXT,
    primary_seq  INTEGER NOT NULL DEFAULT 0,
    moved_to     TEXT,
    standby_url  TEXT
) STRICT;
INSERT INTO replication (one, event_id) VALUES (1, lower(hex(randomblob(16))));

-- Each write's changes (an SQLite changeset) while a standby key exists, kept until the standby acknowledges it.
CREATE TABLE replication_log (
    seq        INTEGER PRIMARY KEY,
    generation INTEGER NOT NULL,
    at         TEXT NOT NULL,
    changeset  BLOB NOT NULL
) STRICT;
