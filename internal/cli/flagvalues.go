package cli

// The values the flags parse into that need more than the flag package's:
// a hitch, a cost, a rate, a duration in seconds.

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tandem-engine/tandem/internal/app"
)

// parseHitch parses WHO:EVERY:DURATION.
func parseHitch(s string) (app.Hitch, error) {
	const form = "want WHO:EVERY:DURATION with WHO sim or render, e.g. sim:2s:120ms"
	p := strings.Split(s, ":")
	if len(p) != 3 {
		return app.Hitch{}, errors.New(form)
	}
	h := app.Hitch{Who: p[0]}
	if h.Who != "sim" && h.Who != "render" {
		return app.Hitch{}, fmt.Errorf("%q is not a thread: %s", h.Who, form)
	}
	var err error
	if h.Every, err = time.ParseDuration(p[1]); err != nil || h.Every <= 0 {
		return app.Hitch{}, fmt.Errorf("every %q: want a positive duration: %s", p[1], form)
	}
	if h.Duration, err = time.ParseDuration(p[2]); err != nil || h.Duration <= 0 || h.Duration > time.Minute {
		return app.Hitch{}, fmt.Errorf("duration %q: want a positive duration up to 1m: %s", p[2], form)
	}
	return h, nil
}

// parseCost parses a busy-work duration: 0 to 1 s.
func parseCost(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 || d > time.Second {
		return 0, errors.New("want a duration from 0 to 1s, e.g. 14ms or 500us")
	}
	return d, nil
}

// parseRate parses -gcload: megabytes a second, 0 to 10000.
func parseRate(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v >= 0 && v <= 10_000) {
		return 0, errors.New("want megabytes a second from 0 to 10000, e.g. 200")
	}
	return v, nil
}

// seconds is a flag given in seconds (2.5) and held as a Duration.
type seconds struct{ d *time.Duration }

func (v seconds) String() string {
	if v.d == nil {
		return "0"
	}
	return strconv.FormatFloat(v.d.Seconds(), 'g', -1, 64)
}

// Set takes a number of seconds; explainFlagError words its errors, as
// it does the flag package's own for a number.
func (v seconds) Set(s string) error {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return errors.New("parse error")
	}
	d, err := app.SecondsOf(f)
	if err != nil {
		return errors.New("value out of range")
	}
	*v.d = d
	return nil
}
