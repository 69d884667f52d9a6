//! One connection to the event file per request: the first extractor or handler that needs it takes one of the
//! connections kept open (see [`crate::store::connections`]; on a blocking thread), and every later one in the
//! same request (the judge's session, then the write; a page, then its error page) works on that same
//! connection, given back when the request ends.

use super::error::{ApiError, blocking};
use super::state::Shared;
use crate::error::Result;
use crate::store::Store;
use axum::extract::FromRequestParts;
use axum::http::Extensions;
use axum::http::request::Parts;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};

/// A request's way to the event file (cheap to clone; every clone shares the one connection).
#[derive(Clone)]
pub struct Db {
    app: Shared,
    store: Arc<Held>,
}

/// The request's connection, given back to the kept ones when the request's last clone of its [`Db`] goes.
struct Held {
    app: Shared,
    store: Mutex<Option<Store>>,
}

impl Drop for Held {
    fn drop(&mut self) {
        let store = match self.store.get_mut() {
            Ok(held) => held.take(),
            // A request's work that panicked on it: the connection may be mid-way, and is closed.
            Err(_) => None,
        };
        if let Some(store) = store {
            self.app.connections.give(store);
        }
    }
}

impl Db {
    /// A way to the event file not yet taken.
    pub fn new(app: &Shared) -> Db {
        Db { app: app.clone(), store: Arc::new(Held { app: app.clone(), store: Mutex::new(None) }) }
    }

    /// The request's own: the one its extensions hold, else a new one put there for the extractors after.
    pub fn of(extensions: &mut Extensions, app: &Shared) -> Db {
        if let Some(db) = extensions.get::<Db>() {
            return db.clone();
        }
        let db = Db::new(app);
        extensions.insert(db.clone());
        db
    }

    /// What every request shares.
    pub fn app(&self) -> &Shared {
        &self.app
    }

    /// Runs `f` on the store on a blocking thread, taking a connection the first time.
    pub async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Store) -> Result<T> + Send + 'static,
    ) -> std::result::Result<T, ApiError> {
        let (store, app) = (self.store.clone(), self.app.clone());
        blocking(move || {
            let mut held = match store.store.lock() {
                Ok(held) => held,
                // A request's work that panicked on it: the connection may be mid-way, open another.
                Err(poisoned) => {
                    let mut held = poisoned.into_inner();
                    *held = None;
                    held
                }
            };
            let store = match held.as_mut() {
                Some(store) => store,
                None => {
                    let (store, kept) = app.connections.take()?;
                    tracing::debug!(kept, "a connection to the event file taken for a request");
                    held.insert(store)
                }
            };
            f(store)
        })
        .await
    }
}

impl Db {
    /// Gives the request's connection back to the kept ones before the request ends; the next [`Db::run`] takes
    /// one again. For a request that will wait its turn a while (a login behind the PIN checks).
    pub fn give_back(&self) {
        let held = self.store.store.lock().ok().and_then(|mut held| held.take());
        if let Some(store) = held {
            self.app.connections.give(store);
        }
    }
}

impl std::fmt::Debug for Db {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Db").field("db", &self.app.db).finish_non_exhaustive()
    }
}

impl FromRequestParts<Shared> for Db {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, app: &Shared) -> std::result::Result<Self, Self::Rejection> {
        Ok(Db::of(&mut parts.extensions, app))
    }
}
