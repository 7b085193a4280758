package hoststat

import (
	"os"
	"strconv"
	"strings"
)

// OwnTicks returns the CPU time this process and its children have used,
// in the kernel's clock ticks (as [Times]): its own and that of the
// children it has waited for (/proc/self/stat), and that of every child
// still running and of theirs (each /proc/PID/stat listed in
// /proc/self/task/*/children): a sweep's Xvfb and the cell it runs.
// false when /proc cannot be read.
func OwnTicks() (uint64, bool) {
	self, ok := procTicks("self")
	if !ok {
		return 0, false
	}
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return 0, false
	}
	for _, t := range tasks {
		b, err := os.ReadFile("/proc/self/task/" + t.Name() + "/children")
		if err != nil {
			continue // the thread has exited since
		}
		for _, pid := range strings.Fields(string(b)) {
			if n, ok := procTicks(pid); ok {
				self += n // a child gone since has been waited for: in cutime
			}
		}
	}
	return self, true
}

// procTicks returns utime + stime + cutime + cstime of /proc/PID/stat.
func procTicks(pid string) (uint64, bool) {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return 0, false
	}
	return parseProcTicks(string(b))
}

// parseProcTicks reads fields 14 to 17 of a /proc/PID/stat line (utime,
// stime, cutime, cstime), counted after the command's closing
// parenthesis, since a command's name may hold spaces and parentheses.
func parseProcTicks(s string) (uint64, bool) {
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(s[i+1:]) // f[0] is field 3, the state
	if len(f) < 15 {
		return 0, false
	}
	var sum uint64
	for _, x := range f[11:15] {
		v, err := strconv.ParseInt(x, 10, 64) // cutime and cstime are signed
		if err != nil || v < 0 {
			return 0, false
		}
		sum += uint64(v)
	}
	return sum, true
}
