//! What projects need beyond their rows and resource: their git repositories ([`git`]), the
//! credentials their pods clone with ([`checkout`]), the administrator's image list
//! ([`images`]), and what Run or Publish runs ([`launch`]).

pub mod git;
pub mod images;
pub mod jupyter;
pub mod launch;
pub mod sizes;
