-- Updating a card in place (an import that adds to the reference) deletes its binding keys by card: without this
-- index each delete scanned every key of the reference, and re-importing 33,000 cards took many minutes.
CREATE INDEX card_key_by_card ON card_key(card_id);
