package snapshot

import (
	"strconv"
	"testing"

	"github.com/tandem-engine/tandem/internal/mallocs"
)

func TestText(t *testing.T) {
	var a, b Text
	a.Add(1, 2, White, "hits ")
	a.AddBytes(3, 4, 0xFF0000FF, []byte("42"))
	b.CopyFrom(&a)
	line := func(x *Text, i int) string { return string(x.Chars[x.Lines[i].From:x.Lines[i].To]) }
	if len(b.Lines) != 2 || line(&b, 0) != "hits " || line(&b, 1) != "42" || b.Lines[1].X != 3 || b.Lines[1].Tint != 0xFF0000FF {
		t.Fatalf("copy: %+v", b)
	}
	a.Reset()
	b.CopyFrom(&a)
	if len(b.Lines) != 0 || len(b.Chars) != 0 {
		t.Fatalf("copy of an empty text: %+v", b)
	}
	// A score that grows by a digit now and then, copied into a snapshot
	// each tick: no allocation once both have text.
	// The count is the whole process's, and under -race other packages'
	// tests run beside this one: the quietest of three tries.
	buf := make([]byte, 0, 32)
	n := mallocs.Fewest(3, func() {
		for i := range 10_000 {
			a.Reset()
			buf = strconv.AppendInt(append(buf[:0], "score "...), int64(i*i), 10)
			a.AddBytes(0, 0, White, buf)
			a.Add(0, 20, White, "lives 3")
			b.CopyFrom(&a)
		}
	})
	if n != 0 {
		t.Fatalf("10,000 ticks of text allocated %d times", n)
	}
}
