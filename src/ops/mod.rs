//! Judge actions: the rule checks and store calls of one action each, with typed input and outcome (no
//! command-line types, no printing). `commands` parses, calls one of these, and renders the outcome.

pub mod card_names;
pub mod card_reference;
pub mod cards;
pub mod corrections;
pub mod curation;
pub mod demo;
pub mod event;
pub mod guesses;
pub mod judges;
pub mod library;
pub mod live;
pub mod log;
pub mod pairings;
pub mod played;
pub mod player_names;
pub mod players;
pub mod pool;
pub mod projector;
pub mod reports;
pub mod round;
pub mod said;
pub mod settings;
pub mod setup_steps;
pub mod site;
pub mod standby;
pub mod standings;
pub mod table;
pub mod views;
pub mod write_keys;
