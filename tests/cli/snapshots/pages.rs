//! Every HTML output and written file of the fixed event at `NOW`: what the command printed, then each file
//! it wrote (one snapshot per file, named `<command line>__<file>`).

use super::{NOW, check, event, file, files_under, name_of, run, shown, shown_run, snap};
use crate::harness::Event;

/// Runs a command that writes one file, snapshots its reply and the file.
fn one_file(ev: &Event, args: &[&str], written: &str) {
    snap(ev, args);
    let name = format!("{}__{}", name_of(args), written);
    check(&name, &format!("{written} written by {} (at {NOW})", shown(args)), &file(ev, written));
}

/// Runs a command that writes a folder, snapshots its reply, the list of files and each file.
fn folder(ev: &Event, args: &[&str], dir: &str) {
    snap(ev, args);
    let files = files_under(ev, dir);
    let base = name_of(args);
    check(&format!("{base}__files"), &format!("the files {} writes into {dir}/", shown(args)), &files.join("\n"));
    for f in &files {
        let path = format!("{dir}/{f}");
        let name = format!("{base}__{}", f.replace('/', "__"));
        check(&name, &format!("{path} written by {} (at {NOW})", shown(args)), &file(ev, &path));
    }
}

#[test]
fn pairings_pages() {
    let ev = event();
    one_file(&ev, &["pairings", "--html", "pairings.html"], "pairings.html");
    one_file(&ev, &["pairings", "--round", "1", "--html", "round1.html"], "round1.html");
}

#[test]
fn note_sheet_pages() {
    let ev = event();
    one_file(&ev, &["notes", "1", "--round", "1", "--html", "table1.html"], "table1.html");
    one_file(&ev, &["notes", "2", "--html", "table2.html"], "table2.html");
}

#[test]
fn clock_page() {
    let ev = event();
    one_file(&ev, &["clock", "--html", "clock.html"], "clock.html");
}

#[test]
fn pool_check_page() {
    let ev = event();
    one_file(&ev, &["pool", "check", "--html", "check.html"], "check.html");
}

#[test]
fn library_report_page() {
    let ev = event();
    one_file(&ev, &["report", "libraries", "--html", "libraries.html"], "libraries.html");
}

#[test]
fn slow_play_page() {
    let ev = event();
    one_file(&ev, &["decisions", "--html", "slow.html"], "slow.html");
    one_file(&ev, &["decisions", "--html", "dmitri.html", "--player", "dmitri"], "dmitri.html");
}

#[test]
fn library_sheets() {
    let ev = event();
    folder(&ev, &["library", "sheets", "sheets"], "sheets");
}

#[test]
fn site_pages() {
    let ev = event();
    folder(&ev, &["site", "site", "--judges"], "site");
}

#[test]
fn public_site_pages() {
    let ev = event();
    folder(&ev, &["site", "public"], "public");
}

/// The demo's report (its timing redacted) and the list of files it writes; its pages are the site's.
#[test]
fn demo() {
    let ev = Event::empty();
    let args = ["demo", "--players", "8", "--rounds", "2", "--out", "out", "--db", "demo.db"];
    let mut shown_out = shown_run(&ev, &run(&ev, &args));
    if let Some(start) = shown_out.find("Done in ") {
        let end = shown_out[start..].find(" s.").map(|e| start + e).unwrap_or(start);
        shown_out.replace_range(start..end, "Done in [SECONDS]");
    }
    check(&name_of(&args), &format!("{} (at {NOW}; timing redacted)", shown(&args)), &shown_out);
    let files = files_under(&ev, "out");
    check(&format!("{}__files", name_of(&args)), "the files the demo writes into out/", &files.join("\n"));
}
