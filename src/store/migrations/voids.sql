-- Corrections: a record a judge entered by mistake is voided, never deleted. The void is its own fact (who,
-- when, why) in its own table, so the record stays exactly as it was written and listings show it marked,
-- while every count (upgrades, the challenge limit, MM.3e, round time, stalls) leaves it out.
-- `kind` names the record's table: penalty, challenge, ruling, note (template_note), extension, stall.
CREATE TABLE void (
    kind      TEXT NOT NULL CHECK (kind IN ('penalty', 'challenge', 'ruling', 'note', 'extension', 'stall')),
    record_id INTEGER NOT NULL,
    at        TEXT NOT NULL,
    judge     TEXT NOT NULL,
    reason    TEXT,
    PRIMARY KEY (kind, record_id)
) STRICT;

-- A record that goes (a note taken back with `note undo`, a round taken back) takes its void with it.
CREATE TRIGGER void_of_penalty AFTER DELETE ON penalty
BEGIN DELETE FROM void WHERE kind = 'penalty' AND record_id = OLD.id; END;
CREATE TRIGGER void_of_challenge AFTER DELETE ON challenge
BEGIN DELETE FROM void WHERE kind = 'challenge' AND record_id = OLD.id; END;
CREATE TRIGGER void_of_ruling AFTER DELETE ON ruling
BEGIN DELETE FROM void WHERE kind = 'ruling' AND record_id = OLD.id; END;
CREATE TRIGGER void_of_note AFTER DELETE ON template_note
BEGIN DELETE FROM void WHERE kind = 'note' AND record_id = OLD.id; END;
CREATE TRIGGER void_of_extension AFTER DELETE ON extension
BEGIN DELETE FROM void WHERE kind = 'extension' AND record_id = OLD.id; END;
CREATE TRIGGER void_of_stall AFTER DELETE ON stall
BEGIN DELETE FROM void WHERE kind = 'stall' AND record_id = OLD.id; END;
