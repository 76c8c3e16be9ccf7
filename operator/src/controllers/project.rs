//! Project → workspace PVC; while `preview.running`, a preview Pod (the project's image, with an
//! init container that checks out the git repository) and a Service for its web port.

use std::{collections::BTreeMap, sync::Arc};

use futures::Stream;
use k8s_openapi::{
    api::core::v1::{
        Container, ContainerPort, EnvFromSource, EnvVar, EnvVarSource, PersistentVolumeClaim,
        PersistentVolumeClaimSpec, Pod, PodSpec, Secret, SecretEnvSource, SecretKeySelector, Service,
        ServicePort, ServiceSpec, VolumeMount, VolumeResourceRequirements,
    },
    apimachinery::pkg::{api::resource::Quantity, util::intstr::IntOrString},
};
use kube::{
    Api, ResourceExt as _,
    api::ObjectMeta,
    core::{DeserializeGuard, PartialObjectMeta},
    runtime::{Controller, controller::Action, watcher},
};
use ludis_crds::{
    Project, ProjectStatus,
    project::{GitSource, ProjectPhase},
};

use super::{RESYNC, Verdict, dataset::DatasetRef, pods};
use crate::{
    context::{Context, ImageCatalog},
    error::{self, Error, Result},
    k8s::{
        apply::{apply_if_changed, delete_children, named, owner_ref, patch_status},
        labels::child_labels,
        stores::{owned_by, primaries},
    },
};

const CONTROLLER: &str = "project";
const WORKSPACE: &str = "/workspace";

pub fn controller(
    ctx: Arc<Context>,
    shutdown: impl std::future::Future<Output = ()> + Send + Sync + 'static,
) -> impl Stream<Item = ()> {
    let client = ctx.client.clone();
    let caches = &ctx.caches;
    let ours = |component: &str| {
        let mut selector = "app.kubernetes.io/managed-by=ludis-operator,ludis.dev/project".to_owned();
        if !component.is_empty() {
            selector.push_str(",app.kubernetes.io/component=");
            selector.push_str(component);
        }
        watcher::Config::default().labels(&selector).any_semantic()
    };
    let (projects, trigger) = primaries(Api::<DeserializeGuard<Project>>::all(client.clone()));
    let controller = Controller::for_stream(trigger, projects)
        .owns_stream(
            caches
                .preview_pods
                .trimmed(Api::<Pod>::all(client.clone()), ours("preview"), |p| {
                    p.spec = None
                }),
        )
        .owns_stream(caches.workspaces.full(
            Api::<PartialObjectMeta<PersistentVolumeClaim>>::all(client.clone()),
            ours("workspace"),
        ))
        .owns_stream(caches.project_services.full(
            Api::<PartialObjectMeta<Service>>::all(client.clone()),
            ours("preview"),
        ))
        .reconcile_all_on(ctx.image_watch.changes());
    caches.projects.set(controller.store());
    super::drive(controller, CONTROLLER, reconcile, ctx, shutdown)
}

/// What the reconcile reads (from caches, and Secrets from the API server).
pub struct Observed {
    pub images: ImageCatalog,
    pub secrets: BTreeMap<String, bool>,
    pub datasets: BTreeMap<String, DatasetRef>,
    pub preview_pods: Vec<Arc<Pod>>,
    pub workspaces: Vec<ObjectMeta>,
    pub services: Vec<ObjectMeta>,
}

/// A spec that passed validation, with its references resolved.
#[derive(Debug, PartialEq)]
pub struct Validated {
    pub image: String,
    /// Locations of the referenced datasets, by name.
    pub datasets: BTreeMap<String, String>,
}

/// Desired children.
#[derive(Debug)]
pub struct Desired {
    pub pvc: PersistentVolumeClaim,
    pub pod: Option<Pod>,
    pub service: Option<Service>,
}

async fn reconcile(project: Arc<Project>, ctx: Arc<Context>) -> Result<Action> {
    let ns = project.namespace().unwrap_or_default();
    let observed = observe(&project, &ctx, &ns).await?;
    let verdict = match validate(&project, &observed) {
        Err(verdict) => verdict,
        Ok(valid) => {
            let desired = build(&project, &valid, &ctx.config);
            apply_children(&ctx, &project, &desired, &observed).await?;
            let pod = desired.pod.as_ref().and_then(|want| {
                observed
                    .preview_pods
                    .iter()
                    .find(|p| p.name_any() == want.name_any() && p.metadata.deletion_timestamp.is_none())
            });
            return finish(
                &ctx,
                &project,
                phase_of(&project, pod.map(AsRef::as_ref)),
                &desired,
            )
            .await;
        }
    };
    // Invalid spec: nothing is created; the status says why, and we wait for a change (or, when
    // waiting on something that is on its way, look again shortly).
    let waiting = verdict.progressing;
    let status = ProjectStatus {
        observed_generation: project.metadata.generation,
        phase: Some(if waiting {
            ProjectPhase::Starting
        } else {
            ProjectPhase::Failed
        }),
        conditions: verdict.conditions(&conditions_of(&project), project.metadata.generation),
        ..Default::default()
    };
    patch_status(&ctx.client, project.as_ref(), &status)
        .await
        .map_err(Error::PatchStatus)?;
    Ok(super::retry_invalid(&verdict))
}

async fn observe(project: &Project, ctx: &Context, ns: &str) -> Result<Observed> {
    let images = ctx.images().await.map_err(Error::ReadImages)?;
    let secrets_api: Api<Secret> = Api::namespaced(ctx.client.clone(), ns);
    let mut secrets = BTreeMap::new();
    for name in referenced_secrets(project) {
        let exists = secrets_api
            .get_metadata_opt(&name)
            .await
            .map_err(error::observe("secret"))?
            .is_some();
        secrets.insert(name, exists);
    }
    let uid = project.uid().unwrap_or_default();
    let caches = &ctx.caches;
    let datasets = super::dataset::resolve(ctx, ns, &project.spec.datasets).await?;
    Ok(Observed {
        images,
        secrets,
        datasets,
        preview_pods: owned_by(caches.preview_pods.ready("preview pod").await?, ns, &uid),
        workspaces: metadata(owned_by(caches.workspaces.ready("workspace").await?, ns, &uid)),
        services: metadata(owned_by(
            caches.project_services.ready("preview service").await?,
            ns,
            &uid,
        )),
    })
}

fn metadata<K>(objects: Vec<Arc<PartialObjectMeta<K>>>) -> Vec<ObjectMeta> {
    objects.iter().map(|m| m.metadata.clone()).collect()
}

fn referenced_secrets(project: &Project) -> Vec<String> {
    let mut names = Vec::new();
    if let Some(s) = &project.spec.env_secret {
        names.push(s.name.clone());
    }
    if let Some(GitSource {
        credentials_secret: Some(s),
        ..
    }) = &project.spec.git
    {
        names.push(s.name.clone());
    }
    names
}

/// Pure: is the spec something we can run?
pub fn validate(project: &Project, observed: &Observed) -> std::result::Result<Validated, Verdict> {
    let Some(image) = observed.images.resolve(&project.spec.image) else {
        return Err(Verdict::degraded(
            "ImageNotAllowed",
            format!(
                "image {:?} is not in the administrator's image list",
                project.spec.image
            ),
        ));
    };
    if let Some((name, _)) = observed.secrets.iter().find(|(_, exists)| !**exists) {
        return Err(Verdict::degraded(
            "SecretNotFound",
            format!("Secret {name:?} does not exist in this namespace"),
        ));
    }
    let datasets = super::dataset::locations(&observed.datasets)?;
    Ok(Validated {
        image: image.to_owned(),
        datasets,
    })
}

/// Pure: the children this project should have.
pub fn build(project: &Project, valid: &Validated, config: &crate::context::Config) -> Desired {
    let name = project.name_any();
    let ns = project.namespace();
    let owner = owner_ref(project);
    let meta = |child: String, component: &str| ObjectMeta {
        name: Some(child),
        namespace: ns.clone(),
        labels: Some(child_labels("project", &name, component)),
        owner_references: Some(vec![owner.clone()]),
        ..Default::default()
    };
    let pvc_name = format!("{name}-workspace");
    let pvc = PersistentVolumeClaim {
        metadata: meta(pvc_name.clone(), "workspace"),
        spec: Some(PersistentVolumeClaimSpec {
            access_modes: Some(vec!["ReadWriteOnce".into()]),
            storage_class_name: config.storage_class.clone(),
            resources: Some(VolumeResourceRequirements {
                requests: Some(BTreeMap::from([(
                    "storage".into(),
                    Quantity(project.spec.workspace_size.clone()),
                )])),
                ..Default::default()
            }),
            ..Default::default()
        }),
        status: None,
    };
    if !project.spec.preview.running {
        return Desired {
            pvc,
            pod: None,
            service: None,
        };
    }

    let port = project.spec.preview.port;
    let mut containers_env = Vec::new();
    let mut env_from = Vec::new();
    if !valid.datasets.is_empty() {
        env_from.push(pods::storage_env_from());
    }
    // The project's own variables come last, so they win over the storage defaults.
    env_from.extend(project.spec.env_secret.as_ref().map(|s| EnvFromSource {
        secret_ref: Some(SecretEnvSource {
            name: s.name.clone(),
            optional: Some(false),
        }),
        ..Default::default()
    }));
    let env_from = (!env_from.is_empty()).then_some(env_from);
    containers_env.push(EnvVar {
        name: "LUDIS_PROJECT".into(),
        value: Some(name.clone()),
        ..Default::default()
    });
    containers_env.push(EnvVar {
        name: "PORT".into(),
        value: Some(port.to_string()),
        ..Default::default()
    });
    containers_env.extend(pods::dataset_env(&valid.datasets));
    let workspace_mount = VolumeMount {
        name: "workspace".into(),
        mount_path: WORKSPACE.into(),
        ..Default::default()
    };
    let main = Container {
        name: "preview".into(),
        image: Some(valid.image.clone()),
        args: (!project.spec.preview.command.is_empty()).then(|| project.spec.preview.command.clone()),
        working_dir: Some(WORKSPACE.into()),
        env: Some(containers_env),
        env_from,
        ports: Some(vec![ContainerPort {
            name: Some("web".into()),
            container_port: port,
            ..Default::default()
        }]),
        resources: Some(pods::resources(&project.spec.resources, "500m", "1Gi")),
        security_context: Some(pods::container_security_context()),
        volume_mounts: Some(vec![workspace_mount.clone()]),
        ..Default::default()
    };
    let init = project
        .spec
        .git
        .as_ref()
        .map(|git| git_checkout(git, &config.git_image, workspace_mount));
    let pod_spec = PodSpec {
        init_containers: init.map(|c| vec![c]),
        containers: vec![main],
        restart_policy: Some("Always".into()),
        volumes: Some(vec![pods::pvc_volume("workspace", pvc_name, false)]),
        ..pods::restricted(config)
    };
    // A pod's spec cannot change in place: a changed spec is a new pod (the old one is an orphan).
    let pod_name = format!("{name}-preview-{}", pods::spec_hash(&pod_spec));
    let pod = Pod {
        metadata: meta(pod_name, "preview"),
        spec: Some(pod_spec),
        status: None,
    };
    let service = Service {
        metadata: meta(format!("{name}-preview"), "preview"),
        spec: Some(ServiceSpec {
            selector: Some(BTreeMap::from([
                (
                    "ludis.dev/project".to_owned(),
                    child_labels("project", &name, "preview")["ludis.dev/project"].clone(),
                ),
                ("app.kubernetes.io/component".to_owned(), "preview".to_owned()),
            ])),
            ports: Some(vec![ServicePort {
                name: Some("web".into()),
                port,
                target_port: Some(IntOrString::String("web".into())),
                ..Default::default()
            }]),
            ..Default::default()
        }),
        status: None,
    };
    Desired {
        pvc,
        pod: Some(pod),
        service: Some(service),
    }
}

/// The init container that clones the repository into the workspace, or pulls it when present.
fn git_checkout(git: &GitSource, image: &str, mount: VolumeMount) -> Container {
    let mut env = vec![
        EnvVar {
            name: "REPO_URL".into(),
            value: Some(git.url.clone()),
            ..Default::default()
        },
        EnvVar {
            name: "BRANCH".into(),
            value: Some(git.branch.clone()),
            ..Default::default()
        },
        EnvVar {
            name: "HOME".into(),
            value: Some("/tmp".into()),
            ..Default::default()
        },
    ];
    if let Some(secret) = &git.credentials_secret {
        for (var, key) in [("GIT_USERNAME", "username"), ("GIT_TOKEN", "token")] {
            env.push(EnvVar {
                name: var.into(),
                value_from: Some(EnvVarSource {
                    secret_key_ref: Some(SecretKeySelector {
                        name: secret.name.clone(),
                        key: key.into(),
                        optional: Some(false),
                    }),
                    ..Default::default()
                }),
                ..Default::default()
            });
        }
    }
    let script = r#"set -eu
helper='!f() { echo "username=${GIT_USERNAME:-}"; echo "password=${GIT_TOKEN:-}"; }; f'
if [ -d /workspace/.git ]; then
  # The volume's root may belong to another user than the checkout (root, or the fsGroup).
  git -C /workspace -c safe.directory=/workspace -c credential.helper="$helper" pull --ff-only
else
  git -c credential.helper="$helper" clone --branch "$BRANCH" -- "$REPO_URL" /workspace
fi"#;
    Container {
        name: "git-checkout".into(),
        image: Some(image.to_owned()),
        args: Some(vec!["sh".into(), "-c".into(), script.into()]),
        env: Some(env),
        security_context: Some(pods::container_security_context()),
        volume_mounts: Some(vec![mount]),
        ..Default::default()
    }
}

async fn apply_children(
    ctx: &Context,
    project: &Project,
    desired: &Desired,
    observed: &Observed,
) -> Result<()> {
    let client = &ctx.client;
    let ns = project.namespace().unwrap_or_default();
    let ns = ns.as_str();
    let key = format!("{CONTROLLER}/{ns}/{}", project.name_any());
    let force = ctx.full_apply_due(&key);
    let pvc_name = desired.pvc.name_any();
    apply_if_changed(
        client,
        ns,
        &desired.pvc,
        named(&observed.workspaces, &pvc_name),
        force,
    )
    .await
    .map_err(error::apply("workspace volume", &pvc_name))?;
    let pods: Vec<ObjectMeta> = observed.preview_pods.iter().map(|p| p.metadata.clone()).collect();
    if let Some(pod) = &desired.pod {
        // A pod's spec cannot change in place; its name carries the spec's hash.
        apply_if_changed(client, ns, pod, named(&pods, &pod.name_any()), force)
            .await
            .map_err(error::apply("preview pod", &pod.name_any()))?;
    }
    if let Some(svc) = &desired.service {
        apply_if_changed(client, ns, svc, named(&observed.services, &svc.name_any()), force)
            .await
            .map_err(error::apply("preview service", &svc.name_any()))?;
    }
    delete_children::<Pod>(client, ns, &pods, desired.pod.as_ref().map(|p| p.name_any()))
        .await
        .map_err(error::orphans("preview pods"))?;
    let keep = desired.service.as_ref().map(|s| s.name_any());
    delete_children::<Service>(client, ns, &observed.services, keep)
        .await
        .map_err(error::orphans("preview services"))?;
    if force {
        ctx.fully_applied(&key);
    }
    Ok(())
}

/// Pure: the phase and verdict from the observed preview pod.
pub fn phase_of(project: &Project, pod: Option<&Pod>) -> (ProjectPhase, Verdict) {
    if !project.spec.preview.running {
        return (
            ProjectPhase::Stopped,
            Verdict::ready("Stopped", "the workspace is ready; no preview runs"),
        );
    }
    let Some(pod) = pod else {
        return (
            ProjectPhase::Starting,
            Verdict::progressing("PreviewStarting", "the preview pod is being created"),
        );
    };
    let status = pod.status.as_ref();
    let ready = status
        .and_then(|s| s.conditions.as_ref())
        .is_some_and(|c| c.iter().any(|c| c.type_ == "Ready" && c.status == "True"));
    match status.and_then(|s| s.phase.as_deref()) {
        Some("Running") if ready => (
            ProjectPhase::Running,
            Verdict::ready("PreviewRunning", "the preview runs"),
        ),
        Some("Failed") => (
            ProjectPhase::Failed,
            Verdict::degraded("PreviewFailed", "the preview pod failed; see its logs"),
        ),
        Some("Succeeded") => (
            ProjectPhase::Failed,
            Verdict::degraded("PreviewExited", "the preview command exited"),
        ),
        _ => (
            ProjectPhase::Starting,
            Verdict::progressing("PreviewStarting", "waiting for the preview pod to be ready"),
        ),
    }
}

async fn finish(
    ctx: &Context,
    project: &Project,
    (phase, verdict): (ProjectPhase, Verdict),
    desired: &Desired,
) -> Result<Action> {
    let ns = project.namespace().unwrap_or_default();
    let status = ProjectStatus {
        observed_generation: project.metadata.generation,
        phase: Some(phase),
        preview_pod: desired.pod.as_ref().map(|p| p.name_any()),
        url: desired
            .service
            .as_ref()
            .map(|s| format!("http://{}.{ns}.svc:{}", s.name_any(), project.spec.preview.port)),
        port: desired.service.as_ref().map(|_| project.spec.preview.port),
        conditions: verdict.conditions(&conditions_of(project), project.metadata.generation),
    };
    if project.status.as_ref() != Some(&status) {
        patch_status(&ctx.client, project, &status)
            .await
            .map_err(Error::PatchStatus)?;
    }
    Ok(Action::requeue(RESYNC))
}

fn conditions_of(project: &Project) -> Vec<k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition> {
    project
        .status
        .as_ref()
        .map(|s| s.conditions.clone())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use ludis_crds::ProjectSpec;
    use serde_json::json;

    use super::*;
    use crate::context::Config;

    fn project(spec: serde_json::Value) -> Project {
        let mut p = Project::new("demo", serde_json::from_value::<ProjectSpec>(spec).unwrap());
        p.metadata.namespace = Some("ludis-acme".into());
        p.metadata.uid = Some("uid-1".into());
        p.metadata.generation = Some(2);
        p
    }

    fn observed(images: &[(&str, &str)], secrets: &[(&str, bool)]) -> Observed {
        Observed {
            images: ImageCatalog(
                images
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect(),
            ),
            secrets: secrets.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
            datasets: BTreeMap::new(),
            preview_pods: Vec::new(),
            workspaces: Vec::new(),
            services: Vec::new(),
        }
    }

    #[test]
    fn an_image_outside_the_list_is_refused() {
        let p = project(json!({"displayName": "Demo", "image": "hacker/miner:latest"}));
        let err = validate(&p, &observed(&[("python-3.12", "python:3.12")], &[])).unwrap_err();
        assert_eq!(err.reason, "ImageNotAllowed");
        assert!(err.degraded);
    }

    #[test]
    fn a_missing_secret_is_reported_by_name() {
        let p = project(json!({"displayName": "Demo", "image": "py", "envSecret": {"name": "env"}}));
        let err = validate(&p, &observed(&[("py", "python:3.12")], &[("env", false)])).unwrap_err();
        assert_eq!(err.reason, "SecretNotFound");
        assert!(err.message.contains("\"env\""));
    }

    #[test]
    fn a_stopped_project_has_only_its_workspace() {
        let p = project(json!({"displayName": "Demo", "image": "py", "workspaceSize": "5Gi"}));
        let d = build(
            &p,
            &Validated {
                image: "python:3.12".into(),
                datasets: BTreeMap::new(),
            },
            &Config::for_tests("ludis-system"),
        );
        assert!(d.pod.is_none() && d.service.is_none());
        let pvc = d.pvc;
        assert_eq!(pvc.metadata.name.as_deref(), Some("demo-workspace"));
        assert_eq!(
            pvc.spec.unwrap().resources.unwrap().requests.unwrap()["storage"].0,
            "5Gi"
        );
        assert_eq!(pvc.metadata.owner_references.unwrap()[0].controller, Some(true));
    }

    #[test]
    fn a_running_preview_is_a_restricted_pod_with_a_service() {
        let p = project(json!({
            "displayName": "Demo", "image": "py",
            "git": {"url": "https://git.example/acme/demo.git", "credentialsSecret": {"name": "git"}},
            "envSecret": {"name": "env"},
            "preview": {"running": true, "command": ["python", "app.py"], "port": 8501}
        }));
        let d = build(
            &p,
            &Validated {
                image: "python:3.12".into(),
                datasets: BTreeMap::new(),
            },
            &Config::for_tests("ludis-system"),
        );
        let pod = d.pod.unwrap();
        let spec = pod.spec.unwrap();
        assert_eq!(spec.automount_service_account_token, Some(false));
        assert!(spec.service_account_name.is_none() && spec.host_network.is_none());
        assert_eq!(spec.security_context.unwrap().run_as_non_root, Some(true));
        let main = &spec.containers[0];
        assert_eq!(main.image.as_deref(), Some("python:3.12"));
        assert_eq!(main.args.as_ref().unwrap(), &["python", "app.py"]);
        assert_eq!(main.ports.as_ref().unwrap()[0].container_port, 8501);
        assert_eq!(
            main.env_from.as_ref().unwrap()[0]
                .secret_ref
                .as_ref()
                .unwrap()
                .name,
            "env"
        );
        let init = &spec.init_containers.unwrap()[0];
        assert_eq!(init.name, "git-checkout");
        let env: Vec<_> = init
            .env
            .as_ref()
            .unwrap()
            .iter()
            .map(|e| e.name.as_str())
            .collect();
        assert!(env.contains(&"GIT_TOKEN") && env.contains(&"REPO_URL"));
        let svc = d.service.unwrap();
        assert_eq!(svc.spec.unwrap().ports.unwrap()[0].port, 8501);
    }

    #[test]
    fn referenced_datasets_reach_the_preview_with_the_storage_credentials() {
        let p = project(
            json!({"displayName": "D", "image": "py", "envSecret": {"name": "env"},
            "datasets": [{"name": "sales"}], "preview": {"running": true}}),
        );
        let v = Validated {
            image: "python:3.12".into(),
            datasets: BTreeMap::from([("sales".into(), "s3://acme/datasets/42/".into())]),
        };
        let pod = build(&p, &v, &Config::for_tests("ludis-system")).pod.unwrap();
        let main = &pod.spec.unwrap().containers[0];
        let env = main.env.as_ref().unwrap();
        let sales = env.iter().find(|e| e.name == "LUDIS_DATASET_SALES").unwrap();
        assert_eq!(sales.value.as_deref(), Some("s3://acme/datasets/42/"));
        let from: Vec<_> = main
            .env_from
            .as_ref()
            .unwrap()
            .iter()
            .map(|f| f.secret_ref.as_ref().unwrap().name.as_str())
            .collect();
        assert_eq!(from, ["ludis-storage", "env"]);

        let missing = observed(&[("py", "python:3.12")], &[]);
        let missing = Observed {
            datasets: BTreeMap::from([("sales".into(), DatasetRef::Missing)]),
            ..missing
        };
        assert_eq!(validate(&p, &missing).unwrap_err().reason, "DatasetNotFound");
    }

    #[test]
    fn a_changed_preview_gets_a_new_pod_name() {
        let config = Config::for_tests("ludis-system");
        let v = Validated {
            image: "python:3.12".into(),
            datasets: BTreeMap::new(),
        };
        let a = build(
            &project(json!({"displayName": "D", "image": "py", "preview": {"running": true}})),
            &v,
            &config,
        );
        let b = build(
            &project(
                json!({"displayName": "D", "image": "py", "preview": {"running": true, "command": ["x"]}}),
            ),
            &v,
            &config,
        );
        assert_ne!(a.pod.unwrap().metadata.name, b.pod.unwrap().metadata.name);
    }

    #[test]
    fn phases_follow_the_preview_pod() {
        let running = project(json!({"displayName": "D", "image": "py", "preview": {"running": true}}));
        assert_eq!(phase_of(&running, None).0, ProjectPhase::Starting);
        let pod: Pod = serde_json::from_value(json!({"status": {"phase": "Running",
            "conditions": [{"type": "Ready", "status": "True"}]}}))
        .unwrap();
        let (phase, verdict) = phase_of(&running, Some(&pod));
        assert_eq!(phase, ProjectPhase::Running);
        assert!(verdict.ready);
        let failed: Pod = serde_json::from_value(json!({"status": {"phase": "Failed"}})).unwrap();
        assert_eq!(phase_of(&running, Some(&failed)).1.reason, "PreviewFailed");
        let stopped = project(json!({"displayName": "D", "image": "py"}));
        assert_eq!(phase_of(&stopped, None).0, ProjectPhase::Stopped);
    }
}
