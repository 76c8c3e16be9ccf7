//! A workflow's schedule (spec 001 §3 "Schedule", §4 "Schedule editor"): a five-field UTC cron
//! (minute hour day-of-month month day-of-week) checked with `croner`, or 'None'; and the
//! project environment variable it is also kept in (key [`env_key`]).

use croner::parser::{CronParser, Seconds, Year};

use crate::db::workflows::NO_SCHEDULE;

/// The prefix of the project environment variable that carries a workflow's schedule.
pub const ENV_PREFIX: &str = "LUDIS_WORKFLOW_SCHEDULE_";

/// Pure: the environment variable key of workflow `id`: the prefix and the id's first 8
/// characters as they are (a UUID's first 8 are hex digits; anything else becomes `_`, so the
/// key is always a shell name).
pub fn env_key(id: &str) -> String {
    let head: String = id
        .chars()
        .take(8)
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    format!("{ENV_PREFIX}{head}")
}

/// Pure: a schedule as stored: a valid five-field cron (fields separated by single spaces), or
/// `None` for 'None' or an empty value; the message of a bad one.
pub fn parse(value: &str) -> Result<String, String> {
    let v = value.trim();
    if v.is_empty() || v.eq_ignore_ascii_case(NO_SCHEDULE) {
        return Ok(NO_SCHEDULE.to_owned());
    }
    let fields: Vec<&str> = v.split_whitespace().collect();
    let invalid = || {
        format!(
            "Invalid schedule '{v}': a cron of five fields (minute hour day-of-month month day-of-week), in UTC, or 'None'"
        )
    };
    if fields.len() != 5 || v.contains('@') || v.len() > 100 {
        return Err(invalid());
    }
    let cron = fields.join(" ");
    CronParser::builder()
        .seconds(Seconds::Disallowed)
        .year(Year::Disallowed)
        .build()
        .parse(&cron)
        .map_err(|_| invalid())?;
    Ok(cron)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crons_of_five_fields_or_none() {
        assert_eq!(parse("0 6 * * 1-5").as_deref(), Ok("0 6 * * 1-5"));
        assert_eq!(parse(" 30  2 * * MON ").as_deref(), Ok("30 2 * * MON"));
        assert_eq!(parse("None").as_deref(), Ok("None"));
        assert_eq!(parse("").as_deref(), Ok("None"));
        for bad in [
            "* * * *",
            "0 0 * * * *",
            "61 * * * *",
            "@daily",
            "a b c d e",
            "0 25 * * *",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_env_key_takes_the_ids_first_8_characters() {
        assert_eq!(
            env_key("1a2b3c4d-0000-4000-8000-000000000000"),
            "LUDIS_WORKFLOW_SCHEDULE_1a2b3c4d"
        );
    }
}
