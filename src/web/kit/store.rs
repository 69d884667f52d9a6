//! The event file opened once per request: the first extractor or handler that needs it opens it (on a blocking
//! thread), and every later one in the same request (the judge's session, then the write; a page, then its
//! error page) works on that same connection.

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
    store: Arc<Mutex<Option<Store>>>,
}

impl Db {
    /// A way to the event file not yet opened.
    pub fn new(app: &Shared) -> Db {
        Db { app: app.clone(), store: Arc::new(Mutex::new(None)) }
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

    /// Runs `f` on the store on a blocking thread, opening the event file the first time.
    pub async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Store) -> Result<T> + Send + 'static,
    ) -> std::result::Result<T, ApiError> {
        let (store, path) = (self.store.clone(), self.app.db.clone());
        blocking(move || {
            let mut held = match store.lock() {
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
                    tracing::debug!(path = %path.display(), "the event file opened for a request");
                    held.insert(Store::open(&path)?)
                }
            };
            f(store)
        })
        .await
    }
}

impl Db {
    /// Closes the request's connection (on a blocking thread), if open; the next [`Db::run`] opens it again. For
    /// a request that will wait its turn a while (a login behind the PIN checks) without the file.
    pub async fn release(&self) {
        let store = self.store.clone();
        let _ = blocking(move || {
            let held = store.lock().map(|mut held| held.take());
            drop(held);
            Ok(())
        })
        .await;
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
