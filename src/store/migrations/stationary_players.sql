-- A player who stays at one table every round (`player seat NAME --table N`): their game is played there and its
-- libraries are carried to it.
ALTER TABLE player ADD COLUMN stays_at INTEGER CHECK (stays_at IS NULL OR stays_at >= 1);
