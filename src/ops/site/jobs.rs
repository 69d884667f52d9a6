//! Drawing the site on two threads: the thread holding the event file reads what each page needs and hands
//! the drawing (and writing) of the page on as a job; a second thread, and the first whenever enough jobs
//! wait, take the jobs in turn. Few jobs wait at a time, so the pages in hand stay few.
//!
//! A failure is kept with the place of the page that failed; of several, the one earliest in the site's order
//! is reported (the one a single thread drawing the pages in order would have met first), and a job placed
//! after a failure is not run.

use super::Place;
use crate::error::{Error, Result};
use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

/// Jobs waiting before the thread handing them on runs one itself.
const WAITING: usize = 2;

/// Draws (and writes) one or more pages; the place is that of its first page.
type Job<'s> = (Place, Box<dyn FnOnce() -> Failed + Send + 's>);

/// What a job ends with: nothing, or the place of the page that failed and why.
pub type Failed = std::result::Result<(), (Place, Error)>;

/// Jobs waiting to be run, and the first failure.
pub struct Jobs<'s> {
    waiting: Mutex<Waiting<'s>>,
    wake: Condvar,
    failed: Mutex<Option<(Place, Error)>>,
}

struct Waiting<'s> {
    jobs: VecDeque<Job<'s>>,
    closed: bool,
}

impl<'s> Jobs<'s> {
    /// No jobs yet.
    pub fn new() -> Jobs<'s> {
        Jobs {
            waiting: Mutex::new(Waiting { jobs: VecDeque::new(), closed: false }),
            wake: Condvar::new(),
            failed: Mutex::new(None),
        }
    }

    fn waiting(&self) -> MutexGuard<'_, Waiting<'s>> {
        self.waiting.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Hands `job` on; while enough jobs wait, runs the oldest here first.
    pub fn push(&self, place: Place, job: impl FnOnce() -> Failed + Send + 's) {
        loop {
            let oldest = {
                let mut waiting = self.waiting();
                if waiting.jobs.len() < WAITING {
                    waiting.jobs.push_back((place, Box::new(job)));
                    self.wake.notify_one();
                    return;
                }
                waiting.jobs.pop_front()
            };
            if let Some(oldest) = oldest {
                self.run(oldest);
            }
        }
    }

    /// Runs `job` here and now (reading the event file, or a page drawn on this thread), keeping its failure.
    pub fn here(&self, place: Place, job: impl FnOnce() -> Failed) {
        if self.skipped(place) {
            return;
        }
        if let Err((at, e)) = job() {
            self.fail(at, e);
        }
    }

    fn run(&self, (place, job): Job<'s>) {
        self.here(place, job);
    }

    /// Whether a failure placed before `place` is known (the job would not change what is reported).
    fn skipped(&self, place: Place) -> bool {
        self.failed.lock().unwrap_or_else(PoisonError::into_inner).as_ref().is_some_and(|(at, _)| *at < place)
    }

    fn fail(&self, place: Place, e: Error) {
        let mut failed = self.failed.lock().unwrap_or_else(PoisonError::into_inner);
        if failed.as_ref().is_none_or(|(at, _)| place < *at) {
            *failed = Some((place, e));
        }
    }

    /// Runs jobs until none is left and no more will come ([`Jobs::close`]).
    pub fn work(&self) {
        loop {
            let next = {
                let mut waiting = self.waiting();
                loop {
                    if let Some(job) = waiting.jobs.pop_front() {
                        break Some(job);
                    }
                    if waiting.closed {
                        break None;
                    }
                    waiting = self.wake.wait(waiting).unwrap_or_else(PoisonError::into_inner);
                }
            };
            match next {
                Some(job) => self.run(job),
                None => return,
            }
        }
    }

    /// No more jobs will come: [`Jobs::work`] returns once the waiting ones are done.
    pub fn close(&self) {
        self.waiting().closed = true;
        self.wake.notify_all();
    }

    /// The failure earliest in the site's order, if any.
    pub fn finish(self) -> Result<()> {
        match self.failed.into_inner().unwrap_or_else(PoisonError::into_inner) {
            Some((_, e)) => Err(e),
            None => Ok(()),
        }
    }
}
