package main

import (
	"context"
	"errors"
	"io"
)

// runSimulate is a placeholder so the command builds until its owner lands the real one.
func runSimulate(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	return errors.New("simulate: not implemented yet")
}
