//! Access levels, ordered `none < view < execute < edit` (docs/design.md "The one access rule", spec 001 §6).

use super::names;

names! {
    /// What a caller may do with an asset: `none < view < execute < edit` (stored as a rank, 0 to
    /// 3).
    #[derive(PartialOrd, Ord)]
    pub enum AccessLevel ("access level") {
        /// No access: the asset does not exist for the caller.
        None = "none",
        /// Read only.
        View = "view",
        /// Run, logs, terminal, web view.
        Execute = "execute",
        /// Everything, including share and delete.
        Edit = "edit",
    }
}

impl AccessLevel {
    /// A name as a client may write it: trimmed, any case.
    pub fn parse(s: &str) -> Option<Self> {
        s.trim().to_ascii_lowercase().parse().ok()
    }

    /// The stored form: 0 none, 1 view, 2 execute, 3 edit (higher is more).
    pub fn rank(self) -> i64 {
        self as i64
    }

    /// From the stored form; out-of-range values are clamped.
    pub fn from_rank(rank: i64) -> Self {
        match rank {
            i64::MIN..=0 => Self::None,
            1 => Self::View,
            2 => Self::Execute,
            _ => Self::Edit,
        }
    }

    /// The console's names: Viewer, Executor, Editor.
    pub fn role_name(self) -> &'static str {
        match self {
            Self::None => "None",
            Self::View => "Viewer",
            Self::Execute => "Executor",
            Self::Edit => "Editor",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::AccessLevel::{self, *};

    #[test]
    fn levels_parse_rank_and_order() {
        assert_eq!(AccessLevel::parse(" Edit "), Some(Edit));
        assert_eq!(AccessLevel::parse("owner"), Option::None);
        for l in AccessLevel::ALL {
            assert_eq!(AccessLevel::parse(l.as_str()), Some(*l));
            assert_eq!(AccessLevel::from_rank(l.rank()), *l);
        }
        assert!(None < View && View < Execute && Execute < Edit);
        assert_eq!(AccessLevel::from_rank(9), Edit);
        assert_eq!(AccessLevel::from_rank(-1), AccessLevel::None);
    }
}
