//! Integration tests: run the real `mmjudge` binary on a temporary event file.
//! One module per command group; the harness is in `harness.rs`.

mod harness;
mod layering;

mod card_text;
mod cards;
mod challenge;
mod challenge_evidence;
mod clock;
mod clock_screen;
mod corrections;
mod curation;
mod demo;
mod event;
mod files;
mod full_disk;
mod inputs;
mod inspection;
mod judges;
mod late_entry;
mod library;
mod library_tables;
mod moments;
mod movement;
mod names;
mod notes;
mod penalty;
mod player;
mod pool;
mod prints;
mod projector;
mod props;
mod report;
mod result;
mod round;
mod self_reports;
mod serve;
mod serve_load;
mod serve_security;
mod serve_table;
mod site;
mod snapshots;
mod standings;
mod table_device;
mod voids;
mod wording;
