//! A full disk: every refusal says "the disk is full" with the path, and the event stays as it was. Needs a
//! small disk of its own (a tmpfs mounted as root); where that is not possible the test says so and passes.

use crate::harness::Event;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A 1 MB tmpfs mounted on a fresh folder, unmounted on drop; None where mounting is not possible.
struct SmallDisk(PathBuf);

impl SmallDisk {
    fn mount(at: &Path) -> Option<SmallDisk> {
        std::fs::create_dir_all(at).ok()?;
        let out = Command::new("mount").args(["-t", "tmpfs", "-o", "size=1m", "tmpfs"]).arg(at).output().ok()?;
        out.status.success().then(|| SmallDisk(at.to_path_buf()))
    }

    /// Fills the disk but for `spare` bytes.
    fn fill(&self, spare: u64) {
        use std::io::Write;
        let filler = self.0.join("filler");
        let mut f = std::fs::File::create(&filler).expect("filler");
        let chunk = [0u8; 4096];
        while f.write_all(&chunk).is_ok() {}
        let _ = f.sync_all();
        let len = f.metadata().expect("filler").len();
        f.set_len(len.saturating_sub(spare)).expect("shrink filler");
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).output();
    }
}

#[test]
fn event_new_force_on_a_full_disk_says_the_disk_is_full_and_keeps_the_event() {
    let ev = Event::empty();
    let Some(disk) = SmallDisk::mount(&ev.path("stick")) else {
        eprintln!("skipped: cannot mount a small tmpfs here (needs root)");
        return;
    };
    let db = disk.0.join("spring.db");
    let db_arg = db.to_string_lossy().into_owned();
    ev.run(&["--db", &db_arg, "event", "new", "Spring"]).ok();
    ev.run(&["--db", &db_arg, "player", "add", "Ana Alves"]).ok();
    let before = std::fs::read(&db).expect("event");
    // The event's own -wal and -shm may stay (SQLite's), nothing else may appear.
    let names = || {
        let mut n: Vec<String> = std::fs::read_dir(&disk.0)
            .expect("dir")
            .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
            .filter(|n| n != "spring.db-wal" && n != "spring.db-shm")
            .collect();
        n.sort();
        n
    };
    // Full to the last byte (even reading the event fails), then with room to start a new event but not
    // to finish it.
    for spare in [0, 300 * 1024] {
        disk.fill(spare);
        let files_before = names();
        for args in [vec!["event", "new", "Summer", "--force"], vec!["player", "add", "Bo Berg"]] {
            let all: Vec<&str> = ["--db", db_arg.as_str()].into_iter().chain(args.iter().copied()).collect();
            let run = ev.run(&all);
            if spare > 0 && args[0] == "player" {
                continue; // a player fits in 300 KB
            }
            let msg = run.refused();
            assert!(msg.contains("the disk is full") && msg.contains("spring.db"), "{spare} {args:?}: {msg}");
            assert_eq!(std::fs::read(&db).expect("event"), before, "{spare} {args:?}: the event is unchanged");
            assert_eq!(names(), files_before, "{spare} {args:?}: no file left behind");
        }
    }
}

#[test]
fn event_new_that_runs_out_of_disk_part_way_leaves_no_broken_event() {
    let ev = Event::empty();
    let Some(disk) = SmallDisk::mount(&ev.path("stick")) else {
        eprintln!("skipped: cannot mount a small tmpfs here (needs root)");
        return;
    };
    let db = disk.0.join("autumn.db");
    let db_arg = db.to_string_lossy().into_owned();
    // Room for the new event's log but not for folding it into the file: the file must not be put in place
    // without what its log holds.
    for spare in [240, 300, 360, 420] {
        disk.fill(spare * 1024);
        let run = ev.run(&["--db", &db_arg, "event", "new", "Autumn"]);
        if run.code != 0 {
            let msg = run.refused();
            assert!(msg.contains("the disk is full"), "{spare} KB: {msg}");
        }
        std::fs::remove_file(disk.0.join("filler")).expect("free the disk");
        let leftovers: Vec<String> = std::fs::read_dir(&disk.0)
            .expect("dir")
            .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
            .filter(|n| n.starts_with(".mmjudge-"))
            .collect();
        assert!(leftovers.is_empty(), "{spare} KB: {leftovers:?}");
        if run.code == 0 {
            ev.run(&["--db", &db_arg, "event", "show"]).ok();
        } else {
            ev.run(&["--db", &db_arg, "event", "new", "Autumn"]).ok();
        }
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(disk.0.join(format!("autumn.db{suffix}")));
        }
    }
}
