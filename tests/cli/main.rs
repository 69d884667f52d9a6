//! Integration tests: run the real `mmjudge` binary on a temporary event file.
//! One module per command group; the harness is in `harness.rs`.

mod harness;

mod card_text;
mod cards;
mod challenge;
mod clock;
mod clock_screen;
mod demo;
mod event;
mod library;
mod movement;
mod notes;
mod penalty;
mod player;
mod pool;
mod report;
mod result;
mod round;
mod site;
mod standings;
