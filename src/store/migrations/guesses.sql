-- What a phone may still guess (see src/web/kit/limit.rs): each target's budget of wrong tries over every
-- address together, kept in the file so that neither a restart nor a failover gives a guesser fresh tries.
-- `target` is `judge ID` (a judge's PIN) or `player ID` (a player's code, at their table or at check-in);
-- `level` is the wrong tries still counted, which drain at the target's rate from `at_ms` (Unix milliseconds of
-- the last wrong try). One row a target, rewritten in place by each wrong try (no audit entry: a wrong try is
-- not an event's change). Setting a new PIN or code deletes its target's row: a new secret starts afresh.
CREATE TABLE guess_budget (
    target TEXT PRIMARY KEY,
    level  REAL NOT NULL,
    at_ms  INTEGER NOT NULL
) STRICT;

-- The devices that succeeded for a target (their device cookie's hash: see docs/http.md): never refused once the
-- target's budget is spent.
CREATE TABLE guess_device (
    target TEXT NOT NULL,
    device TEXT NOT NULL,
    PRIMARY KEY (target, device)
) STRICT;
