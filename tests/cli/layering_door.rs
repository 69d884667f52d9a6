//! The one door (#45): every change the server makes to the event file passes it (see `src/web/kit/door.rs`),
//! checked by reading `src/` as text, as `layering.rs` does.

use crate::layering::{code_of, rust_files};
use std::path::Path;

/// Every change the server makes to the event file passes one door (`web::kit::door::Db::run_settled`, a job's
/// too: `web::kit::write::job_run` runs its work through it): the change with its audit row in one transaction,
/// then the standby settles it before the answer. Checked here:
/// 1. the store's event writes (`Store::write`, `Store::write_keyed`) are called only by `ops` (and the store's
///    own tests): no front end, no second-laptop code writes the event but through an `ops` call;
/// 2. the lower half of the door (`Store::lower_half`: a transaction without an audit row and without waiting
///    for the standby) is called only for the sign-ins' bookkeeping that is no event change, in
///    `src/ops/guesses.rs` (wrong tries, known devices);
/// 3. what a write committed (`Store::take_committed`, `Store::settle_all`) is taken only by the door;
/// 4. in `src/web/`, the event file is opened only by the door, the server's start and the second laptop's
///    bookkeeping (which writes with `Store::bookkeep` only: acknowledgements, "the event moved");
/// 5. one idempotency mechanism, the file's write keys: a key is recorded only with its write, by
///    `Store::write_keyed` (a request's write) or, for a job, `write_keys::key_job` (the key taken with the job's
///    one write), called only by the job runner (`src/web/kit/write.rs`); no other key is kept in memory.
#[test]
fn every_write_of_the_server_passes_the_one_door() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    const LOWER_HALF: [&str; 1] = ["src/ops/guesses.rs"];
    const DOOR: [&str; 2] = ["src/web/kit/door.rs", "src/web/kit/write.rs"];
    const OPENS: [&str; 4] = ["src/web/kit/state.rs", "src/web/mod.rs", "src/web/laptops.rs", "src/web/standby.rs"];
    let mut problems = Vec::new();
    for file in rust_files(&src) {
        let rel = file.strip_prefix(&src).unwrap_or(&file);
        let name = format!("src/{}", rel.to_string_lossy().replace('\\', "/"));
        let code = code_of(&std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{name}: {e}")));
        let in_ops_or_store = name.starts_with("src/ops/") || name.starts_with("src/store/");
        for write in [".write_keyed(", "store.write(", ".write(actor", ".write(&actor"] {
            if !in_ops_or_store && code.contains(write) {
                problems.push(format!(
                    "  {name} calls the store's write ({write}): call an `ops` function through the door"
                ));
            }
        }
        if code.contains(".lower_half(") && !LOWER_HALF.contains(&name.as_str()) && !name.starts_with("src/store/") {
            problems.push(format!(
                "  {name} calls the lower half (Store::lower_half): an event change is a Store::write, settled by the door"
            ));
        }
        for taken in [".take_committed(", ".settle_all("] {
            if code.contains(taken) && !DOOR.contains(&name.as_str()) && !name.starts_with("src/store/") {
                problems.push(format!("  {name} takes what a write committed ({taken}): only the door settles it"));
            }
        }
        // A judge's login and logout: the door without the wait (a session ends with a promotion anyway).
        const SESSIONS: [&str; 3] = ["src/web/kit/door.rs", "src/web/kit/auth.rs", "src/web/judges/mod.rs"];
        if code.contains(".run_session(") && !SESSIONS.contains(&name.as_str()) {
            problems.push(format!(
                "  {name} writes without waiting for the standby (run_session): only logins and logouts do"
            ));
        }
        let job_key = code.contains("key_job(") || code.contains(".key_next_write(");
        if job_key
            && !["src/web/kit/write.rs", "src/ops/write_keys.rs"].contains(&name.as_str())
            && !name.starts_with("src/store/")
        {
            problems.push(format!(
                "  {name} records a job's key: only the job runner does (web::kit::write::job_run), with the job's write"
            ));
        }
        if name.starts_with("src/web/") && (code.contains("take_key(") || code.contains("keys: Mutex<")) {
            problems.push(format!(
                "  {name} keeps write keys in memory: a key is the event file's (write_keys), held by a job under way"
            ));
        }
        if name.starts_with("src/web/") && code.contains("Store::open(") && !OPENS.contains(&name.as_str()) {
            problems.push(format!(
                "  {name} opens the event file: a request reaches it through its door (web::kit::state::Db)"
            ));
        }
    }
    assert!(problems.is_empty(), "a write outside the one door (see tests/cli/layering.rs):\n{}", problems.join("\n"));
}
