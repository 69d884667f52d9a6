//! One module per bench section (issues 3 to 8), and `field`, the shared builder of big events.

pub mod card_text;
pub mod cards;
pub mod clock;
pub mod demo;
pub mod field;
pub mod library;
pub mod listings;
pub mod movement;
pub mod pairing;
pub mod standings;
pub mod table;
