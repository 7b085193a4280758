package bench

// -reps auto's looks: the verdict judged again after every rep, each look
// at its share of the level.

// Looks is the schedule of -reps auto's looks at a sweep's reps: the
// first after First reps, then each after half again as many reps as the
// one before, up to Max ([Looks.Reps]), the look after n reps at
// Alpha(n). A pair of loops (or -scaling's count) is decided at the first
// look that finds it behind or level (at least the bar or below it), and
// stays so: a later look, at its smaller share, does not undo
// it. Over all the looks the chance of calling a loop behind by chance
// stays within [Alpha] (the shares add up to it); few looks, each at a
// larger share than a look after every rep would get.
type Looks struct{ First, Max int }

// Reps returns the reps after which the looks are: First, then about 1.5
// times the one before, the last Max (6, 9, 14, 21, 30).
func (l Looks) Reps() []int {
	out := []int{l.First}
	for n := l.First; n < l.Max; {
		n = min(l.Max, max(n+1, (3*n+1)/2))
		out = append(out, n)
	}
	return out
}

// Alpha returns the level of the look after n reps, or of the last look
// before it: [LookAlpha] of its place among the looks.
func (l Looks) Alpha(n int) float64 {
	reps := l.Reps()
	k := 0
	for i, r := range reps {
		if r <= n {
			k = i
		}
	}
	return LookAlpha(k, len(reps))
}

// IsLook reports whether a look falls after n reps.
func (l Looks) IsLook(n int) bool {
	for _, r := range l.Reps() {
		if r == n {
			return true
		}
	}
	return false
}

// judge returns fig's verdict in c: at Alpha when looks is nil; otherwise
// each pair as the first look that decided it found it, with the reps it
// took, or as the last look finds it when none did.
func judge(c *Cell, fig decideFigure, looks *Looks) figureVerdict {
	if looks == nil {
		return verdict(c, fig, Alpha)
	}
	reps := 0
	for _, l := range c.Loops {
		for _, r := range l.Results {
			reps = max(reps, r.Rep+1)
		}
	}
	decided := map[[2]string]pairVerdict{}
	var last figureVerdict
	for i, n := range looks.Reps() {
		if i > 0 && n > reps {
			break // a look not reached; before the first, all there is
		}
		last = verdict(prefix(c, n), fig, looks.Alpha(n))
		for _, p := range last.pairs {
			k := [2]string{p.a.Loop, p.b.Loop}
			if _, ok := decided[k]; !ok && p.word != CannotTell {
				p.look = n
				decided[k] = p
			}
		}
	}
	for i, p := range last.pairs {
		if d, ok := decided[[2]string{p.a.Loop, p.b.Loop}]; ok {
			last.pairs[i] = d
		}
	}
	return last
}

// prefix returns c with the reps before n only, loops with none left out.
func prefix(c *Cell, n int) *Cell {
	out := &Cell{SimCost: c.SimCost, Sprites: c.Sprites, RenderCost: c.RenderCost, Knobs: c.Knobs}
	for _, l := range c.Loops {
		pl := &CellLoop{Loop: l.Loop}
		for _, r := range l.Results {
			if r.Rep < n {
				pl.Results = append(pl.Results, r)
			}
		}
		if len(pl.Results) > 0 {
			out.Loops = append(out.Loops, pl)
		}
	}
	return out
}
