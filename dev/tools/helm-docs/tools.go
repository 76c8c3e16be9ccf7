//go:build tools

// Package tools pins the helm-docs command this module builds (the chart README from values.yaml).
package tools

import (
	_ "github.com/norwoodj/helm-docs/cmd/helm-docs"
)
