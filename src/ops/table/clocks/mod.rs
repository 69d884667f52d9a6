//! The decision clock at a table: starting, handing over and stopping a decision, the live clock screen, the
//! decisions' statistics and the stalls it logged.

pub mod claims;
pub mod clock;
pub mod decisions;
pub mod limits;
pub mod live;
pub mod stall;
