package verify

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// Args reads the arguments of an offline check's command (verify, tournament), which takes no
// flag but -h: the files named, or help true once -h printed usage to stdout.
func Args(command, usage string, args []string, stdout io.Writer) (files []string, help bool, err error) {
	fs := flag.NewFlagSet(command, flag.ContinueOnError)
	fs.SetOutput(stdout)
	fs.Usage = func() { io.WriteString(stdout, usage) }
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		return nil, true, nil
	} else if err != nil {
		return nil, false, err
	}
	return fs.Args(), false, nil
}

// PrintCheck writes one check's line as the offline checks print them: ok or FAIL, the
// check's name, what it found.
func PrintCheck(w io.Writer, ok bool, name, detail string) error {
	mark := "ok  "
	if !ok {
		mark = "FAIL"
	}
	_, err := fmt.Fprintf(w, "%s %-10s %s\n", mark, name, detail)
	return err
}
