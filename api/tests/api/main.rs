//! API tests against a real server on port 0, on SQLite and (when LUDIS_TEST_POSTGRES_URL is
//! set, as the test command does) PostgreSQL. One binary for every feature file.

mod console;
mod health;
mod helpers;
