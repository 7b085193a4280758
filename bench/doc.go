// Package bench turns what a run recorded (per frame, per tick, per input
// event) into the figures `tandem bench` reports, and writes its reports:
// JSON, Markdown, Go benchmark format for benchstat, and charts.
//
// Every figure is a pure function of recorded timestamps, so that it can be
// checked against made-up sequences in tests, and against the pixels of the
// probe by any outside tool. The definitions are the public ones:
// PresentMon's animation error and instrumented latency, Unreal's hitch.
// [Compute] takes a run's records whole; a [Stream] reads them from the
// rings they are written into while the run goes on, and gives the same
// figures over a run of any length in fixed memory (its percentiles from
// [Histogram]s, within [HistRelErr]).
//
// Nothing here touches GL, GLFW or a clock.
package bench
