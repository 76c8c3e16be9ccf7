//! What projects need beyond their rows and resource: their git repositories ([`git`]) and the
//! administrator's image list ([`images`]).

pub mod git;
pub mod images;
