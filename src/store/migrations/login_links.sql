-- One-time login links (`mmjudge judge link NAME`): for a judge on a new phone, typed nowhere (a QR code or a
-- link), so its 128-bit token needs no budget of wrong tries and logs in even when the judge's PIN budget is
-- spent by guessers. Kept only as the token's hash, with its end; used once (`used` set in the same transaction
-- as the session it opens). Removing the judge removes their links.
CREATE TABLE login_link (
    token_hash TEXT PRIMARY KEY,
    judge_id   INTEGER NOT NULL REFERENCES judge(id) ON DELETE CASCADE,
    created    TEXT NOT NULL,
    expires    TEXT NOT NULL,
    used       TEXT
) STRICT;
