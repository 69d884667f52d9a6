//! The table's device and a player's page walked in headless Chromium at 390 px (`browser/table_answers.mjs`):
//! each declaration, take-back and call is answered beside its button, in view; a seat's old answer goes when the
//! other seat acts; Declare goes once the match is over. Skipped, saying so, where node, Chromium or the browser
//! checks' playwright-core (`scripts/browser/node_modules`, `npm ci` there) is missing.

use crate::cards::with_reference;
use crate::serve::{Server, codes};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Chromium: `$CHROMIUM`, else the system's.
fn chromium() -> Option<PathBuf> {
    let given = std::env::var_os("CHROMIUM").map(PathBuf::from);
    let known = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].map(PathBuf::from);
    given.into_iter().chain(known).find(|p| p.is_file())
}

#[test]
fn players_see_each_answer_beside_what_they_tapped_at_phone_width() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let playwright = root.join("scripts/browser/node_modules/playwright-core/index.mjs");
    let node = Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    let (Some(chromium), true, true) = (chromium(), node, playwright.is_file()) else {
        eprintln!(
            "note: node, Chromium or playwright-core (npm ci in scripts/browser) is missing; skipping the browser walk"
        );
        return;
    };
    let ev = with_reference();
    ev.seat_round(1, &[(1, "Ana", "Bo"), (2, "Cy", "Di")]);
    ev.run(&["round", "start"]).ok();
    let codes = serde_json::to_string(&codes(&ev)).expect("codes as JSON");
    let server = Server::start(&ev);
    let out = Command::new("node")
        .arg(root.join("tests/cli/browser/table_answers.mjs"))
        .env("BASE", format!("http://{}", server.addr))
        .env("CODES", codes)
        .env("CHROMIUM", chromium)
        .env("PLAYWRIGHT", playwright)
        .env("MMJUDGE", assert_cmd::cargo::cargo_bin("mmjudge"))
        .env("MMJUDGE_DB", ev.db())
        .output()
        .expect("node runs");
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{said}");
}
