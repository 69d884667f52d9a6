-- Check-in (event setting `check-in`): when a player was checked in (by a judge, or by themselves with their code);
-- NULL while not. Players of an event already paired count as checked in (from round 1's pairing), as do players
-- added once round 1 is paired (see store::player::insert).
ALTER TABLE player ADD COLUMN checked_in_at TEXT;
-- Why a player dropped, while the drop stands: 'not-arrived' (`round pair --drop-absent`), 'no-show' (a no-show
-- result); NULL for a judge's `player drop` or no drop.
ALTER TABLE player ADD COLUMN drop_reason TEXT CHECK (drop_reason IN ('not-arrived', 'no-show'));

UPDATE player SET checked_in_at = (SELECT paired_at FROM round WHERE number = 1)
WHERE EXISTS (SELECT 1 FROM round WHERE number = 1);
UPDATE player SET drop_reason = 'no-show'
WHERE dropped_after IS NOT NULL AND id IN (SELECT no_show_dropped FROM match WHERE no_show_dropped IS NOT NULL);

-- When a player's standing drop was made (RFC 3339; NULL for a drop from before this was kept, or no drop), for the
-- player's own page ("you dropped after round 2, at 14:02").
ALTER TABLE player ADD COLUMN dropped_at TEXT;

-- A waiting self-report's number, which a player's confirmation names so that exactly that report is recorded: a
-- report replaced by its player gets a new, higher number.
ALTER TABLE self_report ADD COLUMN report_no INTEGER;
UPDATE self_report SET report_no = rowid;
