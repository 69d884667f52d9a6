-- The turn a game was on when time was called (`result TABLE --by time --turn N`), as the result slip asks.
ALTER TABLE match ADD COLUMN turn_at_time INTEGER CHECK (turn_at_time IS NULL OR turn_at_time BETWEEN 1 AND 999);
