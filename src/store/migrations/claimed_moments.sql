-- A decision's moments claimed by a page's queue: a tap made while the network was down is sent later with the
-- moment it was made (`at`). For each end of a decision, `*_claimed_at` is the moment the page claimed and
-- `*_seen_at` when the server first saw the write (its first arrival, even one answered 503 or 429); both NULL
-- when the moment is the arrival itself or one a judge typed. The moment recorded (`started_at`, `ended_at`) is
-- the claim when it was taken, else the arrival: a start whose claim was taken (before its arrival) is a replay,
-- and only such a decision may be shortened by its stop's claim (the judges' table page shows both lengths).
ALTER TABLE decision ADD COLUMN started_claimed_at TEXT;
ALTER TABLE decision ADD COLUMN started_seen_at TEXT;
ALTER TABLE decision ADD COLUMN ended_claimed_at TEXT;
ALTER TABLE decision ADD COLUMN ended_seen_at TEXT;
