//! The fixed sets of the sharing calls and the `shares` table.

use super::names;

names! {
    /// Who a share entry names, as the share dialog says it.
    pub enum ShareTarget ("share target") {
        User = "User",
        Organization = "Organization",
    }
}

names! {
    /// Who a share entry names, as the `shares.to_type` column stores it.
    #[derive(PartialOrd, Ord)]
    pub enum StoredTarget ("share target") {
        /// A user, by uid.
        User = "user",
        /// The asset's organization, by id.
        Organization = "organization",
        /// A user declared by e-mail in `spec.sharing` who has no account yet.
        Email = "email",
    }
}

names! {
    /// What a share change does.
    pub enum ShareType ("share type") {
        /// Grant a level.
        Share = "share",
        /// Remove the console entry.
        Unshare = "unshare",
    }
}

names! {
    /// Where a share entry comes from (the `shares.origin` column).
    pub enum ShareOrigin ("share origin") {
        /// Set and revoked in the console, one by one.
        Console = "console",
        /// The resource's `spec.sharing`: replaced as a whole when the resource changes.
        Resource = "resource",
    }
}
