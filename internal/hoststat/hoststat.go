// Package hoststat reads how much CPU time the machine's hypervisor took
// from it: the "steal" of Linux's /proc/stat, time a virtual CPU was
// ready to run but the host ran something else. On a shared virtual
// machine steal comes in bursts of tens of milliseconds; a frame or a tick
// caught in one is late by that much, whatever the engine does. The bench
// reports the share of the measured window that was stolen, so that a
// reader can tell a disturbed run from a slow engine.
//
// Threads: a Reader serves one goroutine at a time. Reading allocates
// nothing.
package hoststat

// Notable is the share of the CPU stolen, in percent, from which a run's
// timing figures say more about the host than about the program. On the
// tandem project's 2-core virtual machine a quiet run shows 0-0.5%; at
// 5-15%, stalls of 20-60 ms appear in the frame times and the animation
// error's 99th percentile doubles.
const Notable = 2.0

// Times is the machine's CPU time, summed over its CPUs, in the kernel's
// clock ticks (USER_HZ, 1/100 s on Linux): the time stolen by the host,
// the time no task wanted a CPU (idle, and idle waiting for a disk), and
// the time of every kind (stolen and idle included).
type Times struct {
	Steal, Idle, Total uint64
}

// OtherPct returns the share of the machine's CPU time from a to b that
// went to anything but ours, in percent: the time busy (not idle) less
// own, the CPU time our own processes used from a to b in the same
// ticks ([OwnTicks]), with the host's steal counted as busy. It is how much
// of the machine the other processes took while ours ran: on a quiet
// machine a few percent (daemons, the kernel's own work). -1 when no time
// passed or a reading is missing.
func OtherPct(a, b Times, own uint64) float64 {
	if a.Total == 0 || b.Total <= a.Total || b.Idle < a.Idle {
		return -1
	}
	total := b.Total - a.Total
	busy := total - min(total, b.Idle-a.Idle)
	return 100 * float64(busy-min(busy, own)) / float64(total)
}

// StealPct returns the share of the CPU time from a to b that the host
// stole, in percent, or -1 when no time passed or a reading is missing
// (the zero Times).
func StealPct(a, b Times) float64 {
	if a.Total == 0 || b.Total <= a.Total || b.Steal < a.Steal {
		return -1
	}
	return 100 * float64(b.Steal-a.Steal) / float64(b.Total-a.Total)
}

// parse reads the first line of /proc/stat ("cpu  user nice system idle
// iowait irq softirq steal guest guest_nice"). Guest time is already
// counted in user and nice, so Total is the first eight fields; Idle is
// idle and iowait. ok is false for anything else.
func parse(b []byte) (t Times, ok bool) {
	const head = "cpu "
	if len(b) < len(head) || string(b[:len(head)]) != head {
		return Times{}, false
	}
	i, field := len(head), 0
	for field < 8 {
		for i < len(b) && b[i] == ' ' {
			i++
		}
		start, v := i, uint64(0)
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			v = v*10 + uint64(b[i]-'0')
			i++
		}
		if i == start {
			return Times{}, false
		}
		t.Total += v
		switch field {
		case 3, 4:
			t.Idle += v
		case 7:
			t.Steal = v
		}
		field++
	}
	return t, true
}
