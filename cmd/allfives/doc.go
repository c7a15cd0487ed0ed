// Command allfives serves the All Fives referee over HTTP and runs its tools: serve (the
// default), migrate, simulate and replay. main only wires the parts and calls run.
package main
