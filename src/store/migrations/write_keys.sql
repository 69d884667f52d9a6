-- A write's key (the `Idempotency-Key` a phone sends, or a form's `idempotency_key`): the first outcome of a
-- write sent with it, kept for the event's duration so that a repeat is answered again and recorded nothing
-- more. Scoped by who sent it (a judge's name, a player as the audit names them) and the route. `body` is a
-- fingerprint of the fields sent (a repeat with other fields is refused); `audit_id` is the write the key made,
-- recorded in the same transaction; `status` and `answer` are what was answered (NULL until answered: a
-- server stopped in between answers a repeat from the audit's summary).
CREATE TABLE write_key (
    scope    TEXT NOT NULL,
    route    TEXT NOT NULL,
    key      TEXT NOT NULL,
    body     TEXT NOT NULL,
    audit_id INTEGER NOT NULL REFERENCES audit(id),
    status   INTEGER,
    answer   TEXT,
    PRIMARY KEY (scope, route, key)
) WITHOUT ROWID;
