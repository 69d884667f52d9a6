-- Judges who log in to the live server (`mmjudge serve`) from their phones: a name, a role and a PIN kept only
-- as an argon2 hash. A session is a random token kept only as its hash, with its form (CSRF) token and expiry;
-- removing a judge or renewing the PIN deletes the judge's sessions.
CREATE TABLE judge (
    id        INTEGER PRIMARY KEY,
    name      TEXT NOT NULL,
    name_key  TEXT NOT NULL UNIQUE,
    role      TEXT NOT NULL CHECK (role IN ('floor', 'head')),
    pin_hash  TEXT NOT NULL,
    created   TEXT NOT NULL
) STRICT;

CREATE TABLE judge_session (
    token_hash TEXT PRIMARY KEY,
    judge_id   INTEGER NOT NULL REFERENCES judge(id) ON DELETE CASCADE,
    csrf       TEXT NOT NULL,
    created    TEXT NOT NULL,
    expires    TEXT NOT NULL
) STRICT;

-- Where each write came from: `cli` for the command line, `web 192.168.1.23` for the server.
ALTER TABLE audit ADD COLUMN via TEXT NOT NULL DEFAULT 'cli';
