//go:build tools

// Package tools pins Argo Workflows' workflow controller, built only for the side-by-side
// workflow benchmark (dev/bench-workflows.sh); Ludis does not use it.
package tools

import _ "github.com/argoproj/argo-workflows/v3/cmd/workflow-controller"
