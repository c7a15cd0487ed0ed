package main

import (
	"context"
	"errors"
	"io"
)

// runReplay is a placeholder so the command builds until its owner lands the real one.
func runReplay(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	return errors.New("replay: not implemented yet")
}
