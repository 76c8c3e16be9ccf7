//! Build (pure): the children of a valid insight — an application's Deployment and Service, or a
//! report's render Job (named by the hash of what it renders) — and where a report's output goes.

use std::collections::BTreeMap;

use k8s_openapi::{
    api::{
        apps::v1::{Deployment, DeploymentSpec},
        batch::v1::{Job, JobSpec},
        core::v1::{
            Container, ContainerPort, EnvVar, PodSpec, PodTemplateSpec, Probe, Service, ServicePort,
            ServiceSpec, TCPSocketAction, VolumeMount,
        },
    },
    apimachinery::pkg::{apis::meta::v1::LabelSelector, util::intstr::IntOrString},
};
use kube::{ResourceExt as _, api::ObjectMeta};
use ludis_crds::{
    ANNOTATION_REDEPLOY_TOKEN, Insight, LABEL_ID, LABEL_INSIGHT,
    insight::InsightType,
    launch::{self, Purpose, Supervision},
};

use super::validate::Validated;
use crate::{
    context::Config,
    controllers::{
        checkout::{self, WORKSPACE},
        pods,
        storage_identity::StorageIdentity,
    },
    k8s::{
        apply::owner_ref,
        labels::{child_labels, pod_selector},
    },
    sizes::{self, Helper},
};

/// Scratch folder a report renders into, before it is published.
const OUTPUT: &str = "/output";

/// Desired children.
#[derive(Debug, Default)]
pub struct Desired {
    pub deployment: Option<Deployment>,
    pub service: Option<Service>,
    pub job: Option<Job>,
    /// Where the report's output is published.
    pub report_output: Option<String>,
}

/// Pure: the children of a valid insight. A report renders only when its organization's bucket is
/// known (`bucket`); the configuration names the publishing image and the workloads' tolerations.
pub fn build(insight: &Insight, valid: &Validated, config: &Config, bucket: Option<&str>) -> Desired {
    let Validated::Workload {
        image,
        size,
        datasets,
        entry,
        git,
    } = valid
    else {
        return Desired::default();
    };
    let Some(source) = &insight.spec.source else {
        return Desired::default();
    };
    let name = insight.name_any();
    let ns = insight.namespace();
    let owner = owner_ref(insight);
    let labels = |component: &str| child_labels(LABEL_INSIGHT, &name, component);
    let meta = |child: String, component: &str| ObjectMeta {
        name: Some(child),
        namespace: ns.clone(),
        labels: Some(labels(component)),
        owner_references: Some(vec![owner.clone()]),
        ..Default::default()
    };
    let application = insight.spec.type_ == InsightType::Application;
    // The launch rule, as the API showed it: an application serves its entry file (and ends when
    // its program ends, so a crashing app is seen failing); a report renders it.
    let purpose = if application {
        Purpose::Serve
    } else {
        Purpose::Render
    };
    let env = [
        ("PORT", insight.spec.port.to_string()),
        (launch::ENTRY_VARIABLE, entry.clone()),
    ]
    .into_iter()
    .map(|(name, value)| EnvVar {
        name: name.into(),
        value: Some(value),
        ..Default::default()
    });
    let mut container = Container {
        name: "app".into(),
        image: Some(image.clone()),
        args: Some(launch::script(purpose, Supervision::Exec)),
        working_dir: Some(WORKSPACE.into()),
        ports: application.then(|| {
            vec![ContainerPort {
                name: Some("web".into()),
                container_port: insight.spec.port,
                ..Default::default()
            }]
        }),
        // Serving once its port takes connections: the status says Running only then.
        readiness_probe: application.then(|| Probe {
            tcp_socket: Some(TCPSocketAction {
                port: IntOrString::String("web".into()),
                ..Default::default()
            }),
            period_seconds: Some(2),
            failure_threshold: Some(2),
            ..Default::default()
        }),
        env: Some(env.chain(pods::dataset_env(datasets)).collect()),
        resources: Some(sizes::requirements(size, &insight.spec.resources)),
        security_context: Some(pods::container_security_context()),
        volume_mounts: Some(vec![VolumeMount {
            name: "source".into(),
            mount_path: WORKSPACE.into(),
            // Its own checkout is the app's to write in; a project's live workspace is not.
            read_only: git.is_none().then_some(true),
            ..Default::default()
        }]),
        ..Default::default()
    };
    // The published revision, checked out into a volume of the pod's own; a project without a
    // repository is run from its workspace volume.
    let (checkout, source_volume) = match git {
        Some(git) => (
            Some(
                checkout::git_checkout(
                    git,
                    source.revision.as_deref(),
                    config,
                    VolumeMount {
                        name: "source".into(),
                        mount_path: WORKSPACE.into(),
                        ..Default::default()
                    },
                )
                .tree_only(),
            ),
            pods::scratch_volume("source", pods::SCRATCH_LIMIT),
        ),
        None => (
            None,
            pods::pvc_volume("source", format!("{}-workspace", source.project), true),
        ),
    };
    // The program (an app's, a report's render) reaches its datasets with the pod's identity.
    let identity = StorageIdentity::for_datasets(config, datasets.keys());
    let mut volumes = vec![source_volume];
    let mut annotations = BTreeMap::new();
    if let Some(c) = &checkout {
        volumes = c.volumes(volumes);
        annotations.extend(c.annotations().unwrap_or_default());
    }
    if let Some(identity) = &identity {
        identity.give(&mut container);
        volumes = identity.volumes(volumes);
        identity.annotate(&mut annotations);
    }
    let pod_spec = |restart: &str| PodSpec {
        init_containers: checkout.as_ref().map(|c| vec![c.container.clone()]),
        containers: vec![container.clone()],
        restart_policy: Some(restart.into()),
        volumes: Some(volumes.clone()),
        ..pods::restricted(config)
    };
    match insight.spec.type_ {
        InsightType::Application => {
            if let Some(token) = &insight.spec.redeploy_token {
                annotations.insert(ANNOTATION_REDEPLOY_TOKEN.to_owned(), token.clone());
            }
            let selector = pod_selector(LABEL_INSIGHT, &name, "app");
            let deployment = Deployment {
                metadata: meta(name.clone(), "app"),
                spec: Some(DeploymentSpec {
                    replicas: Some(i32::from(insight.spec.running && !insight.is_idle())),
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
            let mut publish = Container {
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
                resources: Some(Helper::Publish.requirements()),
                security_context: Some(pods::container_security_context()),
                volume_mounts: Some(vec![VolumeMount {
                    read_only: Some(true),
                    ..output_mount
                }]),
                ..Default::default()
            };
            let mut spec = pod_spec("Never");
            spec.volumes
                .get_or_insert_default()
                .push(pods::scratch_volume("output", pods::OUTPUT_LIMIT));
            // Only the publish container may write the output, with a token of its own: the
            // program that renders never holds it.
            if let Some(writer) = StorageIdentity::for_report_output(config, &output) {
                writer.give(&mut publish);
                spec.volumes = spec.volumes.map(|v| writer.volumes(v));
                writer.annotate(&mut annotations);
            }
            spec.init_containers.get_or_insert_default().push(render);
            spec.containers = vec![publish];
            let job = Job {
                metadata: meta(format!("{name}-render-{hash}"), "report"),
                spec: Some(JobSpec {
                    backoff_limit: Some(1),
                    ttl_seconds_after_finished: None,
                    template: PodTemplateSpec {
                        metadata: Some(ObjectMeta {
                            labels: Some(labels("report")),
                            annotations: (!annotations.is_empty()).then_some(annotations),
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{
        super::{fixtures::*, status::phase_of, validate::validate},
        *,
    };
    use ludis_crds::insight::InsightPhase;

    #[test]
    fn an_application_is_a_deployment_and_a_service() {
        let i = app(json!({"port": 8050}));
        let valid = validate(&i, &observed(Some(true))).unwrap();
        let d = build(&i, &valid, &Config::for_tests("ludis-system"), None);
        let dep = d.deployment.unwrap();
        let spec = dep.spec.unwrap();
        assert_eq!(spec.replicas, Some(1));
        let pod = spec.template.spec.unwrap();
        let app = &pod.containers[0];
        // The launch rule serves the entry file; the app is ready when its port answers.
        assert_eq!(
            app.args.as_ref().unwrap(),
            &launch::script(Purpose::Serve, Supervision::Exec)
        );
        let env = app.env.as_ref().unwrap();
        assert!(
            env.iter()
                .any(|e| e.name == "LUDIS_ENTRY" && e.value.as_deref() == Some("app.py"))
        );
        assert!(app.readiness_probe.as_ref().unwrap().tcp_socket.is_some());
        // A project without a repository: its workspace, read-only.
        let volume = &pod.volumes.unwrap()[0];
        assert_eq!(
            volume.persistent_volume_claim.as_ref().unwrap().claim_name,
            "demo-workspace"
        );
        assert_eq!(app.volume_mounts.as_ref().unwrap()[0].read_only, Some(true));
        assert!(pod.init_containers.is_none());
        assert_eq!(d.service.unwrap().spec.unwrap().ports.unwrap()[0].port, 8050);
        assert!(d.job.is_none());
    }

    #[test]
    fn an_application_runs_its_published_revision_from_a_checkout_of_its_own() {
        let i = app(json!({"source": {"project": "demo", "files": ["dash/app.py"],
            "revision": "0123456789abcdef0123456789abcdef01234567"}}));
        let mut seen = observed(Some(true));
        seen.git = Some(
            serde_json::from_value(json!({"url": "http://git/demo.git",
            "credentialsSecret": {"name": "demo-git"}}))
            .unwrap(),
        );
        let valid = validate(&i, &seen).unwrap();
        let d = build(&i, &valid, &Config::for_tests("ludis-system"), None);
        let pod = d.deployment.unwrap().spec.unwrap().template.spec.unwrap();
        let checkout = &pod.init_containers.as_ref().unwrap()[0];
        assert_eq!(checkout.args.as_ref().unwrap()[2], checkout::CHECKOUT_SCRIPT);
        let revision = checkout
            .env
            .as_ref()
            .unwrap()
            .iter()
            .find(|e| e.name == "REVISION")
            .unwrap();
        assert_eq!(
            revision.value.as_deref(),
            Some("0123456789abcdef0123456789abcdef01234567")
        );
        // The published tree without the repository: viewers fetch no history.
        assert!(
            checkout
                .env
                .iter()
                .flatten()
                .any(|e| e.name == "LUDIS_TREE_ONLY" && e.value.as_deref() == Some("1"))
        );
        // Its own volume, never the project's live workspace.
        let volume = &pod.volumes.as_ref().unwrap()[0];
        assert!(volume.empty_dir.is_some() && volume.persistent_volume_claim.is_none());
        assert_eq!(
            crate::controllers::pods::scratch_limit(volume),
            Some(crate::controllers::pods::SCRATCH_LIMIT),
            "its scratch space is bounded"
        );
        let env = pod.containers[0].env.as_ref().unwrap();
        assert!(
            env.iter()
                .any(|e| e.name == "LUDIS_ENTRY" && e.value.as_deref() == Some("dash/app.py"))
        );
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
        assert_eq!(
            render.args.as_ref().unwrap(),
            &launch::script(Purpose::Render, Supervision::Exec)
        );
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
        assert!(pod.volumes.unwrap().iter().any(|v| v.name == "output"
            && crate::controllers::pods::scratch_limit(v) == Some(crate::controllers::pods::OUTPUT_LIMIT)));
        let mut r2 = r.clone();
        r2.spec.redeploy_token = Some("again".into());
        let b = build(&r2, &workload("r:4"), &config, Some("acme")).job.unwrap();
        assert_ne!(a.metadata.name, b.metadata.name);
        // Without a bucket, nothing renders.
        assert!(build(&r, &workload("r:4"), &config, None).job.is_none());
    }

    /// A workload reading the dataset `sales`, checked out from the API's git server.
    fn with_sales() -> (Validated, Config) {
        let valid = Validated::Workload {
            image: "python:3.12".into(),
            size: Box::new(small()),
            datasets: BTreeMap::from([("sales".into(), "s3://acme/datasets/ludis-acme/42/".into())]),
            entry: "app.py".into(),
            git: Some(
                serde_json::from_value(json!({"url": "http://10.0.0.1:8080/git/ludis-acme/demo.git"}))
                    .unwrap(),
            ),
        };
        let config = Config {
            git_url: Some("http://10.0.0.1:8080/git".into()),
            storage_url: Some("http://10.146.0.1:8082".into()),
            ..Config::for_tests("ludis-system")
        };
        (valid, config)
    }

    fn mounts(c: &Container) -> Vec<&str> {
        c.volume_mounts
            .iter()
            .flatten()
            .map(|m| m.name.as_str())
            .collect()
    }

    fn token_file(c: &Container) -> Option<&str> {
        c.env
            .iter()
            .flatten()
            .find(|e| e.name == "AWS_WEB_IDENTITY_TOKEN_FILE")
            .and_then(|e| e.value.as_deref())
    }

    #[test]
    fn an_application_reaches_its_datasets_with_the_pod_s_identity() {
        let (valid, config) = with_sales();
        let d = build(&app(json!({"redeployToken": "t1"})), &valid, &config, None);
        let template = d.deployment.unwrap().spec.unwrap().template;
        let annotations = template.metadata.unwrap().annotations.unwrap();
        assert_eq!(annotations[ludis_crds::ANNOTATION_DATASETS], "sales");
        assert_eq!(
            annotations[ludis_crds::ANNOTATION_CHECKOUT],
            "ludis-acme/demo.git"
        );
        assert_eq!(annotations[ANNOTATION_REDEPLOY_TOKEN], "t1");
        let pod = template.spec.unwrap();
        let app = &pod.containers[0];
        assert!(app.env_from.is_none(), "no Secret of storage keys");
        assert_eq!(token_file(app), Some("/var/run/secrets/ludis.dev/storage/token"));
        assert!(mounts(app).contains(&"storage-identity"));
        let init = &pod.init_containers.unwrap()[0];
        assert!(!mounts(init).contains(&"storage-identity") && token_file(init).is_none());
        let volumes = pod.volumes.unwrap();
        assert!(volumes.iter().any(|v| v.name == "storage-identity"));
        assert!(volumes.iter().all(|v| v.secret.is_none()));
    }

    #[test]
    fn a_report_renders_with_its_datasets_and_only_its_publisher_writes_the_output() {
        let (valid, config) = with_sales();
        let r = insight(
            json!({"displayName": "Q3", "type": "report", "image": "default-python",
            "source": {"project": "demo", "files": ["app.py"]}}),
        );
        let d = build(&r, &valid, &config, Some("acme"));
        let output = d.report_output.unwrap();
        let template = d.job.unwrap().spec.unwrap().template;
        let annotations = template.metadata.unwrap().annotations.unwrap();
        assert_eq!(annotations[ludis_crds::ANNOTATION_DATASETS], "sales");
        assert_eq!(annotations[ludis_crds::ANNOTATION_OUTPUT], output);
        let pod = template.spec.unwrap();
        let inits = pod.init_containers.as_ref().unwrap();
        let (checkout, render) = (&inits[0], &inits[1]);
        assert_eq!(
            (checkout.name.as_str(), render.name.as_str()),
            ("git-checkout", "render")
        );
        // The user's program reads its datasets and never holds the output's token.
        assert_eq!(
            token_file(render),
            Some("/var/run/secrets/ludis.dev/storage/token")
        );
        assert!(!mounts(render).contains(&"storage-output"));
        assert!(!mounts(checkout).contains(&"storage-output") && token_file(checkout).is_none());
        // The publisher writes the output with its own token, and reaches no dataset.
        let publish = &pod.containers[0];
        assert_eq!(
            token_file(publish),
            Some("/var/run/secrets/ludis.dev/storage-output/token")
        );
        assert!(mounts(publish).contains(&"storage-output"));
        assert!(!mounts(publish).contains(&"storage-identity"));
        assert!(publish.env_from.is_none());
        let volumes = pod.volumes.unwrap();
        let output_token = volumes.iter().find(|v| v.name == "storage-output").unwrap();
        let token = output_token.projected.as_ref().unwrap().sources.as_ref().unwrap()[0]
            .service_account_token
            .as_ref()
            .unwrap();
        assert_eq!(token.audience.as_deref(), Some(ludis_crds::OUTPUT_AUDIENCE));
        assert!(volumes.iter().all(|v| v.secret.is_none()));

        // A report without datasets: only the publisher has an identity.
        let d = build(&r, &workload("python:3.12"), &config, Some("acme"));
        let template = d.job.unwrap().spec.unwrap().template;
        let annotations = template.metadata.unwrap().annotations.unwrap();
        assert!(!annotations.contains_key(ludis_crds::ANNOTATION_DATASETS));
        assert!(annotations.contains_key(ludis_crds::ANNOTATION_OUTPUT));
        let pod = template.spec.unwrap();
        assert!(token_file(&pod.init_containers.unwrap()[0]).is_none());

        // Without a gateway: no identity at all, and no key instead.
        let d = build(&r, &valid, &Config::for_tests("ludis-system"), Some("acme"));
        let pod = d.job.unwrap().spec.unwrap().template.spec.unwrap();
        // The renderer takes the report's size, the publisher its own; all are bounded.
        crate::sizes::assert_bounded(&pod);
        let render = &pod.init_containers.as_ref().unwrap()[1];
        assert_eq!(
            render.resources.as_ref().unwrap().requests.as_ref().unwrap()["cpu"].0,
            "250m"
        );
        for c in pod.init_containers.iter().flatten().chain(&pod.containers) {
            assert!(token_file(c).is_none() && c.env_from.is_none(), "{}", c.name);
        }
        assert!(
            pod.volumes
                .unwrap()
                .iter()
                .all(|v| v.projected.is_none() && v.secret.is_none())
        );
    }
}
