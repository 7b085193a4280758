package hoststat

import "syscall"

// Reader reads /proc/stat. The file stays open: opening it allocates (its
// path is converted for the system call), reading it again does not.
type Reader struct{ fd int }

// Open opens /proc/stat.
func Open() (*Reader, error) {
	fd, err := syscall.Open("/proc/stat", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	return &Reader{fd: fd}, nil
}

// Read returns the machine's CPU times now, and false where they cannot
// be read or parsed (a kernel older than 2.6.11 has no steal).
func (r *Reader) Read() (Times, bool) {
	var buf [512]byte // the first line is under 200 bytes
	n, err := syscall.Pread(r.fd, buf[:], 0)
	if err != nil || n <= 0 {
		return Times{}, false
	}
	return parse(buf[:n])
}

// Close closes the file.
func (r *Reader) Close() error { return syscall.Close(r.fd) }
