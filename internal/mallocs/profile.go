package mallocs

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
)

// Profile returns the allocation profile as of now: every allocation
// sampled since runtime.MemProfileRate was set (1: every one), by stack.
// The runtime publishes allocations into the profile up to two GC cycles
// late, so it runs three.
func Profile() []runtime.MemProfileRecord {
	runtime.GC()
	runtime.GC()
	runtime.GC()
	n, _ := runtime.MemProfile(nil, true)
	recs := make([]runtime.MemProfileRecord, n+64)
	n, _ = runtime.MemProfile(recs, true)
	return recs[:n]
}

// Stack is one stack's allocations between two profiles.
type Stack struct {
	Allocs int64
	Funcs  []string // the functions, innermost first
}

// String is the count and the functions, innermost first, on one line.
func (s Stack) String() string {
	return fmt.Sprintf("%d allocs: %s", s.Allocs, strings.Join(s.Funcs, " "))
}

// RuntimePool reports whether s is the Go runtime growing a pool of its
// own: a waiter for a goroutine that blocks on a channel or a lock when
// the caches hold none (runtime.acquireSudog; the GC empties the shared
// cache), or an OS thread when no idle one is left (runtime.allocm). A
// busy machine's scheduling makes these now and then whatever the code
// does; they are not the code's allocations.
func (s Stack) RuntimePool() bool {
	for _, f := range s.Funcs {
		if f == "runtime.acquireSudog" || f == "runtime.allocm" {
			return true
		}
	}
	return false
}

// Diff returns the stacks that allocated between two profiles, but for
// Profile's own (its record slice, made after its GCs, shows in the next
// profile). The profile has a record per stack and size, so records are
// summed by stack.
func Diff(before, after []runtime.MemProfileRecord) []Stack {
	sum := func(recs []runtime.MemProfileRecord) map[[32]uintptr]int64 {
		m := map[[32]uintptr]int64{}
		for _, r := range recs {
			m[r.Stack0] += r.AllocObjects
		}
		return m
	}
	was, now := sum(before), sum(after)
	var out []Stack
	for stack, n := range now {
		d := n - was[stack]
		if d <= 0 {
			continue
		}
		s := Stack{Allocs: d}
		frames := runtime.CallersFrames(stackPCs(stack))
		for {
			f, more := frames.Next()
			s.Funcs = append(s.Funcs, f.Function)
			if !more {
				break
			}
		}
		if !slices.Contains(s.Funcs, profileFunc) {
			out = append(out, s)
		}
	}
	return out
}

// profileFunc is Profile's name in a stack.
const profileFunc = "github.com/tandem-engine/tandem/internal/mallocs.Profile"

// Quietest runs f tries times, each between two Profiles, and returns
// the fewest allocations a run made (Count's) and, for that run, who
// made them: ours, the stacks that are not the runtime's own pools, and
// pools, those that are (Stack.RuntimePool), each as its String. With
// runtime.MemProfileRate at 1 (the caller sets it) every allocation
// shows; Profile's GCs run between the runs, not in them.
func Quietest(tries int, f func()) (n uint64, ours, pools []string) {
	n = ^uint64(0)
	for range max(tries, 1) {
		before := Profile()
		c := Count(f)
		if c >= n {
			continue
		}
		n, ours, pools = c, nil, nil
		for _, s := range Diff(before, Profile()) {
			if s.RuntimePool() {
				pools = append(pools, s.String())
			} else {
				ours = append(ours, s.String())
			}
		}
	}
	return n, ours, pools
}

// stackPCs is a record's stack without its zero tail.
func stackPCs(stack [32]uintptr) []uintptr {
	pcs := stack[:]
	for i, pc := range pcs {
		if pc == 0 {
			return pcs[:i]
		}
	}
	return pcs
}
