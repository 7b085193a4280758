package hoststat

import "syscall"

// Reader reads /proc/stat. The file and the buffer stay: opening allocates
// (the path is converted for the system call), reading again does not.
type Reader struct {
	fd  int
	buf [512]byte // the first line is under 200 bytes
}

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
	n, err := syscall.Pread(r.fd, r.buf[:], 0)
	if err != nil || n <= 0 {
		return Times{}, false
	}
	return parse(r.buf[:n])
}

// Close closes the file.
func (r *Reader) Close() error { return syscall.Close(r.fd) }
