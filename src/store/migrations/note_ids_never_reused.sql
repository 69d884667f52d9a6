-- Note ids are never handed out twice: a note taken back with `note undo` keeps its number for good, so a
-- sheet, a challenge or the audit log that names "#12" never comes to mean another note.
-- `id_high_water` keeps the highest id ever given per table (a trigger raises it on every insert);
-- store::notes::insert takes the next id above both it and the table's current maximum.
CREATE TABLE id_high_water (
    tbl     TEXT PRIMARY KEY,
    last_id INTEGER NOT NULL
) STRICT;
INSERT INTO id_high_water (tbl, last_id) SELECT 'template_note', coalesce(max(id), 0) FROM template_note;
CREATE TRIGGER template_note_high_water AFTER INSERT ON template_note BEGIN
    UPDATE id_high_water SET last_id = max(last_id, NEW.id) WHERE tbl = 'template_note';
END;
