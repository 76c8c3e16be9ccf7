//! Insight → for an application, a Deployment (scaled to zero while `running` is false; a new
//! `redeployToken` rolls it) and a Service; for a report, a Job that renders it; nothing for a
//! user_report or an external application (`appUrl`).

use std::{collections::BTreeMap, sync::Arc};

use futures::Stream;
use k8s_openapi::{
    api::{
        apps::v1::{Deployment, DeploymentSpec},
        batch::v1::{Job, JobSpec},
        core::v1::{
            Container, ContainerPort, EmptyDirVolumeSource, EnvVar, PodSpec, PodTemplateSpec, Service,
            ServicePort, ServiceSpec, Volume, VolumeMount,
        },
    },
    apimachinery::pkg::{apis::meta::v1::LabelSelector, util::intstr::IntOrString},
};
use kube::{
    Api, ResourceExt as _,
    api::ObjectMeta,
    core::{DeserializeGuard, PartialObjectMeta},
    runtime::{
        Controller, PredicateConfig, WatchStreamExt as _,
        controller::Action,
        predicates,
        reflector::{ObjectRef, Store},
        watcher,
    },
};
use ludis_crds::{
    Insight, InsightStatus, LABEL_ID, Project,
    common::CONDITION_DEGRADED,
    insight::{InsightPhase, InsightType},
};

use super::{RESYNC, Verdict, dataset::DatasetRef, pods};
use crate::{
    context::{Config, Context, ImageCatalog},
    error::{self, Error, Result},
    k8s::{
        apply::{apply_if_changed, delete_children, named, owner_ref, patch_status},
        labels::child_labels,
        stores::{owned_by, primaries},
    },
};

const CONTROLLER: &str = "insight";
const WORKSPACE: &str = "/workspace";
/// Scratch folder a report renders into, before it is published.
const OUTPUT: &str = "/output";

pub fn controller(
    ctx: Arc<Context>,
    shutdown: impl std::future::Future<Output = ()> + Send + Sync + 'static,
) -> impl Stream<Item = ()> {
    let client = ctx.client.clone();
    let caches = &ctx.caches;
    let ours = || {
        watcher::Config::default()
            .labels("app.kubernetes.io/managed-by=ludis-operator,ludis.dev/insight")
            .any_semantic()
    };
    let (insights, trigger) = primaries(Api::<DeserializeGuard<Insight>>::all(client.clone()));
    let controller = Controller::for_stream(trigger, insights.clone());
    // An insight refused for a missing source project is looked at again when that project
    // appears (new projects only: generation changes, not status updates, pass the filter).
    let projects = watcher(
        Api::<PartialObjectMeta<Project>>::all(client.clone()),
        watcher::Config::default().any_semantic(),
    )
    .default_backoff()
    .applied_objects()
    .predicate_filter(predicates::generation, PredicateConfig::default());
    let controller = controller
        .owns_stream(
            caches
                .deployments
                .trimmed(Api::<Deployment>::all(client.clone()), ours(), |d| d.spec = None),
        )
        .owns_stream(
            caches
                .report_jobs
                .trimmed(Api::<Job>::all(client.clone()), ours(), |j| j.spec = None),
        )
        .owns_stream(
            caches
                .insight_services
                .full(Api::<PartialObjectMeta<Service>>::all(client.clone()), ours()),
        )
        .watches_stream(projects, move |project| waiting_for_project(&insights, &project))
        .reconcile_all_on(ctx.image_watch.changes());
    super::drive(controller, CONTROLLER, reconcile, ctx, shutdown)
}

/// The insights in `store` that are refused because `project` did not exist.
fn waiting_for_project(
    store: &Store<DeserializeGuard<Insight>>,
    project: &PartialObjectMeta<Project>,
) -> Vec<ObjectRef<DeserializeGuard<Insight>>> {
    let (Some(ns), Some(name)) = (&project.metadata.namespace, &project.metadata.name) else {
        return Vec::new();
    };
    store
        .state_filter(|guard| {
            let Ok(i) = &guard.0 else { return false };
            i.metadata.namespace.as_ref() == Some(ns)
                && i.spec.source.as_ref().is_some_and(|s| &s.project == name)
                && i.status.as_ref().is_some_and(|s| {
                    s.conditions
                        .iter()
                        .any(|c| c.type_ == CONDITION_DEGRADED && c.reason == "ProjectNotFound")
                })
        })
        .iter()
        .map(|g| ObjectRef::from_obj(g.as_ref()))
        .collect()
}

/// What the reconcile reads (from caches; a source project missing from the cache is looked up).
pub struct Observed {
    pub images: ImageCatalog,
    /// Whether the source project exists (None: no source).
    pub project_exists: Option<bool>,
    pub datasets: BTreeMap<String, DatasetRef>,
    /// The organization's bucket, where a report's output goes (reports only).
    pub bucket: Option<String>,
    pub deployments: Vec<Arc<Deployment>>,
    pub jobs: Vec<Arc<Job>>,
    pub services: Vec<ObjectMeta>,
}

impl Observed {
    /// The application's Deployment (named like the insight).
    pub fn deployment(&self, name: &str) -> Option<&Deployment> {
        self.deployments
            .iter()
            .map(AsRef::as_ref)
            .find(|d| d.metadata.name.as_deref() == Some(name))
    }
}

/// What runs for a valid insight.
#[derive(Debug, PartialEq)]
pub enum Validated {
    /// Nothing runs: an external app or an uploaded report.
    Nothing,
    /// A workload with this resolved image and the locations of its datasets.
    Workload {
        image: String,
        datasets: BTreeMap<String, String>,
    },
}

#[derive(Debug, Default)]
pub struct Desired {
    pub deployment: Option<Deployment>,
    pub service: Option<Service>,
    pub job: Option<Job>,
    /// Where the report's output is published.
    pub report_output: Option<String>,
}

async fn reconcile(insight: Arc<Insight>, ctx: Arc<Context>) -> Result<Action> {
    let ns = insight.namespace().unwrap_or_default();
    let observed = observe(&insight, &ctx, &ns).await?;
    let (desired, invalid) = match validate(&insight, &observed) {
        Err(verdict) => (Desired::default(), Some(verdict)),
        Ok(valid) => {
            let desired = build(&insight, &valid, &ctx.config, observed.bucket.as_deref());
            apply_children(&ctx, &ns, &insight, &desired, &observed).await?;
            (desired, None)
        }
    };
    let (phase, verdict) = match &invalid {
        Some(v) if v.degraded => (InsightPhase::Failed, v.clone()),
        // Waiting for something on its way (a dataset being set up).
        Some(v) if insight.spec.type_ == InsightType::Report => (InsightPhase::Rendering, v.clone()),
        Some(v) => (InsightPhase::Starting, v.clone()),
        None => phase_of(&insight, &desired, &observed),
    };
    let url = match (&insight.spec.app_url, &desired.service) {
        (Some(url), _) => Some(url.clone()),
        (None, Some(svc)) => Some(format!(
            "http://{}.{ns}.svc:{}",
            svc.name_any(),
            insight.spec.port
        )),
        _ => None,
    };
    let output = desired
        .report_output
        .clone()
        .filter(|_| phase == InsightPhase::Rendered);
    let status = InsightStatus {
        observed_generation: insight.metadata.generation,
        phase: Some(phase),
        url,
        output,
        conditions: verdict.conditions(
            &insight
                .status
                .as_ref()
                .map(|s| s.conditions.clone())
                .unwrap_or_default(),
            insight.metadata.generation,
        ),
    };
    if insight.status.as_ref() != Some(&status) {
        patch_status(&ctx.client, insight.as_ref(), &status)
            .await
            .map_err(Error::PatchStatus)?;
    }
    Ok(match &invalid {
        Some(v) => super::retry_invalid(v),
        None if verdict.degraded => Action::await_change(),
        None => Action::requeue(RESYNC),
    })
}

async fn observe(insight: &Insight, ctx: &Context, ns: &str) -> Result<Observed> {
    let images = ctx.images().await.map_err(Error::ReadImages)?;
    let caches = &ctx.caches;
    let project_exists = match &insight.spec.source {
        None => None,
        Some(src) => {
            let cached = caches
                .projects
                .get()
                .and_then(|s| s.get(&ObjectRef::new(&src.project).within(ns)))
                .is_some();
            // The cache may lag a project created a moment ago: only a hit is trusted.
            Some(
                cached
                    || Api::<Project>::namespaced(ctx.client.clone(), ns)
                        .get_metadata_opt(&src.project)
                        .await
                        .map_err(error::observe("source project"))?
                        .is_some(),
            )
        }
    };
    let uid = insight.uid().unwrap_or_default();
    let datasets = super::dataset::resolve(ctx, ns, &insight.spec.datasets).await?;
    let bucket = match insight.spec.type_ {
        InsightType::Report if insight.spec.app_url.is_none() => {
            Some(super::dataset::namespace_bucket(ctx, ns).await?)
        }
        _ => None,
    };
    Ok(Observed {
        images,
        project_exists,
        datasets,
        bucket,
        deployments: owned_by(caches.deployments.ready("deployment").await?, ns, &uid),
        jobs: owned_by(caches.report_jobs.ready("report job").await?, ns, &uid),
        services: owned_by(caches.insight_services.ready("service").await?, ns, &uid)
            .iter()
            .map(|m| m.metadata.clone())
            .collect(),
    })
}

/// Pure: what should run, or why nothing can.
pub fn validate(insight: &Insight, observed: &Observed) -> std::result::Result<Validated, Verdict> {
    let spec = &insight.spec;
    if spec.type_ == InsightType::UserReport || spec.app_url.is_some() {
        return Ok(Validated::Nothing);
    }
    if observed.project_exists == Some(false) {
        let project = spec
            .source
            .as_ref()
            .map(|s| s.project.as_str())
            .unwrap_or_default();
        return Err(Verdict::degraded(
            "ProjectNotFound",
            format!("the source project {project:?} does not exist"),
        ));
    }
    let id = spec
        .image
        .clone()
        .unwrap_or_else(|| format!("default-{}", language_key(spec.language)));
    match observed.images.resolve(&id) {
        Some(image) => Ok(Validated::Workload {
            image: image.to_owned(),
            datasets: super::dataset::locations(&observed.datasets)?,
        }),
        None => Err(Verdict::degraded(
            "ImageNotAllowed",
            format!("image {id:?} is not in the administrator's image list"),
        )),
    }
}

fn language_key(language: ludis_crds::common::Language) -> &'static str {
    match language {
        ludis_crds::common::Language::Python => "python",
        ludis_crds::common::Language::R => "r",
    }
}

/// Pure: the children of a valid insight. A report renders only when its organization's bucket is
/// known (`bucket`); the configuration names the publishing image and the workloads' tolerations.
pub fn build(insight: &Insight, valid: &Validated, config: &Config, bucket: Option<&str>) -> Desired {
    let Validated::Workload { image, datasets } = valid else {
        return Desired::default();
    };
    let Some(source) = &insight.spec.source else {
        return Desired::default();
    };
    let name = insight.name_any();
    let ns = insight.namespace();
    let owner = owner_ref(insight);
    let labels = |component: &str| child_labels("insight", &name, component);
    let meta = |child: String, component: &str| ObjectMeta {
        name: Some(child),
        namespace: ns.clone(),
        labels: Some(labels(component)),
        owner_references: Some(vec![owner.clone()]),
        ..Default::default()
    };
    let entry = source.files.first().cloned().unwrap_or_default();
    let container = Container {
        name: "app".into(),
        image: Some(image.clone()),
        args: Some(pods::run_command(insight.spec.language, &entry)),
        working_dir: Some(WORKSPACE.into()),
        ports: (insight.spec.type_ == InsightType::Application).then(|| {
            vec![ContainerPort {
                name: Some("web".into()),
                container_port: insight.spec.port,
                ..Default::default()
            }]
        }),
        env: Some(
            std::iter::once(EnvVar {
                name: "PORT".into(),
                value: Some(insight.spec.port.to_string()),
                ..Default::default()
            })
            .chain(pods::dataset_env(datasets))
            .collect(),
        ),
        env_from: (!datasets.is_empty()).then(|| vec![pods::storage_env_from()]),
        resources: Some(pods::resources(&insight.spec.resources, "250m", "512Mi")),
        security_context: Some(pods::container_security_context()),
        volume_mounts: Some(vec![VolumeMount {
            name: "source".into(),
            mount_path: WORKSPACE.into(),
            read_only: Some(true),
            ..Default::default()
        }]),
        ..Default::default()
    };
    let pod_spec = |restart: &str| PodSpec {
        containers: vec![container.clone()],
        restart_policy: Some(restart.into()),
        volumes: Some(vec![pods::pvc_volume(
            "source",
            format!("{}-workspace", source.project),
            true,
        )]),
        ..pods::restricted(config)
    };
    let mut annotations = BTreeMap::new();
    if let Some(token) = &insight.spec.redeploy_token {
        annotations.insert("ludis.dev/redeploy-token".to_owned(), token.clone());
    }
    match insight.spec.type_ {
        InsightType::Application => {
            let selector = BTreeMap::from([
                (
                    "ludis.dev/insight".to_owned(),
                    labels("app")["ludis.dev/insight"].clone(),
                ),
                ("app.kubernetes.io/component".to_owned(), "app".to_owned()),
            ]);
            let deployment = Deployment {
                metadata: meta(name.clone(), "app"),
                spec: Some(DeploymentSpec {
                    replicas: Some(i32::from(insight.spec.running)),
                    selector: LabelSelector {
                        match_labels: Some(selector.clone()),
                        ..Default::default()
                    },
                    template: PodTemplateSpec {
                        metadata: Some(ObjectMeta {
                            labels: Some(labels("app")),
                            annotations: (!annotations.is_empty()).then_some(annotations),
                            ..Default::default()
                        }),
                        spec: Some(pod_spec("Always")),
                    },
                    ..Default::default()
                }),
                status: None,
            };
            let service = Service {
                metadata: meta(name.clone(), "app"),
                spec: Some(ServiceSpec {
                    selector: Some(selector),
                    ports: Some(vec![ServicePort {
                        name: Some("web".into()),
                        port: insight.spec.port,
                        target_port: Some(IntOrString::String("web".into())),
                        ..Default::default()
                    }]),
                    ..Default::default()
                }),
                status: None,
            };
            Desired {
                deployment: Some(deployment),
                service: Some(service),
                ..Default::default()
            }
        }
        InsightType::Report => {
            let Some(bucket) = bucket else {
                return Desired::default();
            };
            // Each distinct source (and redeploy) renders once: the Job name carries its hash,
            // and so does the folder its output is published to.
            let hash = pods::spec_hash(&(&insight.spec.source, &insight.spec.redeploy_token, image));
            let id = insight
                .labels()
                .get(LABEL_ID)
                .cloned()
                .or_else(|| insight.uid())
                .unwrap_or_else(|| name.clone());
            let output = format!("s3://{bucket}/reports/{id}/{hash}/");
            let output_mount = VolumeMount {
                name: "output".into(),
                mount_path: OUTPUT.into(),
                ..Default::default()
            };
            // The report renders in an init container into a scratch folder; the main
            // container publishes that folder to object storage.
            let mut render = container.clone();
            render.name = "render".into();
            render.env.get_or_insert_default().push(EnvVar {
                name: "LUDIS_OUTPUT_DIR".into(),
                value: Some(OUTPUT.into()),
                ..Default::default()
            });
            render
                .volume_mounts
                .get_or_insert_default()
                .push(output_mount.clone());
            let publish = Container {
                name: "publish".into(),
                image: Some(config.upload_image.clone()),
                args: Some(vec![
                    "sh".into(),
                    "-c".into(),
                    "aws s3 cp --recursive \"$LUDIS_OUTPUT_DIR\" \"$LUDIS_DESTINATION\" ${AWS_ENDPOINT_URL:+--endpoint-url \"$AWS_ENDPOINT_URL\"}".into(),
                ]),
                env: Some(vec![
                    EnvVar {
                        name: "LUDIS_OUTPUT_DIR".into(),
                        value: Some(OUTPUT.into()),
                        ..Default::default()
                    },
                    EnvVar {
                        name: "LUDIS_DESTINATION".into(),
                        value: Some(output.clone()),
                        ..Default::default()
                    },
                    EnvVar {
                        name: "HOME".into(),
                        value: Some("/tmp".into()),
                        ..Default::default()
                    },
                ]),
                env_from: Some(vec![pods::storage_env_from()]),
                resources: Some(pods::resources(&Default::default(), "100m", "256Mi")),
                security_context: Some(pods::container_security_context()),
                volume_mounts: Some(vec![VolumeMount {
                    read_only: Some(true),
                    ..output_mount
                }]),
                ..Default::default()
            };
            let mut spec = pod_spec("Never");
            spec.init_containers = Some(vec![render]);
            spec.containers = vec![publish];
            spec.volumes.get_or_insert_default().push(Volume {
                name: "output".into(),
                empty_dir: Some(EmptyDirVolumeSource::default()),
                ..Default::default()
            });
            let job = Job {
                metadata: meta(format!("{name}-render-{hash}"), "report"),
                spec: Some(JobSpec {
                    backoff_limit: Some(1),
                    ttl_seconds_after_finished: None,
                    template: PodTemplateSpec {
                        metadata: Some(ObjectMeta {
                            labels: Some(labels("report")),
                            ..Default::default()
                        }),
                        spec: Some(spec),
                    },
                    ..Default::default()
                }),
                status: None,
            };
            Desired {
                job: Some(job),
                report_output: Some(output),
                ..Default::default()
            }
        }
        InsightType::UserReport => Desired::default(),
    }
}

async fn apply_children(
    ctx: &Context,
    ns: &str,
    insight: &Insight,
    desired: &Desired,
    observed: &Observed,
) -> Result<()> {
    let client = &ctx.client;
    let key = format!("{CONTROLLER}/{ns}/{}", insight.name_any());
    let force = ctx.full_apply_due(&key);
    let deployments: Vec<ObjectMeta> = observed.deployments.iter().map(|d| d.metadata.clone()).collect();
    let jobs: Vec<ObjectMeta> = observed.jobs.iter().map(|j| j.metadata.clone()).collect();
    // The Deployment and its Service are independent: applied side by side.
    let deployment = async {
        if let Some(d) = &desired.deployment {
            apply_if_changed(client, ns, d, named(&deployments, &d.name_any()), force)
                .await
                .map_err(error::apply("deployment", &d.name_any()))?;
        }
        Ok::<_, Error>(())
    };
    let service = async {
        if let Some(s) = &desired.service {
            apply_if_changed(client, ns, s, named(&observed.services, &s.name_any()), force)
                .await
                .map_err(error::apply("service", &s.name_any()))?;
        }
        Ok(())
    };
    futures::try_join!(deployment, service)?;
    if let Some(j) = &desired.job {
        // A Job's template is immutable: create it once (its name carries the hash of what it
        // renders), never re-apply.
        let exists = named(&jobs, &j.name_any()).is_some()
            || Api::<Job>::namespaced(client.clone(), ns)
                .get_metadata_opt(&j.name_any())
                .await
                .map_err(error::observe("report job"))?
                .is_some();
        if !exists {
            apply_if_changed(client, ns, j, None, true)
                .await
                .map_err(error::apply("report job", &j.name_any()))?;
        }
    }
    let keep = desired.deployment.as_ref().map(|d| d.name_any());
    delete_children::<Deployment>(client, ns, &deployments, keep)
        .await
        .map_err(error::orphans("deployments"))?;
    let keep = desired.service.as_ref().map(|s| s.name_any());
    delete_children::<Service>(client, ns, &observed.services, keep)
        .await
        .map_err(error::orphans("services"))?;
    let keep = desired.job.as_ref().map(|j| j.name_any());
    delete_children::<Job>(client, ns, &jobs, keep)
        .await
        .map_err(error::orphans("jobs"))?;
    if force {
        ctx.fully_applied(&key);
    }
    Ok(())
}

/// Pure: phase and verdict from the observed workload.
pub fn phase_of(insight: &Insight, desired: &Desired, observed: &Observed) -> (InsightPhase, Verdict) {
    if insight.spec.app_url.is_some() {
        return (
            InsightPhase::External,
            Verdict::ready("External", "an external application; nothing runs here"),
        );
    }
    match insight.spec.type_ {
        InsightType::UserReport => (
            InsightPhase::Uploaded,
            Verdict::ready("Uploaded", "an uploaded report"),
        ),
        InsightType::Application if !insight.spec.running => (
            InsightPhase::Stopped,
            Verdict::ready("Stopped", "the application is scaled to zero"),
        ),
        InsightType::Application => {
            let deployment = observed.deployment(&insight.name_any());
            let status = deployment.and_then(|d| d.status.as_ref());
            let generation_seen = deployment.is_some_and(|d| {
                d.status.as_ref().and_then(|s| s.observed_generation) >= d.metadata.generation
            });
            let updated = status.and_then(|s| s.updated_replicas).unwrap_or(0);
            let available = status.and_then(|s| s.available_replicas).unwrap_or(0);
            let total = status.and_then(|s| s.replicas).unwrap_or(0);
            if desired.deployment.is_some()
                && generation_seen
                && available >= 1
                && updated >= 1
                && total == updated
            {
                (
                    InsightPhase::Running,
                    Verdict::ready("Running", "the application runs"),
                )
            } else {
                (
                    InsightPhase::Starting,
                    Verdict::progressing("Starting", "waiting for the application to be available"),
                )
            }
        }
        InsightType::Report => {
            let want = desired.job.as_ref().map(|j| j.name_any());
            let job = observed.jobs.iter().find(|j| Some(j.name_any()) == want);
            let cond = |t: &str| {
                job.and_then(|j| j.status.as_ref()?.conditions.as_ref())
                    .is_some_and(|c| c.iter().any(|c| c.type_ == t && c.status == "True"))
            };
            if cond("Complete") {
                (
                    InsightPhase::Rendered,
                    Verdict::ready("Rendered", "the report is rendered"),
                )
            } else if cond("Failed") {
                (
                    InsightPhase::Failed,
                    Verdict::degraded("RenderFailed", "rendering the report failed; see the job's logs"),
                )
            } else {
                (
                    InsightPhase::Rendering,
                    Verdict::progressing("Rendering", "the report is being rendered"),
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use ludis_crds::InsightSpec;
    use serde_json::json;

    use super::*;

    fn insight(spec: serde_json::Value) -> Insight {
        let mut i = Insight::new("sales", serde_json::from_value::<InsightSpec>(spec).unwrap());
        i.metadata.namespace = Some("ludis-acme".into());
        i.metadata.uid = Some("uid-1".into());
        i
    }

    fn observed(project_exists: Option<bool>) -> Observed {
        Observed {
            images: ImageCatalog(BTreeMap::from([("default-python".into(), "python:3.12".into())])),
            project_exists,
            datasets: BTreeMap::new(),
            bucket: None,
            deployments: vec![],
            jobs: vec![],
            services: vec![],
        }
    }

    fn app(extra: serde_json::Value) -> Insight {
        let mut spec = json!({"displayName": "Sales", "type": "application", "source": {"project": "demo", "files": ["app.py"]}});
        spec.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        insight(spec)
    }

    #[test]
    fn an_application_is_a_deployment_and_a_service() {
        let i = app(json!({"port": 8050}));
        let valid = validate(&i, &observed(Some(true))).unwrap();
        let d = build(&i, &valid, &Config::for_tests("ludis-system"), None);
        let dep = d.deployment.unwrap();
        let spec = dep.spec.unwrap();
        assert_eq!(spec.replicas, Some(1));
        let pod = spec.template.spec.unwrap();
        assert_eq!(pod.containers[0].args.as_ref().unwrap(), &["python", "app.py"]);
        assert_eq!(
            pod.volumes.unwrap()[0]
                .persistent_volume_claim
                .as_ref()
                .unwrap()
                .claim_name,
            "demo-workspace"
        );
        assert_eq!(d.service.unwrap().spec.unwrap().ports.unwrap()[0].port, 8050);
        assert!(d.job.is_none());
    }

    #[test]
    fn a_stopped_application_scales_to_zero_and_a_redeploy_rolls_it() {
        let config = Config::for_tests("ludis-system");
        let stopped = build(&app(json!({"running": false})), &workload("i"), &config, None);
        assert_eq!(stopped.deployment.unwrap().spec.unwrap().replicas, Some(0));
        let rolled = build(
            &app(json!({"redeployToken": "2026-11-21T10:00:00Z"})),
            &workload("i"),
            &config,
            None,
        );
        let annotations = rolled
            .deployment
            .unwrap()
            .spec
            .unwrap()
            .template
            .metadata
            .unwrap()
            .annotations
            .unwrap();
        assert_eq!(annotations["ludis.dev/redeploy-token"], "2026-11-21T10:00:00Z");
    }

    #[test]
    fn external_apps_and_uploaded_reports_run_nothing() {
        let ext =
            insight(json!({"displayName": "Ext", "type": "application", "appUrl": "https://bi.example.com"}));
        assert_eq!(validate(&ext, &observed(None)).unwrap(), Validated::Nothing);
        let up =
            insight(json!({"displayName": "Up", "type": "user_report", "reportObject": "reports/q3.pdf"}));
        assert_eq!(validate(&up, &observed(None)).unwrap(), Validated::Nothing);
        let d = build(&up, &Validated::Nothing, &Config::for_tests("ludis-system"), None);
        assert!(d.deployment.is_none() && d.job.is_none() && d.service.is_none());
        assert_eq!(
            phase_of(&ext, &Desired::default(), &observed(None)).0,
            InsightPhase::External
        );
    }

    #[test]
    fn a_report_is_a_job_named_by_its_source() {
        let r = insight(
            json!({"displayName": "Q3", "type": "report", "language": "r", "image": "default-python",
            "source": {"project": "demo", "files": ["q3.Rmd"]}}),
        );
        let config = Config::for_tests("ludis-system");
        let d = build(&r, &workload("r:4"), &config, Some("acme"));
        let a = d.job.unwrap();
        assert!(a.metadata.name.as_ref().unwrap().starts_with("sales-render-"));
        let hash = a
            .metadata
            .name
            .as_ref()
            .unwrap()
            .rsplit('-')
            .next()
            .unwrap()
            .to_owned();
        // No label id: the uid names the report's folder.
        let output = d.report_output.unwrap();
        assert_eq!(output, format!("s3://acme/reports/uid-1/{hash}/"));
        let pod = a.spec.unwrap().template.spec.unwrap();
        // Rendering writes into the scratch folder; publishing copies it to the bucket.
        let render = &pod.init_containers.as_ref().unwrap()[0];
        assert_eq!(render.args.as_ref().unwrap()[0], "Rscript");
        let env = |c: &Container, k: &str| {
            c.env
                .as_ref()
                .unwrap()
                .iter()
                .find(|e| e.name == k)
                .and_then(|e| e.value.clone())
        };
        assert_eq!(env(render, "LUDIS_OUTPUT_DIR").as_deref(), Some("/output"));
        let publish = &pod.containers[0];
        assert_eq!(publish.image.as_deref(), Some(config.upload_image.as_str()));
        assert!(publish.args.as_ref().unwrap()[2].starts_with("aws s3 cp --recursive"));
        assert_eq!(env(publish, "LUDIS_DESTINATION"), Some(output));
        assert_eq!(publish.security_context, Some(pods::container_security_context()));
        assert!(
            pod.volumes
                .unwrap()
                .iter()
                .any(|v| v.name == "output" && v.empty_dir.is_some())
        );
        let mut r2 = r.clone();
        r2.spec.redeploy_token = Some("again".into());
        let b = build(&r2, &workload("r:4"), &config, Some("acme")).job.unwrap();
        assert_ne!(a.metadata.name, b.metadata.name);
        // Without a bucket, nothing renders.
        assert!(build(&r, &workload("r:4"), &config, None).job.is_none());
    }

    fn workload(image: &str) -> Validated {
        Validated::Workload {
            image: image.into(),
            datasets: BTreeMap::new(),
        }
    }

    #[test]
    fn a_missing_project_or_image_is_explained() {
        let i = app(json!({}));
        assert_eq!(
            validate(&i, &observed(Some(false))).unwrap_err().reason,
            "ProjectNotFound"
        );
        let i = app(json!({"image": "nope"}));
        assert_eq!(
            validate(&i, &observed(Some(true))).unwrap_err().reason,
            "ImageNotAllowed"
        );
    }
}
