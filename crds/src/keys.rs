//! Every label, annotation and finalizer key of the Ludis contract: written by one component and
//! read by another (API, operator, kubectl/GitOps users), so each is defined here, once.

/// Label carrying an asset's stable id (a UUID) on its custom resource and every child.
pub const LABEL_ID: &str = "ludis.dev/id";
/// Annotation carrying the uid (or e-mail) of an asset's owner.
pub const ANNOTATION_OWNER: &str = "ludis.dev/owner";

/// Label on an organization's namespace carrying the organization id.
pub const LABEL_ORGANIZATION: &str = "ludis.dev/organization";
/// Annotation on an organization's namespace naming the bucket of its datasets (the operator
/// falls back to its default bucket without it).
pub const ANNOTATION_BUCKET: &str = "ludis.dev/bucket";

/// Label on every child of a Project, naming it.
pub const LABEL_PROJECT: &str = "ludis.dev/project";
/// Label on every child of an Insight, naming it.
pub const LABEL_INSIGHT: &str = "ludis.dev/insight";
/// Label on every child of a Workflow (its CronJob, the Jobs of that CronJob, its WorkflowRuns
/// and their task pods), naming it.
pub const LABEL_WORKFLOW: &str = "ludis.dev/workflow";
/// Label on every child of a WorkflowRun (its task pods), naming it.
pub const LABEL_WORKFLOW_RUN: &str = "ludis.dev/workflowrun";
/// Label of a task pod naming its task.
pub const LABEL_TASK: &str = "ludis.dev/task";
/// Label of a task pod carrying its try number.
pub const LABEL_TRY: &str = "ludis.dev/try";

/// Annotation on every child the operator applies: the hash of what was applied, so an unchanged
/// child is not applied again.
pub const ANNOTATION_APPLIED_HASH: &str = "ludis.dev/applied-hash";
/// Annotation on an application Insight the API sets when nobody used the app for its
/// organization's idle time (an RFC 3339 time): the operator scales it to zero (phase `Idle`)
/// while `spec.running` stays the owner's wish; the API removes it on the next request through
/// its proxy, and the app starts again. Absent on an always-on app.
pub const ANNOTATION_IDLE_SINCE: &str = "ludis.dev/idle-since";
/// Annotation on an application's pod template carrying `spec.redeployToken`: a new token rolls
/// the pods.
pub const ANNOTATION_REDEPLOY_TOKEN: &str = "ludis.dev/redeploy-token";

/// Annotation on a pod whose checkout clones from the API's git server with the pod's own
/// identity token: the one repository (`<namespace>/<project id>.git`) that token may clone.
/// Only the operator writes pods in organization namespaces, so the API trusts it.
pub const ANNOTATION_CHECKOUT: &str = "ludis.dev/checkout";
/// The audience of the service-account token a pod's checkout shows the API's git server.
pub const GIT_AUDIENCE: &str = "ludis.dev/git";
/// The username a pod's checkout signs in to the API's git server with (its password is the
/// token for [`GIT_AUDIENCE`]).
pub const GIT_POD_USERNAME: &str = "ludis-pod";

/// Annotation on a pod whose containers reach datasets through the API's storage gateway: the
/// datasets its workload references (resource names in the pod's namespace, comma-separated,
/// sorted). The gateway lets the pod's credentials reach these and no other objects, each at the
/// level the workload's owner has on it now (read below edit). Only the operator writes it.
pub const ANNOTATION_DATASETS: &str = "ludis.dev/datasets";
/// Annotation on a report job's pod: the one location (`s3://<bucket>/<prefix>/`) its publish
/// container may write, with a token of [`OUTPUT_AUDIENCE`].
pub const ANNOTATION_OUTPUT: &str = "ludis.dev/output";
/// The audience of the service-account token containers show the storage gateway's STS
/// (`AssumeRoleWithWebIdentity`) for credentials to the datasets of [`ANNOTATION_DATASETS`].
pub const STORAGE_AUDIENCE: &str = "ludis.dev/storage";
/// The audience of the token of a report's publish container: credentials that write
/// [`ANNOTATION_OUTPUT`] only. The program that renders the report never holds one.
pub const OUTPUT_AUDIENCE: &str = "ludis.dev/report-output";
/// The role workloads name in `AssumeRoleWithWebIdentity` (`AWS_ROLE_ARN`): the SDKs need one;
/// what a pod may reach follows from the pod, never from the role.
pub const STORAGE_ROLE_ARN: &str = "arn:aws:iam::000000000000:role/ludis-workload";
/// ConfigMap (written by the API in every organization namespace) holding the AWS SDKs' config
/// file pods read (`AWS_CONFIG_FILE`): path-style addressing, so the gateway may have any name.
pub const STORAGE_CLIENT_CONFIGMAP: &str = "ludis-storage-client";
/// The key of the SDK config file in [`STORAGE_CLIENT_CONFIGMAP`].
pub const STORAGE_CLIENT_CONFIG_KEY: &str = "config";
/// ConfigMap of an organization namespace listing who may receive its workflows' e-mail (its
/// members' addresses, one per line; written by the API, read by the operator before it sends).
pub const MAIL_RECIPIENTS_CONFIGMAP: &str = "ludis-mail-recipients";
/// Key of [`MAIL_RECIPIENTS_CONFIGMAP`] holding the addresses.
pub const MAIL_RECIPIENTS_KEY: &str = "recipients";

/// The container of a preview pod that terminals of people below edit open in: the preview's
/// image and workspace, read-only, without the project's variables or its storage identity (the
/// API hides variables' values below edit; a shell in the preview's own container would print
/// them). Editors' terminals open in the preview's own container.
pub const PREVIEW_SHELL_CONTAINER: &str = "shell";

/// The finalizer that keeps a Dataset until its objects are dealt with (per `deletionPolicy`).
pub const FINALIZER_DATASET_CLEANUP: &str = "datasets.ludis.dev/cleanup";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_in_the_ludis_group() {
        for key in [
            LABEL_ID,
            ANNOTATION_OWNER,
            LABEL_ORGANIZATION,
            ANNOTATION_BUCKET,
            LABEL_PROJECT,
            LABEL_INSIGHT,
            LABEL_WORKFLOW,
            LABEL_WORKFLOW_RUN,
            LABEL_TASK,
            LABEL_TRY,
            ANNOTATION_APPLIED_HASH,
            ANNOTATION_REDEPLOY_TOKEN,
            ANNOTATION_CHECKOUT,
            FINALIZER_DATASET_CLEANUP,
        ] {
            let (prefix, name) = key.split_once('/').expect("a prefixed key");
            assert!(prefix == crate::GROUP || prefix.ends_with(".ludis.dev"), "{key}");
            // A qualified name: at most 63 characters of [a-z0-9-.].
            assert!(name.len() <= 63 && !name.is_empty(), "{key}");
            assert!(
                name.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "-.".contains(c)),
                "{key}"
            );
        }
    }
}
