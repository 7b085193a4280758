package pulse

import (
	"io"

	"github.com/tandem-engine/tandem/audio/internal/pulse/proto"
)

// A Reader provides audio data in a specific format.
type Reader interface {
	io.Reader
	Format() byte // Format should return one of the format constants defined by the proto package
}

func bytes(f byte) int {
	switch f {
	case proto.FormatUint8:
		return 1
	case proto.FormatInt16LE, proto.FormatInt16BE:
		return 2
	case proto.FormatInt32LE, proto.FormatInt32BE, proto.FormatFloat32LE, proto.FormatFloat32BE:
		return 4
	}
	panic("pulse: invalid format")
}
