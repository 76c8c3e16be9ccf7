//go:build tools

// Package tools pins the kwok command this module builds (the fake kubelet and node
// controller; the dev scripts start the control plane themselves, so kwokctl is not needed).
package tools

import (
	_ "sigs.k8s.io/kwok/cmd/kwok"
)
