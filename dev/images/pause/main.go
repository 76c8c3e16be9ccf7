// Command pause is the sandbox ("pause") container of the local node: PID 1 of every pod's
// sandbox, holding its namespaces. It sleeps until SIGINT or SIGTERM and reaps any child that
// ends (as upstream's pause.c does), so it needs nothing from its image but itself.
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	signals := make(chan os.Signal, 4)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM, syscall.SIGCHLD)
	for s := range signals {
		if s != syscall.SIGCHLD {
			os.Exit(0)
		}
		for {
			var status syscall.WaitStatus
			pid, err := syscall.Wait4(-1, &status, syscall.WNOHANG, nil)
			if pid <= 0 || err != nil {
				break
			}
		}
	}
}
