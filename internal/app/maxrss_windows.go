//go:build windows

package app

import (
	"unsafe"

	"github.com/tandem-engine/tandem/bench"
	"golang.org/x/sys/windows"
)

// getProcessMemoryInfo is kernel32's K32GetProcessMemoryInfo (psapi's
// GetProcessMemoryInfo forwards to it on every Windows since 7), which
// golang.org/x/sys/windows does not wrap.
var getProcessMemoryInfo = windows.NewLazySystemDLL("kernel32.dll").NewProc("K32GetProcessMemoryInfo")

// processMemoryCounters is psapi.h's PROCESS_MEMORY_COUNTERS, field for
// field (DWORDs, then SIZE_Ts).
type processMemoryCounters struct {
	CB                         uint32
	PageFaultCount             uint32
	PeakWorkingSetSize         uintptr
	WorkingSetSize             uintptr
	QuotaPeakPagedPoolUsage    uintptr
	QuotaPagedPoolUsage        uintptr
	QuotaPeakNonPagedPoolUsage uintptr
	QuotaNonPagedPoolUsage     uintptr
	PagefileUsage              uintptr
	PeakPagefileUsage          uintptr
}

// maxRSSMB returns the process's peak working set, in MB: Windows' nearest
// figure to the peak resident set getrusage gives on Linux (both count the
// pages the process had in memory at once, shared ones included); not measured
// (NaN) when the counters cannot be read.
func maxRSSMB() bench.Num {
	var c processMemoryCounters
	c.CB = uint32(unsafe.Sizeof(c))
	ok, _, _ := getProcessMemoryInfo.Call(uintptr(windows.CurrentProcess()), uintptr(unsafe.Pointer(&c)), uintptr(c.CB))
	if ok == 0 {
		return bench.NaN
	}
	return bench.Num(Round(float64(c.PeakWorkingSetSize)/(1<<20), 1))
}
