package bench

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// The recommendation that ends each load of "## Which loop", and the notes
// around the verdicts.

// recommend writes a sentence or two from a load's verdicts: the loops
// behind another on the fewest figures, together (a set, not one winner,
// when the reps cannot tell them apart), what they were found level on
// and what the reps could not tell, and what each other loop is behind
// on; a loop that falls behind on time (a slideshow) is never recommended.
func recommend(vs []figureVerdict) string {
	var loops, slideshows []string
	behindOn := map[string][]string{} // loop -> figures it is behind on, once each
	count := map[string]int{}         // loop -> verdicts it is behind in
	compared := 0
	for _, v := range vs {
		if len(v.loops) < 2 {
			continue
		}
		compared++
		for _, l := range v.slideshows {
			if !slices.Contains(slideshows, l) {
				slideshows = append(slideshows, l)
			}
		}
		for _, l := range v.loops {
			if !slices.Contains(loops, l.Loop) {
				loops = append(loops, l.Loop)
			}
			if v.isBehind(l.Loop) {
				count[l.Loop]++
				if !slices.Contains(behindOn[l.Loop], v.fig.name) {
					behindOn[l.Loop] = append(behindOn[l.Loop], v.fig.name)
				}
			}
		}
	}
	slices.Sort(loops)
	var s string
	if len(count) == 0 {
		level, unsure := wordsAmong(vs, loops)
		s = fmt.Sprintf("no loop is behind another on any of the %d figures compared: %s. ", compared, levelText(level, unsure)) +
			"Level is not \"the same\" where the reps cannot tell: run more reps (-reps auto) before choosing, or choose on other grounds."
	} else {
		s = recommendSet(vs, loops, slideshows, behindOn, count, compared)
	}
	if len(slideshows) > 0 {
		s += fmt.Sprintf(" Not %s: under this load each showed the right picture less than %d%% of the display time where another loop kept it %d%% or more (on_time_pct), a slideshow, whatever it wins.",
			strings.Join(slideshows, " nor "), behindPct, keptPct)
	}
	return s
}

// wordsAmong counts the pairs among set's loops, over vs, found level and
// those the reps cannot tell.
func wordsAmong(vs []figureVerdict, set []string) (level, unsure int) {
	for _, v := range vs {
		for _, p := range v.pairs {
			if !slices.Contains(set, p.a.Loop) || !slices.Contains(set, p.b.Loop) {
				continue
			}
			switch p.word {
			case Level:
				level++
			case CannotTell:
				unsure++
			}
		}
	}
	return level, unsure
}

// levelText says how many comparisons were level and how many the reps
// could not tell.
func levelText(level, unsure int) string {
	return fmt.Sprintf("level within the margin in %d of their comparisons, and the reps cannot tell in %d", level, unsure)
}

// recommendSet names the loops, slideshows left out, that are behind in
// the fewest verdicts, what is known between them, then what every other
// loop is behind on.
func recommendSet(vs []figureVerdict, loops, slideshows []string, behindOn map[string][]string, count map[string]int, compared int) string {
	fewest := math.MaxInt
	for _, l := range loops {
		if !slices.Contains(slideshows, l) {
			fewest = min(fewest, count[l])
		}
	}
	var set, others []string
	for _, l := range loops {
		switch {
		case !slices.Contains(slideshows, l) && count[l] == fewest:
			set = append(set, l)
		case count[l] > 0:
			others = append(others, fmt.Sprintf("%s is behind in %d (%s)", l, count[l], strings.Join(behindOn[l], ", ")))
		}
	}
	if len(set) == 0 {
		return "every loop is a slideshow under this load."
	}
	var s string
	switch {
	case fewest == 0 && len(set) == 1:
		s = fmt.Sprintf("use the %s loop: it is behind no other loop on any of the %d figures compared", set[0], compared)
	case fewest == 0:
		level, unsure := wordsAmong(vs, set)
		s = fmt.Sprintf("use the %s loop: none of %s is behind another on any of the %d figures compared; between them, %s",
			orList(set, "or"), orList(set, "and"), compared, levelText(level, unsure))
	default:
		var each []string
		for _, l := range set {
			each = append(each, fmt.Sprintf("%s on %s", l, strings.Join(behindOn[l], ", ")))
		}
		n := fmt.Sprint(fewest)
		if len(set) > 1 {
			n += " each"
		}
		s = fmt.Sprintf("use the %s loop: behind another in the fewest of the %d figures compared (%s: %s); where what matters most is one of those, take a loop not behind on it",
			orList(set, "or"), compared, n, strings.Join(each, "; "))
	}
	if len(others) > 0 {
		s += "; " + strings.Join(others, "; ")
	}
	return s + "."
}

// orList joins names as "a", "a or b", "a, b or c" (with conj for "or").
func orList(names []string, conj string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " " + conj + " " + names[len(names)-1]
}

// inputNote says where the reps' input latency was measured from.
func inputNote(results []Result) string {
	n := map[string]int{}
	var srcs []string
	for _, r := range results {
		s := r.Summary.InputSource
		if s == "" {
			s = "unknown"
		}
		if n[s] == 0 {
			srcs = append(srcs, s)
		}
		n[s]++
	}
	var parts []string
	for _, s := range srcs {
		parts = append(parts, fmt.Sprintf("%s in %d of %d runs", s, n[s], len(results)))
	}
	note := "Input source: " + strings.Join(parts, ", ") + "."
	if n["synthetic"] > 0 {
		note += " A synthetic button is stamped when a frame polls, so its latency leaves out the wait for the poll, which the threaded loop removes: compare loops' input latency on xtest runs (-input xtest)."
	}
	return note
}

// fmtFig prints a figure with about four significant digits.
func fmtFig(v float64) string {
	switch a := math.Abs(v); {
	case a >= 100:
		return fmt.Sprintf("%.1f", v)
	case a >= 10:
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.3f", v)
}
