//! First-start data, applied idempotently on every start (each step checks before it writes):
//! the superadmin (credentials from the settings, or a generated password printed once), a demo
//! organization with its namespace and the default flighting, the assets bucket, and the 15
//! default insight images (`seeds/images/`, served by `GET /v1/images/defaults`).

use anyhow::Context as _;

use crate::{
    auth::password,
    cluster, crypto,
    db::{self, flighting, organizations, users},
    domain::Role,
    policy,
    state::AppState,
};

pub const DEMO_ORGANIZATION: &str = "Demo";

/// The default insight images: (file name, SVG).
pub const DEFAULT_IMAGES: [(&str, &str); 15] = [
    (
        "insight-01.svg",
        include_str!("../../seeds/images/insight-01.svg"),
    ),
    (
        "insight-02.svg",
        include_str!("../../seeds/images/insight-02.svg"),
    ),
    (
        "insight-03.svg",
        include_str!("../../seeds/images/insight-03.svg"),
    ),
    (
        "insight-04.svg",
        include_str!("../../seeds/images/insight-04.svg"),
    ),
    (
        "insight-05.svg",
        include_str!("../../seeds/images/insight-05.svg"),
    ),
    (
        "insight-06.svg",
        include_str!("../../seeds/images/insight-06.svg"),
    ),
    (
        "insight-07.svg",
        include_str!("../../seeds/images/insight-07.svg"),
    ),
    (
        "insight-08.svg",
        include_str!("../../seeds/images/insight-08.svg"),
    ),
    (
        "insight-09.svg",
        include_str!("../../seeds/images/insight-09.svg"),
    ),
    (
        "insight-10.svg",
        include_str!("../../seeds/images/insight-10.svg"),
    ),
    (
        "insight-11.svg",
        include_str!("../../seeds/images/insight-11.svg"),
    ),
    (
        "insight-12.svg",
        include_str!("../../seeds/images/insight-12.svg"),
    ),
    (
        "insight-13.svg",
        include_str!("../../seeds/images/insight-13.svg"),
    ),
    (
        "insight-14.svg",
        include_str!("../../seeds/images/insight-14.svg"),
    ),
    (
        "insight-15.svg",
        include_str!("../../seeds/images/insight-15.svg"),
    ),
];

/// What a seeding run did (for logs and tests).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Seeded {
    pub organization_created: bool,
    pub superadmin_created: bool,
    /// Only when the password was generated: shown once.
    pub generated_password: Option<String>,
}

pub async fn run(state: &AppState) -> anyhow::Result<Seeded> {
    let s = &state.settings;
    let mut out = Seeded::default();
    let bucket_id = organizations::ensure_bucket(&state.db, &s.s3_bucket, &s.s3_region).await?;

    let org = match organizations::by_name(&state.db, DEMO_ORGANIZATION).await? {
        Some(o) => o,
        None => {
            let o = organizations::OrganizationRow {
                id: db::new_id(),
                name: DEMO_ORGANIZATION.into(),
                slug: cluster::organizations::slugify(DEMO_ORGANIZATION),
                admin_email: s.admin_email.clone(),
                description: "Demonstration organization created on first start".into(),
                tier: "free".into(),
                max_seats: 25,
                bucket_id: Some(bucket_id),
                is_2fa_required: false,
                created_at: db::now(),
                idle_minutes: crate::idle::DEFAULT_IDLE_MINUTES,
                allow_always_on: false,
            };
            organizations::insert(&state.db, &o)
                .await
                .context("failed to create the demo organization")?;
            out.organization_created = true;
            tracing::info!(organization = %o.name, "seeded the demo organization");
            o
        }
    };
    if flighting::for_org(&state.db, &org.id).await?.is_empty() {
        flighting::upsert_all(&state.db, &org.id, &policy::flags::defaults()).await?;
    }
    // Another installation's demo organization (sharing the cluster) may own the namespace:
    // then this one's resources are not applied, and the rest of the seeding goes on.
    if let Some(client) = &state.kube
        && let Err(e) = cluster::organizations::ensure_namespace_of(state, client, &org).await
    {
        tracing::warn!(error = format!("{e:#}"), organization = %org.name, "the demo organization's namespace is not set up");
    }

    let superadmins = users::count_with_role(&state.db, Role::Superadmin).await?;
    if superadmins == 0 && users::by_email(&state.db, &s.admin_email).await?.is_none() {
        let (password, generated) = if s.admin_password.is_empty() {
            (crypto::random_token(12), true)
        } else {
            (s.admin_password.expose().to_owned(), false)
        };
        let hash = password::hash(password.clone(), state.auth.hash).await?;
        let uid = db::new_id();
        users::insert(
            &state.db,
            &users::NewUser {
                uid: &uid,
                email: &s.admin_email,
                password_hash: &hash,
                first_name: "Ludis",
                last_name: "Admin",
                role: Role::Superadmin,
                organization_id: &org.id,
                cluster_id: None,
                timezone: "UTC",
                date_format: "MM/DD/YY",
            },
            db::now(),
        )
        .await
        .context("failed to create the superadmin")?;
        out.superadmin_created = true;
        if generated {
            // Printed once, on the terminal only (not in the structured log).
            println!(
                "\nludis: created the superadmin {} with the generated password: {password}\n       \
                 (shown once; set LUDIS_ADMIN_PASSWORD to choose it)\n",
                s.admin_email
            );
            out.generated_password = Some(password);
        }
        tracing::info!(email = %s.admin_email, "seeded the superadmin");
    }
    Ok(out)
}
