//! Integration tests: run the real `mmjudge` binary on a temporary event file.
//! One module per command group; the harness is in `harness.rs`.

mod harness;

mod cards;
mod event;
mod movement;
mod player;
mod round;
