//! The file of a `user_report` Insight applied with kubectl or GitOps (issue 12, finding 7): its
//! `spec.reportObject` is presigned for every viewer, so it may name only the insight's own
//! report folder, `reports/<insight id>/<file>` — refused at admission when it has another shape,
//! and not mirrored when it names another insight's folder. Needs a cluster (KUBECONFIG).

use kube::{
    Api,
    api::{Patch, PatchParams},
};
use ludis_api::db;
use ludis_crds::{ANNOTATION_OWNER, Insight, LABEL_ID};
use serde_json::{Value, json};

use crate::{
    gitops::{eventually, gitops_apply, mirrored, organization, user},
    helpers::{apps, cluster},
};

#[tokio::test]
async fn a_user_report_names_only_its_own_report_folder() {
    let Some(client) = cluster().await else { return };
    for app in apps().await {
        let k = app.kind;
        let (org, slug, namespace) = organization(&app, &client, "Reports").await;
        let (owner, token) = user(&app, &format!("owner@{slug}.example"), "developer", &org).await;
        let insights: Api<Insight> = Api::namespaced(client.clone(), &namespace);
        let id = uuid::Uuid::new_v4().to_string();
        let manifest = |key: &str| -> Value {
            json!({
                "apiVersion": "ludis.dev/v1alpha1", "kind": "Insight",
                "metadata": {"name": "q3", "labels": {LABEL_ID: id}, "annotations": {ANNOTATION_OWNER: owner}},
                "spec": {"displayName": "Q3", "type": "user_report", "reportObject": key}
            })
        };

        // Admission refuses anything but `reports/<uuid>/<file name>`.
        for key in [
            "datasets/ludis-other/8d0f6c1e-0c59-4a8e-9a55-7ad3c2f1e0aa/secret.csv".to_owned(),
            "reports/q3.pdf".to_owned(),
            format!("reports/{id}/"),
            format!("reports/{id}/../../datasets/x.csv"),
            format!("reports/{id}/a/b.pdf"),
            format!("reports/{id}/..pdf"),
            format!("/reports/{id}/r.pdf"),
            format!("reports/{}/r.pdf", id.to_uppercase()),
        ] {
            let refused = insights
                .patch(
                    "q3",
                    &PatchParams::apply("argocd").force(),
                    &Patch::Apply(&manifest(&key)),
                )
                .await
                .expect_err(&format!("{k}: {key} must be refused"));
            assert!(
                refused.to_string().contains("reportObject must be"),
                "{k}: {key}: {refused}"
            );
        }

        // Another insight's folder has the right shape: admitted, but never mirrored (so never
        // presigned, nor deleted with this insight).
        let other = uuid::Uuid::new_v4();
        gitops_apply(&insights, "argocd", &manifest(&format!("reports/{other}/r.pdf"))).await;
        let row = mirrored(&app, &namespace, "q3").await;
        assert_eq!(row.id, id, "{k}");
        let report_object = || async {
            db::details::by_id::<db::insights::InsightRow>(&app.state.db, &id)
                .await
                .unwrap()
                .unwrap()
                .details
                .report_object
        };
        assert_eq!(report_object().await, None, "{k}: another insight's file");
        let (s, b) = app.get(&format!("/v1/applications/{id}"), &token).await;
        assert_eq!((s.as_u16(), &b["report_url"]), (200, &Value::Null), "{k}: {b}");

        // Its own folder is mirrored.
        let own = format!("reports/{id}/Q3_report-v2.pdf");
        gitops_apply(&insights, "argocd", &manifest(&own)).await;
        eventually("the report's own file is mirrored", || async {
            report_object().await.as_deref() == Some(own.as_str())
        })
        .await;
        crate::gitops::delete_namespace(&client, &namespace).await;
    }
}
