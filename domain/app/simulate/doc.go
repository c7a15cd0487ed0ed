// Package simulate plays many matches between strategies and reports how each fared: the
// engine behind `allfives simulate`. Matches run in-process, straight on the domain aggregate,
// or through a MatchService over a given store when they should be kept and replayable.
// RunRated is `allfives simulate --rated`: rated matches of the bots, format by format, rated
// in order by the ratings service's own code, and the bots' ratings as they settle.
//
// A simulation is deterministic: every match's deal seed derives from the simulation seed and
// the match's deal number, and the strategies are deterministic, so the same configuration
// gives the same results whatever the number of workers. Only the timings differ.
package simulate
