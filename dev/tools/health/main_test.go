package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// A health check runs with what Argo CD opens for a check from argocd-cm, and nothing more.
func TestScriptsRunInArgoCDsSandbox(t *testing.T) {
	obj := map[string]interface{}{"metadata": map[string]interface{}{"name": "x", "generation": int64(3)}}
	cases := []struct {
		name, script, status, message, err string
	}{
		{"reads obj", `return {status = "Healthy", message = obj.metadata.name .. obj.metadata.generation}`, "Healthy", "x3", ""},
		{"base and table", `local t = {} table.insert(t, tostring(1)) return {status = "Progressing", message = t[1]}`, "Progressing", "1", ""},
		{"unknown status", `return {status = "Fine"}`, "Unknown", "Lua returned an invalid health status", ""},
		{"no string library", `return {status = string.format("%s", "Healthy")}`, "", "", "non-table object(nil) with key 'format'"},
		{"no string methods", `local s = "Healthy" return {status = s:lower()}`, "", "", "attempt to index"},
		{"no os", `return {status = os.getenv("HOME")}`, "", "", "non-table object(nil) with key 'getenv'"},
		{"no io", `return {status = io.read()}`, "", "", "non-table object(nil) with key 'read'"},
		{"not a table", `return "Healthy"`, "", "", "expect table output"},
		{"a second at most", `while true do end`, "", "", "context deadline exceeded"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, message, err := runHealthScript(c.script, obj)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("want an error with %q, got %v (status %q)", c.err, err, status)
				}
				return
			}
			if err != nil || status != c.status || message != c.message {
				t.Fatalf("got (%q, %q, %v), want (%q, %q)", status, message, err, c.status, c.message)
			}
		})
	}
}

// Objects are read as the API server sends them: several documents or a List, integers as
// int64 (kstatus fails on a float64 generation).
func TestObjectsAreReadFromYAMLAndJSONStreams(t *testing.T) {
	input := `apiVersion: ludis.dev/v1alpha1
kind: Project
metadata: {name: a, namespace: ns, generation: 2}
status: {observedGeneration: 1}
---
{"apiVersion": "v1", "kind": "List", "items": [
  {"apiVersion": "ludis.dev/v1alpha1", "kind": "Dataset", "metadata": {"name": "b", "generation": 1},
   "status": {"observedGeneration": 1, "conditions": [{"type": "Stalled", "status": "True", "reason": "X", "message": "m"}]}}]}
`
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	if err := judgeAll("input", strings.NewReader(input), kstatusVerdict, enc); err != nil {
		t.Fatal(err)
	}
	want := `{"kind":"Project","namespace":"ns","name":"a","status":"InProgress","message":"Project generation is 2, but latest observed generation is 1"}
{"kind":"Dataset","name":"b","status":"Failed","message":"m"}
`
	if out.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", out.String(), want)
	}
}
