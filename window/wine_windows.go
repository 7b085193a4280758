package window

import "syscall"

// UnderWine reports whether the program runs under Wine, whose ntdll.dll
// exports wine_get_version and Windows' does not.
func UnderWine() bool {
	return syscall.NewLazyDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil
}
