-- How a decision's start claimed its moment, when it was a replay from a page's queue: `unreachable` (its page
-- never got an answer, which cannot be checked) or `503` (an earlier try answered 503, checked against the status
-- the server kept with the key's first arrival). NULL for a start that arrived live, whose claim (if it sent one)
-- never shortens the decision. A self-report's device (its cookie's hash, NULL without one), the address it came
-- from and whether it was sent with a table's sign-in, so that a confirmation from the reporter's own device is
-- refused; and the results confirmed on a shared device or from the reporter's address, flagged for the other
-- player and the judges (`disputed_at`: when the confirming player said that is not what happened).
ALTER TABLE decision ADD COLUMN started_queued TEXT CHECK (started_queued IN ('unreachable', '503'));
ALTER TABLE self_report ADD COLUMN device TEXT;
ALTER TABLE self_report ADD COLUMN address TEXT;
ALTER TABLE self_report ADD COLUMN signed_in INTEGER NOT NULL DEFAULT 0;
CREATE TABLE result_flag (
    match_id     INTEGER PRIMARY KEY REFERENCES match(id) ON DELETE CASCADE,
    kind         TEXT NOT NULL CHECK (kind IN ('table-device', 'same-address')),
    reporter_id  INTEGER NOT NULL REFERENCES player(id) ON DELETE CASCADE,
    confirmer_id INTEGER NOT NULL REFERENCES player(id) ON DELETE CASCADE,
    at           TEXT NOT NULL,
    disputed_at  TEXT
) STRICT;
