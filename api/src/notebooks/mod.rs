//! Legacy notebook-style projects (issue 18; docs/contracts/notebooks.md): notebook files
//! ([`ipynb`]) and the template projects ([`templates`]). The routes are `routes::notebooks`.

pub mod ipynb;
pub mod templates;
