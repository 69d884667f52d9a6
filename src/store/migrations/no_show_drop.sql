-- The player a `no-show` result dropped (the absent loser), so fixing or clearing that result can take the drop
-- back; any drop or undrop made otherwise (`player drop`, `player undrop`) clears it.
ALTER TABLE match ADD COLUMN no_show_dropped INTEGER;
