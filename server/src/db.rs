//! Storage: an embedded SQLite database, created and seeded on first start.
//!
//! SQLite calls block, so every query runs on tokio's blocking pool through
//! [`Db::call`]; a few connections behind mutexes let requests run in
//! parallel without a pool crate. `:memory:` becomes a named shared-cache
//! in-memory database so all connections see the same data.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use rusqlite::{Connection, OpenFlags, Statement};
use serde::Serialize;

use crate::envelope::ApiError;
use crate::params::{Filter, Paging};
use crate::seed;

/// A user as returned by the list operation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct User {
    /// Primary key, ascending with creation time.
    pub id: i64,
    /// Display name as stored.
    pub username: String,
    /// Phone number.
    pub phone: String,
    /// Whether the account is active.
    pub active: bool,
    /// RFC 3339 UTC creation time.
    pub created_at: String,
}

/// One page of users plus the total that matched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserPage {
    /// The users on this page, by ascending id.
    pub users: Vec<User>,
    /// Users matching the filter across all pages.
    pub total: u64,
}

/// What [`Db::open`] found or did, for the startup log line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpenReport {
    /// Users in the table after opening.
    pub users: u64,
    /// Whether this start seeded the table.
    pub seeded: bool,
}

const SCHEMA: &str = "
    CREATE TABLE IF NOT EXISTS users (
        id          INTEGER PRIMARY KEY,
        username    TEXT    NOT NULL,
        username_lc TEXT    NOT NULL,
        phone       TEXT    NOT NULL,
        active      INTEGER NOT NULL,
        created_at  TEXT    NOT NULL
    );
    CREATE INDEX IF NOT EXISTS idx_users_active ON users(active);
";

/// SQL for every combination of filters, so each statement can use the index
/// on `active` (an `?1 IS NULL OR …` form would defeat it). Index bit 0: an
/// active filter; bit 1: a search pattern. Parameters are numbered in that
/// order, then LIMIT and OFFSET for lists.
struct Queries {
    count: [String; 4],
    list: [String; 4],
}

impl Queries {
    fn new() -> Self {
        let clause = |variant: usize| -> (String, usize) {
            let mut conditions = Vec::new();
            let mut next = 1;
            if variant & 1 != 0 {
                conditions.push(format!("active = ?{next}"));
                next += 1;
            }
            if variant & 2 != 0 {
                conditions.push(format!(
                    "(username_lc LIKE ?{next} ESCAPE '\\' OR phone LIKE ?{next} ESCAPE '\\')"
                ));
                next += 1;
            }
            let clause = if conditions.is_empty() {
                String::new()
            } else {
                format!(" WHERE {}", conditions.join(" AND "))
            };
            (clause, next)
        };
        let count = std::array::from_fn(|v| format!("SELECT COUNT(*) FROM users{}", clause(v).0));
        let list = std::array::from_fn(|v| {
            let (clause, next) = clause(v);
            format!(
                "SELECT id, username, phone, active, created_at FROM users{clause} \
                 ORDER BY id LIMIT ?{next} OFFSET ?{}",
                next + 1
            )
        });
        Self { count, list }
    }
}

/// Shared handle to the database; cheap to clone via `Arc`.
pub struct Db {
    connections: Box<[Mutex<Connection>]>,
    next: AtomicUsize,
    queries: Queries,
}

impl Db {
    /// Opens (creating if needed) the database at `path` and seeds `seed_count`
    /// users if the table is empty. `:memory:` gives a fresh in-memory one.
    pub fn open(
        path: &str,
        seed_count: u64,
        pool_size: usize,
    ) -> Result<(Self, OpenReport), String> {
        let in_memory = path == ":memory:";
        let target = if in_memory {
            // A unique name so two servers in one process never share data.
            static COUNTER: AtomicUsize = AtomicUsize::new(0);
            format!(
                "file:user-management-{}-{}?mode=memory&cache=shared",
                std::process::id(),
                COUNTER.fetch_add(1, Ordering::Relaxed)
            )
        } else {
            if let Some(parent) = Path::new(path).parent() {
                if !parent.as_os_str().is_empty() {
                    std::fs::create_dir_all(parent).map_err(|e| {
                        format!("cannot create directory {}: {e}", parent.display())
                    })?;
                }
            }
            path.to_owned()
        };
        let open = || -> Result<Connection, String> {
            let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_CREATE
                | OpenFlags::SQLITE_OPEN_URI
                | OpenFlags::SQLITE_OPEN_NO_MUTEX;
            let conn = Connection::open_with_flags(&target, flags)
                .map_err(|e| format!("cannot open database {path}: {e}"))?;
            conn.busy_timeout(std::time::Duration::from_secs(5))
                .map_err(|e| format!("cannot configure database {path}: {e}"))?;
            Ok(conn)
        };

        let first = open()?;
        if !in_memory {
            // WAL lets readers proceed while another connection writes.
            first
                .pragma_update(None, "journal_mode", "WAL")
                .and_then(|()| first.pragma_update(None, "synchronous", "NORMAL"))
                .map_err(|e| format!("cannot enable WAL on {path}: {e}"))?;
        }
        let report =
            init(&first, seed_count).map_err(|e| format!("cannot initialise {path}: {e}"))?;

        let queries = Queries::new();
        let mut connections = vec![first];
        while connections.len() < pool_size.max(1) {
            connections.push(open()?);
        }
        for conn in &connections {
            conn.set_prepared_statement_cache_capacity(16);
            // Prepare everything now: a schema mismatch in an existing file
            // fails at startup with a clear message, and the cache is warm.
            for sql in queries.count.iter().chain(&queries.list) {
                conn.prepare_cached(sql)
                    .map_err(|e| format!("database {path} has an unexpected schema: {e}"))?;
            }
        }
        let db = Self {
            connections: connections.into_iter().map(Mutex::new).collect(),
            next: AtomicUsize::new(0),
            queries,
        };
        Ok((db, report))
    }

    /// Runs `f` with a connection on the blocking pool, mapping failures to
    /// 500 envelopes (the details go to stderr, not to the client).
    pub async fn call<R, F>(self: &Arc<Self>, f: F) -> Result<R, ApiError>
    where
        R: Send + 'static,
        F: FnOnce(&Self, &Connection) -> rusqlite::Result<R> + Send + 'static,
    {
        let db = Arc::clone(self);
        let joined = tokio::task::spawn_blocking(move || {
            let conn = db.acquire();
            f(&db, &conn)
        })
        .await;
        match joined {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(e)) => {
                eprintln!("database error: {e}");
                Err(ApiError::internal("database error"))
            }
            Err(e) => {
                eprintln!("database task failed: {e}");
                Err(ApiError::internal(
                    "internal error while querying the database",
                ))
            }
        }
    }

    /// Takes a free connection if there is one, else waits on the next in turn.
    fn acquire(&self) -> std::sync::MutexGuard<'_, Connection> {
        let len = self.connections.len();
        let start = self.next.fetch_add(1, Ordering::Relaxed);
        for offset in 0..len {
            if let Some(conn) = self.connections.get((start + offset) % len) {
                if let Ok(guard) = conn.try_lock() {
                    return guard;
                }
            }
        }
        // A poisoned mutex only means a panic elsewhere; the connection itself
        // is still usable.
        self.connections[start % len]
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Counts users matching `filter` (runs on the calling thread).
    pub fn count_sync(&self, conn: &Connection, filter: &Filter) -> rusqlite::Result<u64> {
        let (variant, active, pattern) = split(filter);
        let mut stmt = conn.prepare_cached(&self.queries.count[variant])?;
        let next = bind_filter(&mut stmt, active, pattern.as_deref())?;
        debug_assert_eq!(next, stmt.parameter_count() + 1);
        let mut rows = stmt.raw_query();
        let count: i64 = match rows.next()? {
            Some(row) => row.get(0)?,
            None => 0,
        };
        Ok(u64::try_from(count).unwrap_or(0))
    }

    /// Lists one page of users matching `filter`, with the total count.
    pub fn list_sync(
        &self,
        conn: &Connection,
        filter: &Filter,
        paging: Paging,
    ) -> rusqlite::Result<UserPage> {
        let total = self.count_sync(conn, filter)?;
        let (variant, active, pattern) = split(filter);
        let mut stmt = conn.prepare_cached(&self.queries.list[variant])?;
        let next = bind_filter(&mut stmt, active, pattern.as_deref())?;
        stmt.raw_bind_parameter(next, i64::try_from(paging.page_size).unwrap_or(i64::MAX))?;
        stmt.raw_bind_parameter(next + 1, paging.offset())?;
        let mut users = Vec::with_capacity(usize::try_from(paging.page_size).unwrap_or(0));
        let mut rows = stmt.raw_query();
        while let Some(row) = rows.next()? {
            users.push(User {
                id: row.get(0)?,
                username: row.get(1)?,
                phone: row.get(2)?,
                active: row.get::<_, i64>(3)? != 0,
                created_at: row.get(4)?,
            });
        }
        Ok(UserPage { users, total })
    }
}

/// Picks the SQL variant and the values to bind for `filter`.
fn split(filter: &Filter) -> (usize, Option<bool>, Option<String>) {
    let active = filter.active.flag();
    let pattern = filter.like_pattern();
    let variant = usize::from(active.is_some()) | (usize::from(pattern.is_some()) << 1);
    (variant, active, pattern)
}

/// Binds the filter values in [`Queries`] order; returns the next index.
fn bind_filter(
    stmt: &mut Statement<'_>,
    active: Option<bool>,
    pattern: Option<&str>,
) -> rusqlite::Result<usize> {
    let mut next = 1;
    if let Some(active) = active {
        stmt.raw_bind_parameter(next, i64::from(active))?;
        next += 1;
    }
    if let Some(pattern) = pattern {
        stmt.raw_bind_parameter(next, pattern)?;
        next += 1;
    }
    Ok(next)
}

/// Creates the schema and seeds it when empty, in one transaction.
fn init(conn: &Connection, seed_count: u64) -> rusqlite::Result<OpenReport> {
    conn.execute_batch(SCHEMA)?;
    let existing: i64 = conn.query_row("SELECT COUNT(*) FROM users", [], |row| row.get(0))?;
    if existing > 0 || seed_count == 0 {
        return Ok(OpenReport {
            users: u64::try_from(existing).unwrap_or(0),
            seeded: false,
        });
    }
    conn.execute_batch("BEGIN IMMEDIATE")?;
    let result = (|| {
        let mut insert = conn.prepare(
            "INSERT INTO users (id, username, username_lc, phone, active, created_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        for user in seed::generate(seed_count) {
            insert.execute(rusqlite::params![
                user.id,
                user.username,
                user.username.to_lowercase(),
                user.phone,
                user.active,
                user.created_at,
            ])?;
        }
        Ok(())
    })();
    match result {
        Ok(()) => conn.execute_batch("COMMIT")?,
        Err(e) => {
            let _ = conn.execute_batch("ROLLBACK");
            return Err(e);
        }
    }
    Ok(OpenReport {
        users: seed_count,
        seeded: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Active;

    fn filter(query: Option<&str>, active: Active) -> Filter {
        Filter {
            query: query.map(str::to_lowercase),
            active,
        }
    }

    #[test]
    fn memory_database_is_seeded_and_shared_between_connections() {
        let (db, report) = Db::open(":memory:", 300, 3).unwrap();
        assert_eq!(
            report,
            OpenReport {
                users: 300,
                seeded: true
            }
        );
        for conn in db.connections.iter() {
            let conn = conn.lock().unwrap();
            assert_eq!(
                db.count_sync(&conn, &filter(None, Active::All)).unwrap(),
                300
            );
        }
    }

    #[test]
    fn counts_and_pages_agree_with_generated_data() {
        let (db, _) = Db::open(":memory:", 500, 1).unwrap();
        let conn = db.acquire();
        let users = seed::generate(500);
        let active = users.iter().filter(|u| u.active).count() as u64;
        assert_eq!(
            db.count_sync(&conn, &filter(None, Active::True)).unwrap(),
            active
        );
        assert_eq!(
            db.count_sync(&conn, &filter(None, Active::False)).unwrap(),
            500 - active
        );
        let expected = users
            .iter()
            .filter(|u| u.username.to_lowercase().contains('_'))
            .count() as u64;
        assert_eq!(
            db.count_sync(&conn, &filter(Some("_"), Active::All))
                .unwrap(),
            expected
        );
        let page = db
            .list_sync(
                &conn,
                &filter(None, Active::All),
                Paging {
                    page: 2,
                    page_size: 7,
                },
            )
            .unwrap();
        assert_eq!(page.total, 500);
        let ids: Vec<i64> = page.users.iter().map(|u| u.id).collect();
        assert_eq!(ids, (8..=14).collect::<Vec<_>>());
        assert_eq!(page.users[0].username, users[7].username);
    }

    #[test]
    fn file_database_is_seeded_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nested/users.sqlite3");
        let path = path.to_str().unwrap();
        let (_, first) = Db::open(path, 50, 2).unwrap();
        assert!(first.seeded);
        let (_, second) = Db::open(path, 80, 2).unwrap();
        assert_eq!(
            second,
            OpenReport {
                users: 50,
                seeded: false
            }
        );
    }
}
