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
}

impl From<csv::Error> for TemplateError {
    fn from(e: csv::Error) -> Self {
        Self::Read(e.to_string())
    }
}
