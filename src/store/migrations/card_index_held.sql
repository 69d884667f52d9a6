-- A cards import writes thousands of cards in one transaction. Kept in step row by row, the full-text index wrote
-- a segment to the file for every card (FTS5 writes out what it holds at each statement's savepoint) and merged
-- them as it went: most of an import's time, and more the larger the reference. While `card_fts_held` holds its
-- row 0 (put and taken away by the import inside its own transaction, so never seen committed), the triggers only
-- note the cards touched, and the import indexes them all in one statement at its end
-- (`store::card_text::index_held`). Any other write keeps the index in step as before.
CREATE TABLE card_fts_held (card_id INTEGER PRIMARY KEY) STRICT;
DROP TRIGGER card_fts_insert;
DROP TRIGGER card_fts_delete;
DROP TRIGGER card_fts_update;
CREATE TRIGGER card_fts_insert AFTER INSERT ON card
WHEN NOT EXISTS (SELECT 1 FROM card_fts_held WHERE card_id = 0) BEGIN
    INSERT INTO card_fts (rowid, name, type_line, text) VALUES (new.id, new.name, new.type_line, coalesce(new.text, ''));
END;
CREATE TRIGGER card_fts_delete AFTER DELETE ON card
WHEN NOT EXISTS (SELECT 1 FROM card_fts_held WHERE card_id = 0) BEGIN
    DELETE FROM card_fts WHERE rowid = old.id;
END;
CREATE TRIGGER card_fts_update AFTER UPDATE OF name, type_line, text ON card
WHEN NOT EXISTS (SELECT 1 FROM card_fts_held WHERE card_id = 0) BEGIN
    DELETE FROM card_fts WHERE rowid = old.id;
    INSERT INTO card_fts (rowid, name, type_line, text) VALUES (new.id, new.name, new.type_line, coalesce(new.text, ''));
END;
CREATE TRIGGER card_fts_insert_held AFTER INSERT ON card
WHEN EXISTS (SELECT 1 FROM card_fts_held WHERE card_id = 0) BEGIN
    INSERT OR IGNORE INTO card_fts_held (card_id) VALUES (new.id);
END;
CREATE TRIGGER card_fts_delete_held AFTER DELETE ON card
WHEN EXISTS (SELECT 1 FROM card_fts_held WHERE card_id = 0) BEGIN
    INSERT OR IGNORE INTO card_fts_held (card_id) VALUES (old.id);
END;
CREATE TRIGGER card_fts_update_held AFTER UPDATE OF id, name, type_line, text ON card
WHEN EXISTS (SELECT 1 FROM card_fts_held WHERE card_id = 0) BEGIN
    INSERT OR IGNORE INTO card_fts_held (card_id) VALUES (old.id);
    INSERT OR IGNORE INTO card_fts_held (card_id) VALUES (new.id);
END;
