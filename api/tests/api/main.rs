//! API tests against a real server on port 0, on SQLite and (when LUDIS_TEST_POSTGRES_URL is
//! set, as the test command does) PostgreSQL, each test on its own fresh databases. One binary
//! for every feature file.

mod admin;
mod assistant;
mod auth;
mod auth_security;
mod cluster;
mod comments;
mod console;
mod containment;
mod datasets;
mod gitops;
mod gitops_datasets;
mod gitops_projects;
mod gitops_reports;
mod gitops_workflows;
mod health;
mod helpers;
mod insights;
mod keys_secret;
mod listing;
mod matrix;
mod matrix_notebooks;
mod matrix_templates;
mod matrix_workflows;
mod metrics;
mod notebooks;
mod observability;
mod openapi;
mod pod_tokens;
mod projects;
mod projects_env;
mod projects_files;
mod projects_run;
mod projects_streams;
mod proxy;
mod proxy_security;
mod real_node;
mod seeds;
mod sharing;
mod sizes;
mod templates;
mod users;
mod web3;
mod workflows;
mod workflows_runs;
