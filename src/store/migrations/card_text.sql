-- What cards say: Oracle text (a multi-face card's faces joined by a `//` line), power/toughness, loyalty,
-- Scryfall's Oracle id (to match Scryfall's rulings file) and the official rulings.
ALTER TABLE card ADD COLUMN text TEXT;
ALTER TABLE card ADD COLUMN power TEXT;
ALTER TABLE card ADD COLUMN toughness TEXT;
ALTER TABLE card ADD COLUMN loyalty TEXT;
ALTER TABLE card ADD COLUMN oracle_id TEXT;
CREATE INDEX card_by_oracle_id ON card(oracle_id);

ALTER TABLE card_face ADD COLUMN text TEXT;
ALTER TABLE card_face ADD COLUMN power TEXT;
ALTER TABLE card_face ADD COLUMN toughness TEXT;
ALTER TABLE card_face ADD COLUMN loyalty TEXT;

CREATE TABLE card_ruling (
    card_id INTEGER NOT NULL REFERENCES card(id) ON DELETE CASCADE,
    idx     INTEGER NOT NULL,
    date    TEXT NOT NULL,
    text    TEXT NOT NULL,
    PRIMARY KEY (card_id, idx)
) STRICT;

-- Full-text index of card names, type lines and texts (rowid = card.id), kept in step with `card` by triggers.
CREATE VIRTUAL TABLE card_fts USING fts5(name, type_line, text, tokenize = 'porter unicode61 remove_diacritics 2');
INSERT INTO card_fts (rowid, name, type_line, text) SELECT id, name, type_line, coalesce(text, '') FROM card;
CREATE TRIGGER card_fts_insert AFTER INSERT ON card BEGIN
    INSERT INTO card_fts (rowid, name, type_line, text) VALUES (new.id, new.name, new.type_line, coalesce(new.text, ''));
END;
CREATE TRIGGER card_fts_delete AFTER DELETE ON card BEGIN
    DELETE FROM card_fts WHERE rowid = old.id;
END;
CREATE TRIGGER card_fts_update AFTER UPDATE OF name, type_line, text ON card BEGIN
    DELETE FROM card_fts WHERE rowid = old.id;
    INSERT INTO card_fts (rowid, name, type_line, text) VALUES (new.id, new.name, new.type_line, coalesce(new.text, ''));
END;
