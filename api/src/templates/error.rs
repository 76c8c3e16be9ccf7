//! What a template computation can refuse, in words the console shows as they are.

#[derive(Debug, thiserror::Error)]
pub enum TemplateError {
    #[error("The data file could not be read: {0}")]
    Read(String),
    #[error("The data file has no column named '{0}'")]
    UnknownColumn(String),
    #[error("The column '{0}' has no numbers")]
    NotNumeric(String),
    #[error("{0}")]
    Invalid(String),
    /// The file has more data rows than the computation may read (the route names the file).
    #[error("The data has more than {limit} rows; template apps read at most {limit}")]
    TooManyRows { limit: usize },
    /// The flag of [`super::limits::Cancel`] was set: the caller went away or the time was up.
    #[error("The computation was stopped")]
    Cancelled,
}

impl From<csv::Error> for TemplateError {
    fn from(e: csv::Error) -> Self {
        Self::Read(e.to_string())
    }
}
