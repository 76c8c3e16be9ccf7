//! An organization's quota (issue 34): its namespace gets its tier's ResourceQuota; its
//! administrators see what is used of it; a start it has no room for is refused before anything
//! changes, saying which resource and who can raise it; a tier change moves the quota.

use k8s_openapi::api::core::v1::{Pod, ResourceQuota};
use kube::{
    Api,
    api::{DeleteParams, PostParams},
};
use serde_json::{Value, json};

use crate::{admin::superadmin, gitops::eventually_within, helpers::apps};

/// Waits until the namespace's quota counts `cpu` as set aside. The quota controller's first
/// count of a new quota comes from its own cache of pods, which may not have seen a pod made
/// just before: a pod is made after that count, and the test goes on once the pod is counted.
async fn counted(quotas: &Api<ResourceQuota>, cpu: &str) {
    eventually_within(&format!("the quota to count {cpu} of CPU"), 60, || async {
        let Ok(q) = quotas.get("ludis-quota").await else {
            return false;
        };
        let used = q.status.and_then(|s| s.used).unwrap_or_default();
        used.get("requests.cpu").is_some_and(|q| q.0 == cpu)
    })
    .await;
}

fn line<'a>(body: &'a Value, resource: &str) -> &'a Value {
    body["quota"]
        .as_array()
        .unwrap_or_else(|| panic!("no quota: {body}"))
        .iter()
        .find(|l| l["resource"] == resource)
        .unwrap_or_else(|| panic!("no {resource} in {body}"))
}

#[tokio::test]
async fn a_start_the_quota_has_no_room_for_is_refused_and_the_admin_sees_the_usage() {
    for app in apps().await {
        let k = app.kind;
        let client = app
            .state
            .kube
            .clone()
            .expect("a cluster (KUBECONFIG, set by dev/test.sh)");
        let org = app.unique_org("Quota").await;
        let admin = app.person(&org, "administrator", "Admin").await;
        let dev = app.person(&org, "developer", "Dev").await;
        // The project's resource makes the organization's namespace, with its quota.
        let id = app.project(&dev, "Filled").await;
        let a = ludis_api::db::assets::by_id(&app.state.db, &id)
            .await
            .unwrap()
            .unwrap();
        let namespace = a.namespace.clone().unwrap();

        let path = format!("/v1/organizations/{org}/quota");
        let (status, body) = app.get(&path, &admin.token).await;
        assert_eq!(status, 200, "{k}: {body}");
        assert_eq!(body["tier"], "free");
        assert_eq!(line(&body, "cpu")["hard"], "4", "{k}");
        assert_eq!(line(&body, "pods")["hard"], "50", "{k}");
        assert_eq!(line(&body, "persistent_volume_claims")["hard"], "20", "{k}");
        // Only administrators, and only of their organization (another's is not there at all).
        let (status, _) = app.get(&path, &dev.token).await;
        assert_eq!(status, 403, "{k}");
        let other = app.unique_org("Other quota").await;
        let stranger = app.person(&other, "administrator", "Stranger").await;
        let (status, _) = app.get(&path, &stranger.token).await;
        assert_eq!(status, 404, "{k}");

        // Something else sets aside 3.9 CPUs (a pod no node takes still counts).
        let quotas: Api<ResourceQuota> = Api::namespaced(client.clone(), &namespace);
        counted(&quotas, "0").await;
        let pods: Api<Pod> = Api::namespaced(client.clone(), &namespace);
        let filler: Pod = serde_json::from_value(json!({
            "metadata": {"name": "filler"},
            "spec": {"nodeSelector": {"ludis.dev/no-such-node": "x"},
                "securityContext": {"runAsNonRoot": true, "runAsUser": 1000, "seccompProfile": {"type": "RuntimeDefault"}},
                "containers": (["a", "b"].map(|c| json!({
                    "name": c, "image": "localhost/ludis/pause:none",
                    "securityContext": {"allowPrivilegeEscalation": false, "capabilities": {"drop": ["ALL"]}},
                    // At most 2 CPUs a container (the organization's LimitRange).
                    "resources": {"requests": {"cpu": "1950m", "memory": "64Mi", "ephemeral-storage": "16Mi"},
                                  "limits": {"cpu": "1950m", "memory": "64Mi", "ephemeral-storage": "16Mi"}}})))}
        }))
        .unwrap();
        pods.create(&PostParams::default(), &filler).await.unwrap();
        counted(&quotas, "3900m").await;

        // A run that does not fit is refused, and the project stays stopped.
        let run = format!("/v2/projects/run/{id}");
        let (status, body) = app.post(&run, Some(&dev.token), json!({})).await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (
                409,
                Some(
                    "Your organization's quota of CPU is used up: 3900m of 4 is in use and this needs 500m more. \
                     Stop something it runs, or ask a Ludis administrator (superadmin) to raise the quota \
                     (it follows the organization's tier)."
                )
            ),
            "{k}"
        );
        let cr = Api::<ludis_crds::Project>::namespaced(client.clone(), &namespace)
            .get(&a.resource_name.clone().unwrap())
            .await
            .unwrap();
        assert!(!cr.spec.preview.running, "{k}: nothing changed");
        let (_, body) = app.get(&path, &admin.token).await;
        assert_eq!(line(&body, "cpu")["used"], "3900m", "{k}");

        // A superadmin moves the organization to the paid tier: its quota grows, and the run fits.
        let root = superadmin(&app, &org).await;
        let (status, body) = app
            .put(
                &format!("/v1/organizations/{org}"),
                &root,
                json!({"organization": {"tier": "paid"}}),
            )
            .await;
        assert_eq!(status, 200, "{k}: {body}");
        let (_, body) = app.get(&path, &admin.token).await;
        assert_eq!(
            (body["tier"].as_str(), line(&body, "cpu")["hard"].as_str()),
            (Some("paid"), Some("16")),
            "{k}"
        );
        let (status, body) = app.post(&run, Some(&dev.token), json!({})).await;
        assert_eq!(status, 200, "{k}: {body}");
        let (status, body) = app
            .post(&format!("/v2/projects/stop/{id}"), Some(&dev.token), json!({}))
            .await;
        assert_eq!(status, 200, "{k}: {body}");
        pods.delete("filler", &DeleteParams::default()).await.unwrap();
    }
}
