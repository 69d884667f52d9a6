-- The match table's result check, as comparisons instead of `result IN ('A', 'B', 'draw')`: SQLite checks an
-- IN list of three values through a temporary table built on every insert and every update of a match (about
-- 14 % of `round pair` at 4,096 players). The rule is the same and no stored row changes, so only the text of
-- the check is rewritten, the way SQLite's documentation allows for a CHECK constraint (a writable schema,
-- then the schema reloaded; a table made and dropped moves the schema's version on, so that every other
-- connection to the file reads the schema again).
PRAGMA writable_schema = ON;
UPDATE sqlite_schema
   SET sql = replace(sql, 'CHECK (result IN (''A'', ''B'', ''draw''))',
                          'CHECK (result = ''A'' OR result = ''B'' OR result = ''draw'')')
 WHERE type = 'table' AND name = 'match';
PRAGMA writable_schema = RESET;
CREATE TABLE schema_reread (x);
DROP TABLE schema_reread;
