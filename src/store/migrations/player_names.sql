-- Players' names as the lookups and the duplicate checks read them (domain::names): `name_fold` is the folded
-- name typed names are matched against, `name_skeleton` the confusable skeleton that finds look-alike names.
-- Both are written with the name (store::player); NULL only until `fill_name_keys` has run after this
-- migration, which also recomputes `name_key` as domain::names::key (accents and invisible characters ignored).
ALTER TABLE player ADD COLUMN name_fold TEXT;
ALTER TABLE player ADD COLUMN name_skeleton TEXT;
CREATE INDEX player_by_fold ON player(name_fold);
CREATE INDEX player_by_skeleton ON player(name_skeleton);
