package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// main only wires the process to run: arguments, environment, output and the signals that
// end it.
func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "allfives:", err)
		os.Exit(1)
	}
}
