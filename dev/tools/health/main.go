// Command health tells what GitOps tools make of Kubernetes objects, with their own code:
//
//	health kstatus [FILE...]
//	    the kstatus result (sigs.k8s.io/cli-utils/pkg/kstatus/status.Compute, which Flux and
//	    kpt use): Current, InProgress, Failed, Terminating;
//	health argocd --scripts DIR [FILE...]
//	    the result of the Argo CD health check DIR/<group>_<Kind>/health.lua, run with
//	    gopher-lua as Argo CD runs a check from argocd-cm: the object as the global table obj,
//	    only the package, base and table libraries open, one second at most, the returned
//	    table's status and message (a status Argo CD does not know reads Unknown).
//
// Objects are read as YAML or JSON (several documents, or a List) from the files, or from
// stdin without any. One JSON line per object goes to stdout:
// {"kind":…,"namespace":…,"name":…,"status":…,"message":…}. Exit status 1 when an object
// cannot be read or a script fails.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	lua "github.com/yuin/gopher-lua"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"
)

// Verdict is what a tool made of one object.
type Verdict struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
	Status    string `json:"status"`
	Message   string `json:"message"`
}

// healthStatuses are the statuses Argo CD accepts from a health script.
var healthStatuses = map[string]bool{
	"Healthy": true, "Progressing": true, "Degraded": true, "Suspended": true, "Missing": true, "Unknown": true,
}

// scriptTimeout is how long Argo CD lets a script run.
const scriptTimeout = time.Second

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var judge func(*unstructured.Unstructured) (Verdict, error)
	var files []string
	switch os.Args[1] {
	case "kstatus":
		judge, files = kstatusVerdict, os.Args[2:]
	case "argocd":
		fs := flag.NewFlagSet("argocd", flag.ExitOnError)
		scripts := fs.String("scripts", "", "folder of <group>_<Kind>/health.lua")
		_ = fs.Parse(os.Args[2:])
		if *scripts == "" {
			usage()
		}
		judge = func(u *unstructured.Unstructured) (Verdict, error) { return argocdVerdict(*scripts, u) }
		files = fs.Args()
	default:
		usage()
	}
	if err := run(judge, files, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "health:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: health kstatus [FILE...] | health argocd --scripts DIR [FILE...]")
	os.Exit(2)
}

// run judges every object of files (stdin without any), one JSON line each.
func run(judge func(*unstructured.Unstructured) (Verdict, error), files []string, out io.Writer) error {
	w := bufio.NewWriter(out)
	defer w.Flush()
	enc := json.NewEncoder(w)
	if len(files) == 0 {
		return judgeAll("stdin", os.Stdin, judge, enc)
	}
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		err = judgeAll(name, f, judge, enc)
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// judgeAll judges every object read from r (named name in errors).
func judgeAll(name string, r io.Reader, judge func(*unstructured.Unstructured) (Verdict, error), enc *json.Encoder) error {
	objects, err := readObjects(r)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	for _, u := range objects {
		v, err := judge(u)
		if err != nil {
			return fmt.Errorf("%s: %s %s: %w", name, u.GetKind(), u.GetName(), err)
		}
		if err := enc.Encode(v); err != nil {
			return err
		}
	}
	return nil
}

// readObjects reads every object of a YAML or JSON stream, the items of a List one by one.
// Numbers are read as the API server sends them (integers as int64), as kstatus expects.
func readObjects(r io.Reader) ([]*unstructured.Unstructured, error) {
	dec := yaml.NewYAMLOrJSONDecoder(r, 4096)
	var out []*unstructured.Unstructured
	for {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return nil, err
		}
		if len(raw) == 0 || string(raw) == "null" {
			continue
		}
		u := &unstructured.Unstructured{}
		if err := u.UnmarshalJSON(raw); err != nil {
			return nil, err
		}
		if !u.IsList() {
			out = append(out, u)
			continue
		}
		list, err := u.ToList()
		if err != nil {
			return nil, err
		}
		for i := range list.Items {
			out = append(out, &list.Items[i])
		}
	}
}

func verdictOf(u *unstructured.Unstructured, status, message string) Verdict {
	return Verdict{Kind: u.GetKind(), Namespace: u.GetNamespace(), Name: u.GetName(), Status: status, Message: message}
}

// kstatusVerdict is kstatus's status.Compute.
func kstatusVerdict(u *unstructured.Unstructured) (Verdict, error) {
	res, err := status.Compute(u)
	if err != nil {
		return Verdict{}, err
	}
	return verdictOf(u, res.Status.String(), res.Message), nil
}

// scriptPath is where Argo CD's resource_customizations layout keeps an object's health check,
// named as its argocd-cm key is: <group>_<Kind>.
func scriptPath(dir string, u *unstructured.Unstructured) string {
	gvk := u.GroupVersionKind()
	key := gvk.Kind
	if gvk.Group != "" {
		key = gvk.Group + "_" + gvk.Kind
	}
	return filepath.Join(dir, key, "health.lua")
}

// argocdVerdict runs the object's health check.
func argocdVerdict(dir string, u *unstructured.Unstructured) (Verdict, error) {
	script, err := os.ReadFile(scriptPath(dir, u))
	if err != nil {
		return Verdict{}, err
	}
	status, message, err := runHealthScript(string(script), u.Object)
	if err != nil {
		return Verdict{}, err
	}
	return verdictOf(u, status, message), nil
}

// runHealthScript runs a health check on obj the way Argo CD runs one from argocd-cm.
func runHealthScript(script string, obj map[string]interface{}) (string, string, error) {
	l := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer l.Close()
	// Argo CD opens these three, plus an os of its own with only time and date (through
	// require); string, math, io and the real os are not there.
	for name, open := range map[string]lua.LGFunction{
		lua.LoadLibName: lua.OpenPackage,
		lua.BaseLibName: lua.OpenBase,
		lua.TabLibName:  lua.OpenTable,
	} {
		if err := l.CallByParam(lua.P{Fn: l.NewFunction(open), NRet: 0, Protect: true}, lua.LString(name)); err != nil {
			return "", "", err
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), scriptTimeout)
	defer cancel()
	l.SetContext(ctx)
	l.SetGlobal("obj", toLua(l, obj))
	if err := l.DoString(script); err != nil {
		return "", "", err
	}
	hs, ok := l.Get(-1).(*lua.LTable)
	if !ok {
		return "", "", fmt.Errorf("expect table output from Lua script, not %s", l.Get(-1).Type())
	}
	status, message := lua.LVAsString(hs.RawGetString("status")), lua.LVAsString(hs.RawGetString("message"))
	if !healthStatuses[status] {
		return "Unknown", "Lua returned an invalid health status", nil
	}
	return status, message, nil
}

// toLua converts a JSON-like value to Lua as Argo CD does: objects and arrays as tables,
// numbers (int64 or float64) as numbers, null as nil.
func toLua(l *lua.LState, value interface{}) lua.LValue {
	switch v := value.(type) {
	case bool:
		return lua.LBool(v)
	case string:
		return lua.LString(v)
	case int64:
		return lua.LNumber(v)
	case float64:
		return lua.LNumber(v)
	case []interface{}:
		t := l.CreateTable(len(v), 0)
		for _, item := range v {
			t.Append(toLua(l, item))
		}
		return t
	case map[string]interface{}:
		t := l.CreateTable(0, len(v))
		for key, item := range v {
			t.RawSetH(lua.LString(key), toLua(l, item))
		}
		return t
	}
	return lua.LNil
}
