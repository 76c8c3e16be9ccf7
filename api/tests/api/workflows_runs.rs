//! Workflows in the cluster (issue 15): publish applies the Workflow resource (tasks, edges, the
//! project's head commit; or the DAG file and the project's image), settings reach it, run now
//! makes a manual WorkflowRun once the workflow is ready, and the runs, task instances and logs
//! are read from WorkflowRuns whose status the test writes as the operator would (the operator
//! does not run in API tests); mark and clear append the operator's requests, none lost when two
//! come at once. SQLite and PostgreSQL, with a cluster (KUBECONFIG); the archived log with object
//! storage.

use base64::Engine as _;
use kube::Api;
use ludis_crds::{Workflow, WorkflowRun, workflow::TaskAction};
use reqwest::Method;
use serde_json::{Value, json};

use crate::gitops::operator_status;
use crate::helpers::{Person, TestApp, apps, apps_with, s3_settings};

/// A project of `owner` with `files` committed; its id and the head commit.
async fn project_at(app: &TestApp, owner: &Person, files: &[&str]) -> (String, String) {
    let id = app.project(owner, "Pipelines").await;
    let mut head = String::new();
    for f in files {
        let (status, body) = app
            .post(
                "/v2/projects/commitfile",
                Some(&owner.token),
                json!({"project": id, "filePath": f, "message": format!("Add {f}"),
                       "contents": base64::engine::general_purpose::STANDARD.encode("print('hi')\n")}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        head = body["commit"]["sha"].as_str().unwrap().to_owned();
    }
    (id, head)
}

/// The workflow's resource: its namespace, name and the resource as the cluster has it.
async fn resource(app: &TestApp, id: &str) -> (String, String, Option<Workflow>) {
    let a = ludis_api::db::assets::by_id(&app.state.db, id)
        .await
        .unwrap()
        .unwrap();
    let (ns, name) = (a.namespace.unwrap(), a.resource_name.unwrap());
    let cr = Api::<Workflow>::namespaced(app.state.kube.clone().unwrap(), &ns)
        .get_opt(&name)
        .await
        .unwrap()
        .filter(|w| w.metadata.deletion_timestamp.is_none());
    (ns, name, cr)
}

fn script(id: &str, label: &str, file: &str) -> Value {
    json!({"id": id, "type": "taskNode", "position": {"x": 0.5, "y": 0.5},
           "data": {"label": label, "taskType": "script", "taskData": {"fileName": file, "image": "python-3.11"}}})
}

#[tokio::test]
async fn a_visual_workflow_is_published_run_and_its_tasks_are_marked_and_cleared() {
    let apps = match s3_settings() {
        Some(s3) => apps_with(s3).await,
        None => apps().await,
    };
    for app in apps {
        let Some(client) = app.state.kube.clone() else {
            eprintln!("no cluster: the workflow runs are not tested");
            return;
        };
        let org = app.unique_org("Runs").await;
        let owner = app.person(&org, "developer", "Owner").await;
        let runner = app.person(&org, "developer", "Runner").await;
        let viewer = app.person(&org, "developer", "Viewer").await;
        let (project, head) = project_at(&app, &owner, &["etl.py", "load.py"]).await;
        let id = app.workflow(&owner, &project, "Nightly", true).await;
        app.share(&id, "user", &runner.uid, "execute", &owner.uid).await;
        app.share(&id, "user", &viewer.uid, "view", &owner.uid).await;

        // A node whose file is not in the project is refused at publish.
        let save = |nodes: Value| {
            let (app, id, token) = (&app, id.clone(), owner.token.clone());
            async move {
                app.post(
                    &format!("/v2/workflows/save/{id}"),
                    Some(&token),
                    json!({"nodes": nodes, "edges": [{"id": "e", "source": "1", "target": "2"}]}),
                )
                .await
            }
        };
        let (status, body) = save(json!([
            script("1", "Extract", "etl.py"),
            script("2", "Load", "gone.py")
        ]))
        .await;
        assert_eq!(status, 200, "{body}");
        let publish = |token: String| {
            let (app, id) = (&app, id.clone());
            async move {
                app.post(
                    &format!("/v2/workflows/visual/publish/{id}"),
                    Some(&token),
                    json!({}),
                )
                .await
            }
        };
        let (status, body) = publish(owner.token.clone()).await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (400, Some("'gone.py' is not a file of the project"))
        );
        // A task may name a size of the administrator's list, and no other.
        let sized = |size: &str| {
            let mut load = script("2", "Load", "load.py");
            load["data"]["taskData"]["size"] = json!(size);
            json!([script("1", "Extract", "etl.py"), load])
        };
        save(sized("huge")).await;
        let (status, body) = publish(owner.token.clone()).await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (400, Some("The task 'load': unknown size huge"))
        );
        save(sized("large")).await;

        // Publish: the resource with the tasks, pinned to the head commit.
        let (status, body) = publish(owner.token.clone()).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["message"], "Workflow Published Successfully");
        assert_eq!(
            (
                body["workflow"]["status"].as_str(),
                body["workflow"]["published"].as_bool(),
                body["workflow"]["revision"].as_str()
            ),
            (Some("initializing"), Some(true), Some(head.as_str()))
        );
        let (ns, name, cr) = resource(&app, &id).await;
        let cr = cr.expect("the Workflow resource");
        let tasks: Vec<&str> = cr.spec.tasks.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(tasks, ["extract", "load"]);
        assert_eq!(
            (cr.spec.edges[0].from.as_str(), cr.spec.edges[0].to.as_str()),
            ("extract", "load")
        );
        assert_eq!(cr.spec.tasks[0].script.as_ref().unwrap().image, "python-3.11");
        let sizes: Vec<Option<&str>> = cr
            .spec
            .tasks
            .iter()
            .map(|t| t.script.as_ref().unwrap().size.as_deref())
            .collect();
        assert_eq!(sizes, [None, Some("large")]);
        assert_eq!(cr.spec.revision.as_deref(), Some(head.as_str()));
        let project_row = ludis_api::db::assets::by_id(&app.state.db, &project)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(Some(cr.spec.project.clone()), project_row.resource_name);

        // Settings reach the resource: schedule, pause, notification.
        let (status, body) = app
            .post(
                &format!("/v2/workflows/schedule/{id}"),
                Some(&owner.token),
                json!({"value": "0 6 * * *"}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        let (status, body) = app
            .call(
                Method::PATCH,
                &format!("/v2/workflows/{id}"),
                Some(&runner.token),
                Some(json!({"paused": true})),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        let (status, body) = app
            .put(
                &format!("/v2/workflows/{id}"),
                &owner.token,
                json!({"email_bool": true, "email_list": [owner.email], "email_on": "failure"}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        let cr = resource(&app, &id).await.2.unwrap();
        assert_eq!(
            (cr.spec.schedule.as_deref(), cr.spec.paused),
            (Some("0 6 * * *"), true)
        );
        let n = cr.spec.notification.clone().expect("the notification");
        assert_eq!(
            (n.emails, n.on),
            (vec![owner.email.clone()], ludis_crds::workflow::NotifyOn::Failure)
        );
        assert_eq!(cr.spec.tasks.len(), 2, "the tasks stay as published");

        // What it runs.
        let (status, body) = app
            .get(&format!("/v2/workflows/daginfo/{id}"), &viewer.token)
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(
            body["dag"]["tasks"][1],
            json!({"task_id": "load", "operator": "script", "upstream": ["extract"]})
        );
        assert_eq!(body["dag"]["revision"], head.as_str());

        // Run now: only once the operator made it ready.
        let run_now = |token: String| {
            let (app, id) = (&app, id.clone());
            async move {
                app.post(&format!("/v2/workflows/run/{id}"), Some(&token), json!({}))
                    .await
            }
        };
        let (status, body) = run_now(runner.token.clone()).await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (409, Some("Please publish or wait for workflow to be initialized"))
        );
        let workflows: Api<Workflow> = Api::namespaced(client.clone(), &ns);
        operator_status(&workflows, &name, "Workflow", json!({"state": "ready"})).await;
        crate::gitops::eventually("the watcher mirrors the ready state", || async {
            app.get(&format!("/v2/workflows/{id}"), &viewer.token).await.1["workflow"]["status"] == "ready"
        })
        .await;
        let (status, body) = run_now(viewer.token.clone()).await;
        assert_eq!(status, 403, "{body}");
        let (status, body) = run_now(runner.token.clone()).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["message"], "Workflow run successful!");
        let run = body["dag_run_id"].as_str().unwrap().to_owned();
        let runs: Api<WorkflowRun> = Api::namespaced(client.clone(), &ns);
        let made = runs.get(&run).await.unwrap();
        assert_eq!(made.spec.workflow, name);
        assert_eq!(made.spec.trigger, ludis_crds::workflow::Trigger::Manual);
        assert_eq!(
            made.metadata.labels.as_ref().unwrap()[ludis_crds::LABEL_WORKFLOW],
            name
        );
        assert_eq!(made.metadata.owner_references.as_ref().unwrap()[0].name, name);

        // The operator's view of the run.
        operator_status(
            &runs,
            &run,
            "WorkflowRun",
            json!({"phase": "Failed", "startTime": "2026-01-01T00:00:00Z", "completionTime": "2026-01-01T00:01:40Z",
                   "tasks": [{"name": "extract", "state": "success", "tryNumber": 1, "startTime": "2026-01-01T00:00:00Z", "duration": 30.0},
                             {"name": "load", "state": "failed", "tryNumber": 2, "startTime": "2026-01-01T00:01:00Z", "duration": 40.0}]}),
        )
        .await;
        // The table's Last Run: the Workflow names its newest run; the watcher reads its state.
        operator_status(
            &workflows,
            &name,
            "Workflow",
            json!({"state": "ready", "lastRun": run, "lastRunTime": "2026-01-01T00:00:00Z", "lastRunDuration": 100.0}),
        )
        .await;
        crate::gitops::eventually("the newest run's state is mirrored", || async {
            app.get(&format!("/v2/workflows/{id}"), &viewer.token).await.1["workflow"]["last_run_state"]
                == "failed"
        })
        .await;
        let (status, body) = app.get(&format!("/v2/workflows/runs/{id}"), &viewer.token).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["total"], 1);
        assert_eq!(
            body["runs"][0],
            json!({"dag_run_id": run, "state": "failed", "trigger": "manual", "start_date": 1767225600, "end_date": 1767225700, "duration": 100, "waiting": null})
        );
        let (status, body) = app
            .get(&format!("/v2/workflows/tasks/{id}/{run}"), &viewer.token)
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["total"], 2);
        assert_eq!(
            body["task_instances"][1],
            json!({"task_id": "load", "dag_run_id": run, "state": "failed", "duration": 40.0, "start_date": 1767225660,
                   "end_date": 1767225700, "try_number": 2, "operator": "script"})
        );
        let (status, _) = app
            .get(&format!("/v2/workflows/tasks/{id}/not-a-run"), &viewer.token)
            .await;
        assert_eq!(status, 404);

        // Mark and clear: execute access, the operator's requests; two at once both land.
        let mark = |token: String, state: &str, task: &str| {
            let (app, id, body) = (
                &app,
                id.clone(),
                json!({"state": state, "dagRunId": run, "taskId": task}),
            );
            async move {
                app.call(
                    Method::PATCH,
                    &format!("/v2/workflows/mark/{id}"),
                    Some(&token),
                    Some(body),
                )
                .await
            }
        };
        let clear = |token: String, tasks: Value| {
            let (app, id, body) = (
                &app,
                id.clone(),
                json!({"task_ids": tasks, "dag_run_id": run, "include_downstream": true}),
            );
            async move {
                app.post(&format!("/v2/workflows/clear/{id}"), Some(&token), body)
                    .await
            }
        };
        let (status, body) = mark(viewer.token.clone(), "success", "load").await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (403, Some("Execute access needed"))
        );
        let (status, body) = clear(viewer.token.clone(), json!(["extract"])).await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (403, Some("Execute access needed"))
        );
        let (status, body) = mark(runner.token.clone(), "success", "extract").await;
        assert_eq!(status, 409, "already a success: {body}");
        let (status, body) = clear(runner.token.clone(), json!([])).await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (400, Some("Please select a task to re-run"))
        );
        let (status, _) = mark(runner.token.clone(), "failed", "nope").await;
        assert_eq!(status, 404);
        let ((s1, b1), (s2, b2)) = tokio::join!(
            mark(runner.token.clone(), "success", "load"),
            clear(runner.token.clone(), json!(["extract"]))
        );
        assert_eq!(
            (s1.as_u16(), b1["message"].as_str()),
            (200, Some("Task update successful!")),
            "{b1}"
        );
        assert_eq!(
            (s2.as_u16(), b2["message"].as_str()),
            (200, Some("Task Successfully Cleared")),
            "{b2}"
        );
        let requests = runs.get(&run).await.unwrap().spec.requests;
        let mut seen: Vec<(TaskAction, String, bool)> = requests
            .iter()
            .map(|r| (r.action, r.task.clone(), r.downstream))
            .collect();
        seen.sort_by_key(|(_, task, _)| task.clone());
        assert_eq!(
            seen,
            [
                (TaskAction::Clear, "extract".to_owned(), true),
                (TaskAction::MarkSuccess, "load".to_owned(), false)
            ]
        );
        assert_ne!(requests[0].id, requests[1].id);

        // Logs need execute access, as every log does (the spec's level): a viewer sees the
        // tasks' states, not what they printed.
        for (status, body) in [
            app.get(
                &format!("/v2/workflows/tasks/{id}/{run}/extract/1"),
                &viewer.token,
            )
            .await,
            app.post(
                &format!("/v2/workflows/latest/{id}"),
                Some(&viewer.token),
                json!({"limit": "all"}),
            )
            .await,
        ] {
            assert_eq!(
                (status.as_u16(), body["message"].as_str()),
                (403, Some("Execute access needed"))
            );
        }
        // Logs: none for try 0; the archive once the pod is gone.
        let (status, body) = app
            .get(
                &format!("/v2/workflows/tasks/{id}/{run}/extract/0"),
                &runner.token,
            )
            .await;
        assert_eq!(
            (status.as_u16(), body["log"].clone(), body["message"].as_str()),
            (200, Value::Null, Some("No Logs available for this task"))
        );
        if let Some(s3) = app.state.s3.clone() {
            use ludis_storage::logs::{LogOwner, write};
            let bucket = ludis_api::cluster::organizations::bucket_of(&app.state, &org)
                .await
                .unwrap();
            ludis_storage::ensure_bucket(&s3, &bucket).await.unwrap();
            let owner_of = LogOwner::Task {
                run: run.clone(),
                task: "extract".into(),
                attempt: "1".into(),
            };
            write(
                &s3,
                &bucket,
                &owner_of.key(&ns, 100, "uid-1", "task"),
                b"extracted 42 rows\n".to_vec(),
            )
            .await
            .unwrap();
            let (status, body) = app
                .get(
                    &format!("/v2/workflows/tasks/{id}/{run}/extract/1"),
                    &runner.token,
                )
                .await;
            assert_eq!(status, 200, "{body}");
            assert_eq!(
                body["log"],
                json!({"dag_run_id": run, "task_id": "extract", "try_number": 1, "state": "success",
                       "content": "extracted 42 rows\n", "archived": true})
            );
            let (status, body) = app
                .post(
                    &format!("/v2/workflows/latest/{id}"),
                    Some(&runner.token),
                    json!({"limit": "all"}),
                )
                .await;
            assert_eq!(status, 200, "{body}");
            let logs = body["logs"].as_array().unwrap();
            assert_eq!(logs.len(), 1, "only extract's try has a log: {body}");
            assert_eq!(logs[0]["content"], "extracted 42 rows\n");
        }

        // A task pod that exists: its own log, not an archive.
        let pod_name = format!("{run}-load-2");
        let pod: k8s_openapi::api::core::v1::Pod = serde_json::from_value(json!({
            "metadata": {"name": pod_name, "labels": {ludis_crds::LABEL_WORKFLOW_RUN: run, ludis_crds::LABEL_TASK: "load", ludis_crds::LABEL_TRY: "2"}},
            "spec": {
                "restartPolicy": "Never",
                "tolerations": [{"key": "ludis.dev/workloads", "operator": "Exists", "effect": "NoSchedule"}],
                "automountServiceAccountToken": false,
                "terminationGracePeriodSeconds": 1,
                "securityContext": {"runAsNonRoot": true, "runAsUser": 1000, "seccompProfile": {"type": "RuntimeDefault"}},
                "containers": [{"name": "task", "image": crate::projects_streams::node_image("python"),
                    "args": ["python", "-u", "-c", "print('loading 7 rows')"],
                    "resources": {"requests": {"cpu": "50m", "memory": "64Mi"}, "limits": {"memory": "256Mi"}},
                    "securityContext": {"allowPrivilegeEscalation": false, "capabilities": {"drop": ["ALL"]}}}]
            }
        }))
        .unwrap();
        let pods: Api<k8s_openapi::api::core::v1::Pod> = Api::namespaced(client.clone(), &ns);
        pods.create(&Default::default(), &pod).await.unwrap();
        crate::gitops::eventually("the task pod ran on the real node", || async {
            pods.get(&pod_name)
                .await
                .ok()
                .and_then(|p| p.status?.phase)
                .is_some_and(|p| p == "Succeeded")
        })
        .await;
        let (status, body) = app
            .get(&format!("/v2/workflows/tasks/{id}/{run}/load/2"), &runner.token)
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(
            body["log"],
            json!({"dag_run_id": run, "task_id": "load", "try_number": 2, "state": "failed",
                   "content": "loading 7 rows\n", "archived": false})
        );
        let (_, body) = app
            .get(&format!("/v2/workflows/tasks/{id}/{run}/load/1"), &runner.token)
            .await;
        assert_eq!(
            body["message"], "No Logs available for this task",
            "an earlier try without a pod or an archive"
        );
        pods.delete(&pod_name, &Default::default()).await.unwrap();

        // Delete: the resource goes (its runs by owner reference).
        let (status, body) = app
            .post(
                &format!("/v2/workflows/delete/{id}"),
                Some(&owner.token),
                json!({}),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        assert!(resource_gone(&workflows, &name).await);
    }
}

async fn resource_gone(api: &Api<Workflow>, name: &str) -> bool {
    api.get_opt(name)
        .await
        .unwrap()
        .is_none_or(|w| w.metadata.deletion_timestamp.is_some())
}

#[tokio::test]
async fn a_manual_workflow_publishes_its_dag_file_with_the_projects_image() {
    for app in apps().await {
        if app.state.kube.is_none() {
            eprintln!("no cluster: manual publish is not tested");
            return;
        }
        let org = app.unique_org("Dags").await;
        let owner = app.person(&org, "developer", "Owner").await;
        let runner = app.person(&org, "developer", "Runner").await;
        let (project, _) = project_at(&app, &owner, &["helpers.py"]).await;
        app.share(&project, "user", &runner.uid, "execute", &owner.uid)
            .await;

        // Made by an executor of the project: no starter file, so publishing names it missing.
        let theirs = app.workflow(&runner, &project, "Theirs", false).await;
        app.share(&theirs, "user", &owner.uid, "edit", &runner.uid).await;
        let (status, body) = app
            .post(
                &format!("/v2/workflows/publish/{theirs}"),
                Some(&owner.token),
                json!({"file_name": format!("{theirs}_dag.py"), "files": []}),
            )
            .await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (
                400,
                Some(format!("'{theirs}_dag.py' is not a file of the project").as_str())
            )
        );

        let id = app.workflow(&owner, &project, "Code", false).await;
        let publish = |file: String, files: Value| {
            let (app, id, token, project) = (&app, id.clone(), owner.token.clone(), project.clone());
            async move {
                app.post(
                    &format!("/v2/workflows/publish/{id}"),
                    Some(&token),
                    json!({"project_id": project, "file_name": file, "files": files}),
                )
                .await
            }
        };
        let (status, body) = publish("other.py".into(), json!([])).await;
        assert_eq!(status, 400, "{body}");
        let (status, body) = publish(format!("{id}_dag.py"), json!(["missing.py"])).await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (400, Some("'missing.py' is not a file of the project"))
        );
        let (status, body) = publish(format!("{id}_dag.py"), json!(["helpers.py"])).await;
        assert_eq!(status, 200, "{body}");
        let cr = resource(&app, &id).await.2.expect("the Workflow resource");
        assert_eq!(cr.spec.dag_file, Some(format!("{id}_dag.py")));
        assert!(cr.spec.tasks.is_empty() && !cr.spec.visual);
        let (_, body) = app.get(&format!("/v2/projects/{project}"), &owner.token).await;
        assert_eq!(cr.spec.image.as_deref(), body["project"]["image_id"].as_str());
        assert_eq!(cr.spec.revision.as_ref().map(String::len), Some(40));

        // daginfo shows what the operator read from the file (nothing until it has).
        let (status, body) = app
            .get(&format!("/v2/workflows/daginfo/{id}"), &owner.token)
            .await;
        assert_eq!((status.as_u16(), body["dag"]["tasks"].clone()), (200, json!([])));
        let (ns, name, _) = resource(&app, &id).await;
        let workflows: Api<Workflow> = Api::namespaced(app.state.kube.clone().unwrap(), &ns);
        operator_status(
            &workflows,
            &name,
            "Workflow",
            json!({"state": "ready", "dag": {"dagId": id, "tasks": [{"name": "hello", "operator": "BashOperator"},
                   {"name": "python_task", "operator": "PythonOperator"}], "edges": [{"from": "hello", "to": "python_task"}]}}),
        )
        .await;
        let (_, body) = app
            .get(&format!("/v2/workflows/daginfo/{id}"), &owner.token)
            .await;
        assert_eq!(
            body["dag"]["tasks"],
            json!([{"task_id": "hello", "operator": "BashOperator", "upstream": []},
                   {"task_id": "python_task", "operator": "PythonOperator", "upstream": ["hello"]}])
        );
        assert_eq!(body["dag"]["dag_id"], id.as_str());
    }
}
