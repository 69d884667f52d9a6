-- The key that signs a player's sign-in on their table's own device (32 random bytes in hex, made once). A
-- sign-in is a token the server gives the device when the player's code is checked once: it names the player and
-- the match and is signed with this key and the player's code (never kept anywhere), so a new code ends it. The
-- file keeps no sign-in: a standby holds the same key and takes the same tokens.
CREATE TABLE sign_in_key (
    one INTEGER PRIMARY KEY CHECK (one = 1),
    key TEXT NOT NULL
) STRICT;
INSERT INTO sign_in_key (one, key) VALUES (1, lower(hex(randomblob(32))));
