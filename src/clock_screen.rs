//! The live full-screen decision timer for one table (crossterm). The terminal is put in raw mode on the
//! alternate screen and restored on every exit: normal, error (the guard's `Drop`) and panic (a panic hook
//! restores it before the panic message is printed).
//!
//! What to draw is decided by the pure [`frame::frame`]; this file only reads keys and paints lines.

pub mod frame;
pub mod text;
pub mod view;

use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration as StdDuration;

use chrono::{DateTime, Utc};
use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::style::{Attribute, Color, Print, ResetColor, SetAttribute, SetBackgroundColor, SetForegroundColor};
use crossterm::{cursor, execute, queue, terminal};

use crate::domain::clock::TableClock;
use frame::{Line, Tone};
use view::{Action, Flow, ScreenState};

/// How long to wait for a key before redrawing: 12.5 redraws a second at most.
const POLL: StdDuration = StdDuration::from_millis(80);
/// How often the screen re-reads the table's extensions and its running decision (a `round extend`, a
/// `clock --start/--stop/--cancel` from another terminal).
const REFRESH: StdDuration = StdDuration::from_secs(1);

/// Where the clock screen gets the time and records what happens (a database in the real tool).
pub trait ClockBackend {
    /// The current instant.
    fn now(&self) -> DateTime<Utc>;
    /// Records that the player in `player_slot` (0 or 1) started deciding at `started` (the store keeps one
    /// running decision per table: this fails when another terminal already times one there).
    fn start_decision(&mut self, _player_slot: usize, _started: DateTime<Utc>) -> Result<(), String> {
        Ok(())
    }
    /// Records a finished decision of the player in `player_slot` (0 or 1), interrupted by judge-call pauses
    /// of `paused` in all (not counted in its length; its start stays where it was).
    fn save_decision(
        &mut self,
        player_slot: usize,
        started: DateTime<Utc>,
        ended: DateTime<Utc>,
        paused: chrono::Duration,
    ) -> Result<(), String>;
    /// Records a stall of the player in `player_slot` at `at`.
    fn log_stall(&mut self, player_slot: usize, at: DateTime<Utc>) -> Result<(), String>;
    /// Extends the table's round time by `secs` seconds, for `reason`.
    fn extend(&mut self, secs: i64, reason: &str) -> Result<(), String>;
    /// The table's extensions in seconds as recorded now (another judge may extend the table while the
    /// screen is open); `None` when the backend cannot tell.
    fn extension_secs(&mut self) -> Option<i64> {
        None
    }
    /// The decision running at the table as recorded now, as (player slot, start): `Some(None)` when none
    /// runs, `None` when the backend cannot tell. Another terminal may start, stop or cancel one.
    fn running(&mut self) -> Option<Option<(usize, DateTime<Utc>)>> {
        None
    }
}

/// What the screen shows about one table: its number, its two players (slot 0 and 1) and its clock.
#[derive(Debug, Clone, PartialEq)]
pub struct ScreenInfo {
    /// Table number.
    pub table: u32,
    /// The players' names, by slot.
    pub players: [String; 2],
    /// The table's round clock, with the extensions already granted.
    pub clock: TableClock,
}

/// Runs the clock screen until `q` (or Ctrl-C), recording decisions, stalls and extensions through `backend`.
pub fn run_clock_screen(info: ScreenInfo, backend: &mut dyn ClockBackend) -> io::Result<()> {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let _guard = TerminalGuard::enter()?;
    let mut out = io::stdout();
    let mut state = ScreenState::new(info);
    let mut last: Vec<Line> = Vec::new();
    let mut refreshed = std::time::Instant::now();
    loop {
        if refreshed.elapsed() >= REFRESH && state.paused_at.is_none() {
            if let Some(secs) = backend.extension_secs() {
                state.info.clock.extension_secs = secs;
            }
            if let Some(running) = backend.running() {
                state.sync_running(running);
            }
            refreshed = std::time::Instant::now();
        }
        let now = backend.now();
        if state.tick(now) {
            queue!(out, Print("\x07"))?;
        }
        let (width, _) = terminal::size()?;
        let lines = frame::frame(&state, now, width);
        if lines != last {
            paint(&mut out, &lines, no_color)?;
            last = lines;
        }
        out.flush()?;
        if !event::poll(POLL)? {
            continue;
        }
        match event::read()? {
            Event::Key(key) => {
                if let Some(action) = action_for(key)
                    && state.apply(action, backend.now(), backend) == Flow::Quit
                {
                    return Ok(());
                }
            }
            Event::Resize(..) => last.clear(),
            _ => {}
        }
    }
}

/// The action a key press stands for.
fn action_for(key: KeyEvent) -> Option<Action> {
    if key.kind != KeyEventKind::Press {
        return None;
    }
    match key.code {
        KeyCode::Char(' ') => Some(Action::StartStop),
        KeyCode::Tab | KeyCode::BackTab => Some(Action::Switch),
        KeyCode::Char('p' | 'P') => Some(Action::Pause),
        KeyCode::Char('s' | 'S') => Some(Action::Stall),
        KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => Some(Action::Quit),
        KeyCode::Char('q' | 'Q') | KeyCode::Esc => Some(Action::Quit),
        _ => None,
    }
}

/// Paints the whole frame, two columns in from the left, line by line (no full clear, so no flicker).
fn paint(out: &mut impl Write, lines: &[Line], no_color: bool) -> io::Result<()> {
    queue!(out, cursor::MoveTo(0, 0), terminal::Clear(terminal::ClearType::CurrentLine))?;
    for (row, line) in lines.iter().enumerate() {
        let row = u16::try_from(row + 1).unwrap_or(u16::MAX);
        queue!(out, cursor::MoveTo(0, row), terminal::Clear(terminal::ClearType::CurrentLine), Print("  "))?;
        set_tone(out, line.tone, no_color)?;
        queue!(out, Print(&line.text), SetAttribute(Attribute::Reset), ResetColor)?;
    }
    queue!(out, cursor::MoveToNextLine(1), terminal::Clear(terminal::ClearType::FromCursorDown))?;
    Ok(())
}

/// Colours for a tone; under NO_COLOR only bold/reverse/dim attributes.
fn set_tone(out: &mut impl Write, tone: Tone, no_color: bool) -> io::Result<()> {
    let attr = match tone {
        Tone::Normal | Tone::Calm => None,
        Tone::Dim => Some(Attribute::Dim),
        Tone::Highlight | Tone::Overrun => Some(Attribute::Reverse),
        Tone::Warn | Tone::Danger => Some(Attribute::Bold),
    };
    if no_color {
        if let Some(a) = attr {
            queue!(out, SetAttribute(a))?;
        }
        return Ok(());
    }
    match tone {
        Tone::Normal => {}
        Tone::Dim => queue!(out, SetForegroundColor(Color::DarkGrey))?,
        Tone::Highlight => queue!(out, SetAttribute(Attribute::Bold), SetForegroundColor(Color::Cyan))?,
        Tone::Calm => queue!(out, SetForegroundColor(Color::Green))?,
        Tone::Warn => queue!(out, SetAttribute(Attribute::Bold), SetForegroundColor(Color::Yellow))?,
        Tone::Danger => queue!(out, SetAttribute(Attribute::Bold), SetForegroundColor(Color::Red))?,
        Tone::Overrun => queue!(
            out,
            SetAttribute(Attribute::Bold),
            SetForegroundColor(Color::White),
            SetBackgroundColor(Color::DarkRed)
        )?,
    }
    Ok(())
}

type PanicHook = dyn Fn(&std::panic::PanicHookInfo<'_>) + Sync + Send + 'static;

/// Raw mode + alternate screen for its lifetime; restores the terminal when dropped or on panic.
struct TerminalGuard {
    previous_hook: Arc<PanicHook>,
}

impl TerminalGuard {
    fn enter() -> io::Result<Self> {
        let previous_hook: Arc<PanicHook> = Arc::from(std::panic::take_hook());
        let hook = Arc::clone(&previous_hook);
        std::panic::set_hook(Box::new(move |info| {
            restore_terminal();
            hook(info);
        }));
        let guard = Self { previous_hook };
        ACTIVE.store(true, Ordering::SeqCst);
        terminal::enable_raw_mode()?;
        execute!(io::stdout(), terminal::EnterAlternateScreen, cursor::Hide)?;
        Ok(guard)
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore_terminal();
        if !std::thread::panicking() {
            let previous = Arc::clone(&self.previous_hook);
            std::panic::set_hook(Box::new(move |info| previous(info)));
        }
    }
}

/// Whether the screen is set up (raw mode, alternate screen) and not yet restored.
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// Leaves the alternate screen and raw mode, once: a second call (the guard's `Drop` after the panic hook) does
/// nothing, since leaving the alternate screen twice moves the cursor back over the panic message.
fn restore_terminal() {
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return;
    }
    let _ = execute!(io::stdout(), SetAttribute(Attribute::Reset), cursor::Show, terminal::LeaveAlternateScreen);
    let _ = terminal::disable_raw_mode();
}
