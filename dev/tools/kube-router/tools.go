//go:build tools

// Package tools pins kube-router (dev/build-tools.sh builds its command; dev/node.sh runs only
// its NetworkPolicy controller).
package tools

import _ "github.com/cloudnativelabs/kube-router/v2/cmd/kube-router"
