//! How a pod's containers reach object storage: with the pod's own identity, never a key. The
//! API's storage gateway (`LUDIS_STORAGE_URL`: S3 and STS on one endpoint) exchanges a
//! service-account token the kubelet projected into the container (bound to the pod, renewed
//! before it expires, dead with the pod) for short-lived credentials
//! (`AssumeRoleWithWebIdentity`), which reach what the pod's annotation names and nothing else:
//!
//! - a workload's datasets ([`ANNOTATION_DATASETS`], token audience [`STORAGE_AUDIENCE`]): the
//!   containers of user code of previews, applications and reports that reference datasets, and
//!   a workflow's upload task;
//! - a report's output location ([`ANNOTATION_OUTPUT`], token audience [`OUTPUT_AUDIENCE`]): its
//!   publish container only, never the container that runs the user's program.
//!
//! The AWS SDKs and CLIs (boto3, the aws CLI, arrow, paws…) do the exchange by themselves from the
//! standard variables ([`StorageIdentity::env`]). Init containers that check code out never get
//! a storage token. Without `LUDIS_STORAGE_URL` no pod gets one (and none gets a key instead).

use std::collections::{BTreeMap, BTreeSet};

use k8s_openapi::api::core::v1::{
    ConfigMapProjection, Container, EnvVar, EnvVarSource, KeyToPath, ObjectFieldSelector, Volume,
    VolumeMount, VolumeProjection,
};
use ludis_crds::keys::{
    ANNOTATION_DATASETS, ANNOTATION_OUTPUT, OUTPUT_AUDIENCE, STORAGE_AUDIENCE, STORAGE_CLIENT_CONFIG_KEY,
    STORAGE_CLIENT_CONFIGMAP, STORAGE_ROLE_ARN,
};

use super::pods;
use crate::context::Config;

/// The volume and folder of the token for a workload's datasets.
pub const DATASETS_VOLUME: &str = "storage-identity";
pub const DATASETS_DIR: &str = "/var/run/secrets/ludis.dev/storage";
/// The volume and folder of the token for a report's output (its publish container's).
pub const OUTPUT_VOLUME: &str = "storage-output";
pub const OUTPUT_DIR: &str = "/var/run/secrets/ludis.dev/storage-output";
/// The tokens' lifetime; the kubelet renews them before they expire and the SDKs read them again
/// when their credentials run out.
const TOKEN_SECONDS: i64 = 3600;
/// The region the SDKs sign for (the gateway has one).
const REGION: &str = "us-east-1";

/// What a token may be exchanged for: its audience, where it is, the annotation naming what it
/// reaches.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Grant {
    audience: &'static str,
    volume: &'static str,
    dir: &'static str,
    annotation: &'static str,
}

const DATASETS: Grant = Grant {
    audience: STORAGE_AUDIENCE,
    volume: DATASETS_VOLUME,
    dir: DATASETS_DIR,
    annotation: ANNOTATION_DATASETS,
};
const OUTPUT: Grant = Grant {
    audience: OUTPUT_AUDIENCE,
    volume: OUTPUT_VOLUME,
    dir: OUTPUT_DIR,
    annotation: ANNOTATION_OUTPUT,
};

/// One storage identity of a pod: the variables and token mount of the containers that hold it,
/// and the volume and annotation of the pod.
#[derive(Clone, Debug, PartialEq)]
pub struct StorageIdentity {
    grant: Grant,
    /// The gateway (`LUDIS_STORAGE_URL`).
    endpoint: String,
    /// The annotation's value: what the credentials reach.
    reaches: String,
}

impl StorageIdentity {
    /// The identity of containers using the datasets `names` (resource names in the pod's
    /// namespace); None without a gateway or without datasets.
    pub fn for_datasets<'a>(config: &Config, names: impl IntoIterator<Item = &'a String>) -> Option<Self> {
        let names: BTreeSet<&str> = names.into_iter().map(String::as_str).collect();
        Self::new(config, DATASETS, names.into_iter().collect::<Vec<_>>().join(","))
    }

    /// The identity of a report's publish container, writing `location`
    /// (`s3://<bucket>/<prefix>/`); None without a gateway.
    pub fn for_report_output(config: &Config, location: &str) -> Option<Self> {
        Self::new(config, OUTPUT, location.to_owned())
    }

    fn new(config: &Config, grant: Grant, reaches: String) -> Option<Self> {
        let endpoint = config.storage_url.clone()?;
        (!reaches.is_empty()).then_some(Self {
            grant,
            endpoint,
            reaches,
        })
    }

    /// `container` holding this identity: its variables and the token's read-only mount.
    pub fn give(&self, container: &mut Container) {
        container.env.get_or_insert_default().extend(self.env());
        container.volume_mounts.get_or_insert_default().push(self.mount());
    }

    /// The standard variables with which the AWS SDKs exchange the token at the gateway's STS and
    /// reach its S3 (`AWS_CONFIG_FILE`: the organization's SDK settings, path-style addressing).
    pub fn env(&self) -> Vec<EnvVar> {
        let dir = self.grant.dir;
        let session = EnvVar {
            name: "AWS_ROLE_SESSION_NAME".into(),
            value_from: Some(EnvVarSource {
                field_ref: Some(ObjectFieldSelector {
                    field_path: "metadata.name".into(),
                    ..Default::default()
                }),
                ..Default::default()
            }),
            ..Default::default()
        };
        let mut env = vec![
            pods::env_var("AWS_ROLE_ARN", STORAGE_ROLE_ARN),
            pods::env_var("AWS_WEB_IDENTITY_TOKEN_FILE", &format!("{dir}/token")),
            session,
        ];
        env.extend(
            [
                ("AWS_ENDPOINT_URL", self.endpoint.as_str()),
                ("AWS_ENDPOINT_URL_STS", &self.endpoint),
                ("AWS_REGION", REGION),
                ("AWS_DEFAULT_REGION", REGION),
                ("AWS_CONFIG_FILE", &format!("{dir}/config")),
                ("AWS_EC2_METADATA_DISABLED", "true"),
            ]
            .map(|(name, value)| pods::env_var(name, value)),
        );
        env
    }

    /// `volumes` and this identity's: the token, and the SDK config file of the ConfigMap
    /// [`STORAGE_CLIENT_CONFIGMAP`] (optional: the SDKs' defaults without it).
    pub fn volumes(&self, mut volumes: Vec<Volume>) -> Vec<Volume> {
        let config = VolumeProjection {
            config_map: Some(ConfigMapProjection {
                name: STORAGE_CLIENT_CONFIGMAP.into(),
                optional: Some(true),
                items: Some(vec![KeyToPath {
                    key: STORAGE_CLIENT_CONFIG_KEY.into(),
                    path: "config".into(),
                    mode: None,
                }]),
            }),
            ..Default::default()
        };
        volumes.push(pods::token_volume(
            self.grant.volume,
            self.grant.audience,
            TOKEN_SECONDS,
            vec![config],
        ));
        volumes
    }

    /// `annotations` and this identity's (what its credentials reach).
    pub fn annotate(&self, annotations: &mut BTreeMap<String, String>) {
        annotations.insert(self.grant.annotation.to_owned(), self.reaches.clone());
    }

    /// The read-only mount of this identity's token and SDK config.
    pub fn mount(&self) -> VolumeMount {
        pods::read_only_mount(self.grant.volume, self.grant.dir)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> Config {
        Config {
            storage_url: Some("http://10.146.0.1:8082".into()),
            ..Config::for_tests("ludis-system")
        }
    }

    fn value(env: &[EnvVar], name: &str) -> Option<String> {
        env.iter().find(|e| e.name == name).and_then(|e| e.value.clone())
    }

    #[test]
    fn datasets_are_named_sorted_once_and_reached_with_the_pod_s_token() {
        let names = ["sales".to_owned(), "a-logs".into(), "sales".into()];
        let id = StorageIdentity::for_datasets(&config(), &names).unwrap();
        let mut annotations = BTreeMap::new();
        id.annotate(&mut annotations);
        assert_eq!(
            annotations,
            BTreeMap::from([(ANNOTATION_DATASETS.to_owned(), "a-logs,sales".to_owned())])
        );

        let mut container = Container::default();
        id.give(&mut container);
        let env = container.env.unwrap();
        for (name, expected) in [
            ("AWS_ROLE_ARN", STORAGE_ROLE_ARN),
            (
                "AWS_WEB_IDENTITY_TOKEN_FILE",
                "/var/run/secrets/ludis.dev/storage/token",
            ),
            ("AWS_ENDPOINT_URL", "http://10.146.0.1:8082"),
            ("AWS_ENDPOINT_URL_STS", "http://10.146.0.1:8082"),
            ("AWS_REGION", "us-east-1"),
            ("AWS_DEFAULT_REGION", "us-east-1"),
            ("AWS_CONFIG_FILE", "/var/run/secrets/ludis.dev/storage/config"),
            ("AWS_EC2_METADATA_DISABLED", "true"),
        ] {
            assert_eq!(value(&env, name).as_deref(), Some(expected), "{name}");
        }
        let session = env.iter().find(|e| e.name == "AWS_ROLE_SESSION_NAME").unwrap();
        assert_eq!(
            session
                .value_from
                .as_ref()
                .unwrap()
                .field_ref
                .as_ref()
                .unwrap()
                .field_path,
            "metadata.name"
        );
        assert_eq!(env.len(), 9);
        assert!(
            !env.iter().any(|e| e.name.starts_with("AWS_ACCESS_KEY")
                || e.name.starts_with("AWS_SECRET")
                || e.value_from.as_ref().is_some_and(|v| v.secret_key_ref.is_some())),
            "no key reaches a pod: {env:?}"
        );
        let mounts = container.volume_mounts.unwrap();
        assert_eq!(
            mounts,
            [pods::read_only_mount(
                "storage-identity",
                "/var/run/secrets/ludis.dev/storage"
            )]
        );

        let volumes = id.volumes(vec![Volume::default()]);
        assert_eq!(volumes.len(), 2);
        assert_eq!(volumes[1].name, "storage-identity");
        let sources = volumes[1].projected.as_ref().unwrap().sources.as_ref().unwrap();
        let token = sources[0].service_account_token.as_ref().unwrap();
        assert_eq!(
            (
                token.audience.as_deref(),
                token.expiration_seconds,
                token.path.as_str()
            ),
            (Some(STORAGE_AUDIENCE), Some(3600), "token")
        );
        let sdk = sources[1].config_map.as_ref().unwrap();
        assert_eq!(sdk.name, STORAGE_CLIENT_CONFIGMAP);
        assert_eq!(sdk.optional, Some(true));
        let item = &sdk.items.as_ref().unwrap()[0];
        assert_eq!(
            (item.key.as_str(), item.path.as_str()),
            (STORAGE_CLIENT_CONFIG_KEY, "config")
        );
        assert!(
            sources.iter().all(|s| s.secret.is_none()),
            "no Secret: {sources:?}"
        );
    }

    #[test]
    fn a_report_s_output_has_a_token_and_annotation_of_its_own() {
        let id = StorageIdentity::for_report_output(&config(), "s3://acme/reports/7/abc/").unwrap();
        let mut annotations = BTreeMap::new();
        id.annotate(&mut annotations);
        assert_eq!(annotations[ANNOTATION_OUTPUT], "s3://acme/reports/7/abc/");
        assert!(!annotations.contains_key(ANNOTATION_DATASETS));
        let env = id.env();
        assert_eq!(
            value(&env, "AWS_WEB_IDENTITY_TOKEN_FILE").as_deref(),
            Some("/var/run/secrets/ludis.dev/storage-output/token")
        );
        assert_eq!(
            value(&env, "AWS_CONFIG_FILE").as_deref(),
            Some("/var/run/secrets/ludis.dev/storage-output/config")
        );
        assert_eq!(id.mount().mount_path, "/var/run/secrets/ludis.dev/storage-output");
        let volume = &id.volumes(Vec::new())[0];
        assert_eq!(volume.name, "storage-output");
        let token = volume.projected.as_ref().unwrap().sources.as_ref().unwrap()[0]
            .service_account_token
            .clone()
            .unwrap();
        assert_eq!(token.audience.as_deref(), Some(OUTPUT_AUDIENCE));
    }

    #[test]
    fn without_a_gateway_or_datasets_there_is_no_identity() {
        let none = Config::for_tests("ludis-system");
        assert_eq!(none.storage_url, None);
        assert!(StorageIdentity::for_datasets(&none, &["sales".to_owned()]).is_none());
        assert!(StorageIdentity::for_report_output(&none, "s3://acme/r/").is_none());
        assert!(StorageIdentity::for_datasets(&config(), &[]).is_none());
    }
}
