-- Players' codes for the table's own device and the players' pages: six digits, made when a player is added
-- (whatever adds the player: a trigger), kept so a slip can be printed again, renewed by `player code NAME --new`.
-- A code acts only together with its player's table, so codes need not differ between players.
CREATE TABLE player_code (
    player_id INTEGER PRIMARY KEY REFERENCES player(id) ON DELETE CASCADE,
    code      TEXT NOT NULL
) STRICT;

INSERT INTO player_code (player_id, code) SELECT id, printf('%06d', abs(random() % 1000000)) FROM player;

CREATE TRIGGER player_code_made AFTER INSERT ON player
BEGIN
    INSERT INTO player_code (player_id, code) VALUES (new.id, printf('%06d', abs(random() % 1000000)));
END;

-- A declaration sent from a table's device carries the device's own id for it: a retry is recorded once. The
-- first outcome is kept (as JSON) to answer the repeat; a note taken back takes its id with it.
CREATE TABLE note_client (
    match_id  INTEGER NOT NULL REFERENCES match(id) ON DELETE CASCADE,
    client_id TEXT NOT NULL,
    note_id   INTEGER NOT NULL REFERENCES template_note(id) ON DELETE CASCADE,
    outcome   TEXT NOT NULL,
    PRIMARY KEY (match_id, client_id)
) STRICT;
