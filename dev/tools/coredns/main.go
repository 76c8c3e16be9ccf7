// Command coredns is CoreDNS built from its Go module with only the plugins the local node's
// cluster DNS needs: it answers for the cluster's Services and pods (kubernetes), answers every
// other name NXDOMAIN itself (template) and forwards nothing anywhere (no forward plugin is
// compiled in). Upstream's own main is the same call to coremain.Run with every plugin imported.
package main

import (
	"github.com/coredns/coredns/core/dnsserver"
	"github.com/coredns/coredns/coremain"

	_ "github.com/coredns/coredns/plugin/bind"
	_ "github.com/coredns/coredns/plugin/cache"
	_ "github.com/coredns/coredns/plugin/errors"
	_ "github.com/coredns/coredns/plugin/health"
	_ "github.com/coredns/coredns/plugin/kubernetes"
	_ "github.com/coredns/coredns/plugin/log"
	_ "github.com/coredns/coredns/plugin/ready"
	_ "github.com/coredns/coredns/plugin/template"
)

// The plugins in upstream's execution order (core/dnsserver/zdirectives.go).
var directives = []string{"bind", "ready", "health", "errors", "log", "cache", "template", "kubernetes"}

func main() {
	dnsserver.Directives = directives
	coremain.Run()
}
