//! What projects need beyond their rows and resource: their git repositories ([`git`]), the
//! credentials their pods clone with ([`checkout`]) and the administrator's image list
//! ([`images`]).

pub mod checkout;
pub mod git;
pub mod images;
pub mod jupyter;
