package snapshot

import "testing"

func TestPairsFind(t *testing.T) {
	prev := []uint64{5, 0, 9, 7, 9}
	key := func(j int) uint64 { return prev[j] }
	var p Pairs
	for _, tc := range []struct {
		k      uint64
		i      int
		want   int
		wantOK bool
	}{
		{5, 0, 0, true},   // at its own index
		{7, 0, 3, true},   // moved: found through the table
		{9, 1, 2, true},   // a duplicated key: the first
		{0, 1, 0, false},  // key 0 has no partner, even where prev holds 0
		{42, 2, 0, false}, // not in prev
		{7, 9, 3, true},   // past prev's end
	} {
		got, ok := p.Find(tc.k, tc.i, len(prev), key)
		if got != tc.want || ok != tc.wantOK {
			t.Errorf("Find(%d at %d) = %d, %v; want %d, %v", tc.k, tc.i, got, ok, tc.want, tc.wantOK)
		}
	}
	// A new pair: Reset forgets the old table.
	prev = []uint64{1, 2, 3}
	p.Reset()
	if got, ok := p.Find(3, 0, len(prev), key); got != 2 || !ok {
		t.Errorf("after Reset, Find(3) = %d, %v; want 2, true", got, ok)
	}
	if _, ok := p.Find(7, 0, len(prev), key); ok {
		t.Error("after Reset, an old key is still found")
	}
}

func TestDrawCopyAllocs(t *testing.T) {
	var src, dst Draw
	for i := range 100 {
		src.Shapes = append(src.Shapes, Shape{Key: uint64(i + 1), Kind: ShapeCircle})
		src.Texts = append(src.Texts, TextRun{From: int32(i), To: int32(i + 1)})
		src.Chars = append(src.Chars, 'a')
	}
	src.Points = []float32{1, 2, 3, 4, 5, 6}
	src.Uniforms = []float32{0.5}
	dst.CopyFrom(&src)
	if n := testing.AllocsPerRun(10, func() { dst.CopyFrom(&src) }); n != 0 {
		t.Errorf("CopyFrom allocated %v times once warm", n)
	}
	if len(dst.Shapes) != 100 || dst.Shapes[99].Key != 100 || string(dst.Chars) != string(src.Chars) || dst.Uniforms[0] != 0.5 {
		t.Errorf("CopyFrom copied %d shapes, %q", len(dst.Shapes), dst.Chars)
	}
	var p Pairs
	key := func(j int) uint64 { return src.Shapes[j].Key }
	p.Find(50, 0, 100, key)
	if n := testing.AllocsPerRun(10, func() { p.Reset(); p.Find(50, 0, 100, key) }); n != 0 {
		t.Errorf("Find with its table allocated %v times once warm", n)
	}
}
