//! Issue 8: 4,096 players after 12 rounds (fixed libraries, a few drops and disqualifications): `standings`
//! under 200 ms, `site` under 3 s as whole commands.

use super::field::{self, Plan};
use crate::{Figure, time_command};
use std::path::Path;
use std::time::Duration;

/// Builds the event and times the standings and the whole site.
pub fn run(dir: &Path, out: &mut Vec<Figure>) {
    let settings = &[("rounds", "12")];
    let plan = Plan { name: "standings", players: 4096, rounds: 12, playing: 0, libraries: true, settings };
    let (db, _) = field::build(dir, &plan, |_, _, _| {});
    field::drop_some(&db);
    let fast = Duration::from_millis(200);
    out.push(Figure::time("standings (4,096 players, 12 rounds)", time_command(&db, &["standings"], 9), fast));
    out.push(Figure::time("standings --json", time_command(&db, &["--json", "standings"], 9), fast));
    out.push(Figure::time("standings --round 6", time_command(&db, &["standings", "--round", "6"], 9), fast));
    let site = dir.join("site").to_string_lossy().into_owned();
    out.push(Figure::time(
        "site DIR (12 rounds, every page)",
        time_command(&db, &["site", &site], 3),
        Duration::from_secs(3),
    ));
}
