//! Drawing within a deadline. The server draws a page in its blocking pool with the request's deadline set on
//! the drawing thread ([`within`]); a page drawn there through [`draw`] or [`draw_into`] (the server's pages and
//! prints, and the site's pages `render::site` draws for the prints) is written into a string that, every
//! [`CHECK_EVERY`] bytes, compares the clock with the deadline and stops the drawing (askama's `render_into` gets
//! a `fmt::Error`) once it is past. Work that is no template (a page's tag hashed, its bytes compressed) asks
//! [`passed`] between its blocks. So a page too large to draw in time stops its thread's work within a few KB of
//! its deadline, instead of running on after its request was answered 503.
//!
//! The command line sets no deadline: its drawing is never stopped, and costs nothing more than askama's own.

use std::cell::Cell;
use std::fmt;
use std::time::Instant;

/// How many bytes a drawing writes between two looks at the clock (a look costs about as much as writing a few
/// dozen bytes).
pub const CHECK_EVERY: usize = 4 * 1024;

thread_local! {
    /// This thread's deadline while it draws for a request (see [`within`]).
    static UNTIL: Cell<Option<Instant>> = const { Cell::new(None) };
    /// Set when this thread's work passed its deadline: the bytes done when it stopped.
    static STOPPED: Cell<Option<usize>> = const { Cell::new(None) };
}

/// A drawing stopped past its deadline: how many bytes it had written (or hashed, or compressed) by then, and
/// how long after the deadline it stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Late {
    /// The bytes done when it stopped.
    pub done: usize,
    /// How long after the deadline it stopped.
    pub after: std::time::Duration,
}

/// Runs `f` with this thread's drawing bounded by `until` (None: unbounded), then puts the thread's earlier
/// deadline back (even if `f` panics: a pool's thread draws for many requests). `Err(Late)` when any drawing of
/// `f` stopped past the deadline, whatever `f` made of the error it saw.
pub fn within<R>(until: Option<Instant>, f: impl FnOnce() -> R) -> Result<R, Late> {
    /// Puts back what the thread held before, however `f` ends.
    struct Restore(Option<Instant>, Option<usize>);
    impl Drop for Restore {
        fn drop(&mut self) {
            UNTIL.set(self.0);
            STOPPED.set(self.1);
        }
    }
    let _restore = Restore(UNTIL.replace(until), STOPPED.replace(None));
    let made = f();
    match (STOPPED.get(), until) {
        (Some(done), Some(until)) => Err(Late { done, after: Instant::now().saturating_duration_since(until) }),
        _ => Ok(made),
    }
}

/// Whether this thread's deadline has passed (never, without one); the first time it has, the work is marked
/// stopped after `done` bytes (written, hashed or compressed; 0 for work that counts no bytes: see
/// [`within`]).
pub fn passed(done: usize) -> bool {
    let Some(until) = UNTIL.get() else { return false };
    if STOPPED.get().is_some() {
        return true;
    }
    if Instant::now() < until {
        return false;
    }
    STOPPED.set(Some(done));
    true
}

/// A page drawn whole into a new string, within this thread's deadline (see [`draw_into`]).
pub fn draw<T: askama::Template>(page: &T) -> askama::Result<String> {
    let mut out = String::new();
    let _ = out.try_reserve(T::SIZE_HINT);
    draw_into(page, &mut out)?;
    Ok(out)
}

/// Draws `page` at the end of `out`, within this thread's deadline: past it, the drawing stops with a
/// `fmt::Error` (and [`within`] says `Late`). Without a deadline, as askama's `render_into`.
pub fn draw_into<T: askama::Template + ?Sized>(page: &T, out: &mut String) -> askama::Result<()> {
    if UNTIL.get().is_none() {
        return page.render_into(out);
    }
    let start = out.len();
    page.render_into(&mut Bounded { out, start, unchecked: 0 })
}

/// A string that looks at the clock every [`CHECK_EVERY`] bytes written to it.
struct Bounded<'a> {
    out: &'a mut String,
    /// Where this drawing began in `out`.
    start: usize,
    /// Bytes written since the last look.
    unchecked: usize,
}

impl fmt::Write for Bounded<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.out.push_str(s);
        self.unchecked += s.len();
        if self.unchecked >= CHECK_EVERY {
            self.unchecked = 0;
            if passed(self.out.len() - self.start) {
                return Err(fmt::Error);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use askama::Template;
    use std::time::Duration;

    #[derive(Template)]
    #[template(
        source = "{% for i in rows %}<tr><td>{{ i }}</td><td>a row of a long list</td></tr>\n{% endfor %}",
        ext = "html"
    )]
    struct Rows {
        rows: Vec<usize>,
    }

    #[test]
    fn a_drawing_past_its_deadline_stops_within_a_few_kb_and_the_same_drawing_in_time_is_askamas() {
        let page = Rows { rows: (0..20_000).collect() };
        let whole = page.render().unwrap();
        assert!(whole.len() > 500 * 1024);
        // In time (and without a deadline): the same bytes as askama's own.
        let later = Some(Instant::now() + Duration::from_secs(60));
        assert_eq!(within(later, || draw(&page).unwrap()), Ok(whole.clone()));
        assert_eq!(within(None, || draw(&page).unwrap()), Ok(whole.clone()));
        // Past it: stopped after one look at the clock, and said so however the drawing's error was taken.
        let past = Some(Instant::now());
        let late = within(past, || draw(&page).is_err()).unwrap_err();
        assert!(late.done >= CHECK_EVERY && late.done < 2 * CHECK_EVERY, "{late:?}");
        // The thread's deadline is put back afterwards: another drawing on it is not stopped.
        assert!(!passed(0));
        assert_eq!(draw(&page).unwrap(), whole);
    }

    #[test]
    fn work_that_is_no_template_asks_between_its_blocks() {
        let past = Some(Instant::now());
        let late = within(past, || (0..10).take_while(|i| !passed(i * 100)).count()).unwrap_err();
        assert_eq!((late.done, passed(0)), (0, false));
        assert_eq!(within(None, || passed(5)), Ok(false));
    }
}
