//! One module per bench section (issues 3 to 8, 14, 16, 17 and 28), and `field`, the shared builder of big events.

pub mod attacks;
pub mod card_text;
pub mod cards;
pub mod clock;
pub mod demo;
pub mod device;
pub mod field;
pub mod library;
pub mod listings;
pub mod live;
pub mod movement;
pub mod pairing;
pub mod serve;
pub mod serve_bounds;
pub mod serve_hostile;
pub mod serve_venue;
pub mod standby;
pub mod standings;
pub mod table;
