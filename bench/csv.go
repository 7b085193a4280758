package bench

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/tandem-engine/tandem/simthread"
)

// The CSV files hold the raw records, one row per record, so that outside
// tools can check every figure. Times are integer nanoseconds on the
// [snapshot.Now] time base; overdue is 0 or 1; an age of -1 means an
// earlier frame drew the snapshot already.
var (
	framesHeader = []string{"start_ns", "present_ns", "sim_shown_ns", "probe_x_px", "tick", "age_ns", "overdue", "delay_ns", "alpha", "decide_ns", "hold_ns"}
	ticksHeader  = []string{"tick", "due_ns", "start_ns", "end_ns"}
	// inputs.csv: one row per real key press a frame showed (see
	// [PressRow]); acked_ns is 0 where the server's answer is not known.
	pressesHeader = []string{"press_ns", "acked_ns", "down", "stamp_ns", "tick", "tick_start_ns", "decide_ns", "present_ns"}
)

// framesColumnsV1 is how many columns frames.csv had before decide_ns and
// hold_ns: such a file still reads, with those two 0.
const framesColumnsV1 = 9

// WriteFramesCSV writes frames as CSV with the header
// start_ns,present_ns,sim_shown_ns,probe_x_px,tick,age_ns,overdue,delay_ns,alpha,decide_ns,hold_ns.
// [ReadFramesCSV] reads it back exactly.
func WriteFramesCSV(w io.Writer, frames []FrameRecord) error {
	cw := csv.NewWriter(w)
	cw.Write(framesHeader)
	rec := make([]string, len(framesHeader))
	for _, f := range frames {
		overdue := "0"
		if f.Overdue {
			overdue = "1"
		}
		rec[0] = strconv.FormatInt(f.Start, 10)
		rec[1] = strconv.FormatInt(f.Present, 10)
		rec[2] = strconv.FormatInt(f.SimShown, 10)
		rec[3] = strconv.FormatFloat(f.ProbeX, 'g', -1, 64)
		rec[4] = strconv.FormatUint(f.Tick, 10)
		rec[5] = strconv.FormatInt(f.Age, 10)
		rec[6] = overdue
		rec[7] = strconv.FormatInt(f.Delay, 10)
		rec[8] = strconv.FormatFloat(float64(f.Alpha), 'g', -1, 32)
		rec[9] = strconv.FormatInt(f.Decide, 10)
		rec[10] = strconv.FormatInt(f.Hold, 10)
		cw.Write(rec)
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("bench: write frames csv: %w", err)
	}
	return nil
}

// WriteTicksCSV writes ticks as CSV with the header
// tick,due_ns,start_ns,end_ns. [ReadTicksCSV] reads it back exactly.
func WriteTicksCSV(w io.Writer, ticks []simthread.TickRecord) error {
	cw := csv.NewWriter(w)
	cw.Write(ticksHeader)
	rec := make([]string, len(ticksHeader))
	for _, t := range ticks {
		rec[0] = strconv.FormatUint(t.Tick, 10)
		rec[1] = strconv.FormatInt(t.Due, 10)
		rec[2] = strconv.FormatInt(t.Start, 10)
		rec[3] = strconv.FormatInt(t.End, 10)
		cw.Write(rec)
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("bench: write ticks csv: %w", err)
	}
	return nil
}

// WritePressesCSV writes rows as CSV with the header
// press_ns,acked_ns,down,stamp_ns,tick,tick_start_ns,decide_ns,present_ns.
// [ReadPressesCSV] reads it back exactly.
func WritePressesCSV(w io.Writer, rows []PressRow) error {
	cw := csv.NewWriter(w)
	cw.Write(pressesHeader)
	rec := make([]string, len(pressesHeader))
	for _, r := range rows {
		rec[0] = strconv.FormatInt(r.At, 10)
		rec[1] = strconv.FormatInt(r.Acked, 10)
		rec[2] = "0"
		if r.Down {
			rec[2] = "1"
		}
		rec[3] = strconv.FormatInt(r.Stamp, 10)
		rec[4] = strconv.FormatUint(r.Tick, 10)
		rec[5] = strconv.FormatInt(r.TickStart, 10)
		rec[6] = strconv.FormatInt(r.Decide, 10)
		rec[7] = strconv.FormatInt(r.Present, 10)
		cw.Write(rec)
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("bench: write inputs csv: %w", err)
	}
	return nil
}

// ReadPressesCSV reads press rows in the form [WritePressesCSV] writes.
// An error names the line it is on; the caller adds the file's name.
func ReadPressesCSV(r io.Reader) ([]PressRow, error) {
	var out []PressRow
	err := readCSV(r, "inputs", pressesHeader, len(pressesHeader), func(rec []string, p *fieldParser) {
		out = append(out, PressRow{
			Press:     Press{At: p.int(rec, 0), Acked: p.int(rec, 1), Down: p.bool(rec, 2)},
			Stamp:     p.int(rec, 3),
			Tick:      p.uint(rec, 4),
			TickStart: p.int(rec, 5),
			Decide:    p.int(rec, 6),
			Present:   p.int(rec, 7),
		})
	})
	return out, err
}

// ReadFramesCSV reads frame records in the form [WriteFramesCSV] writes,
// or in the form before decide_ns and hold_ns (those read as 0). An error
// names the line it is on; the caller adds the file's name.
func ReadFramesCSV(r io.Reader) ([]FrameRecord, error) {
	var out []FrameRecord
	err := ScanFramesCSV(r, func(f FrameRecord) { out = append(out, f) })
	return out, err
}

// ScanFramesCSV is ReadFramesCSV calling fn with each record in turn,
// holding none: its memory is bounded whatever the file holds.
func ScanFramesCSV(r io.Reader, fn func(FrameRecord)) error {
	return readCSV(r, "frames", framesHeader, framesColumnsV1, func(rec []string, p *fieldParser) {
		f := FrameRecord{
			Start:    p.int(rec, 0),
			Present:  p.int(rec, 1),
			SimShown: p.int(rec, 2),
			ProbeX:   p.float(rec, 3),
			Tick:     p.uint(rec, 4),
			Age:      p.int(rec, 5),
			Overdue:  p.bool(rec, 6),
			Delay:    p.int(rec, 7),
			Alpha:    float32(p.float(rec, 8)),
		}
		if len(rec) > framesColumnsV1 {
			f.Decide, f.Hold = p.int(rec, 9), p.int(rec, 10)
		}
		if p.err == nil {
			fn(f)
		}
	})
}

// ReadTicksCSV reads tick records in the form [WriteTicksCSV] writes. An
// error names the line it is on; the caller adds the file's name.
func ReadTicksCSV(r io.Reader) ([]simthread.TickRecord, error) {
	var out []simthread.TickRecord
	err := ScanTicksCSV(r, func(t simthread.TickRecord) { out = append(out, t) })
	return out, err
}

// ScanTicksCSV is ReadTicksCSV calling fn with each record in turn,
// holding none.
func ScanTicksCSV(r io.Reader, fn func(simthread.TickRecord)) error {
	return readCSV(r, "ticks", ticksHeader, len(ticksHeader), func(rec []string, p *fieldParser) {
		t := simthread.TickRecord{
			Tick:  p.uint(rec, 0),
			Due:   p.int(rec, 1),
			Start: p.int(rec, 2),
			End:   p.int(rec, 3),
		}
		if p.err == nil {
			fn(t)
		}
	})
}

// readCSV reads a CSV with the given header, or with its first oldest
// columns (an older version's file), and calls row for every record after
// it. It stops at the first error: the reader's, or the first field row
// could not parse.
func readCSV(r io.Reader, kind string, header []string, oldest int, row func([]string, *fieldParser)) error {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1 // until the header is checked
	cr.ReuseRecord = true
	rec, err := cr.Read()
	switch {
	case err == io.EOF:
		return fmt.Errorf("bench: %s csv: empty, want the header %q", kind, header)
	case err != nil:
		return fmt.Errorf("bench: %s csv: %w", kind, err)
	case !slices.Equal(rec, header) && !slices.Equal(rec, header[:oldest]):
		return fmt.Errorf("bench: %s csv line 1: header %q, want %q", kind, clip(strings.Join(rec, ",")), strings.Join(header, ","))
	}
	cr.FieldsPerRecord = len(rec)
	var p fieldParser
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			// A csv.ParseError names its line.
			return fmt.Errorf("bench: %s csv: %w", kind, err)
		}
		row(rec, &p)
		if p.err != nil {
			line, _ := cr.FieldPos(p.col)
			return fmt.Errorf("bench: %s csv line %d: %s: %w", kind, line, header[p.col], p.err)
		}
	}
}

// fieldParser parses the fields of a record and keeps the first error and
// its column.
type fieldParser struct {
	err error
	col int
}

func (p *fieldParser) fail(col int, err error) {
	if p.err == nil {
		if ne := (*strconv.NumError)(nil); errors.As(err, &ne) {
			ne.Num = clip(ne.Num)
		}
		p.err, p.col = err, col
	}
}

// clipLen is how much of a field from a file an error quotes.
const clipLen = 64

// clip is s cut to clipLen bytes, with "..." where it was cut: a file
// may hold a field of megabytes, and an error quotes what it shows.
func clip(s string) string {
	if len(s) <= clipLen {
		return s
	}
	return s[:clipLen] + "..."
}

func (p *fieldParser) int(rec []string, col int) int64 {
	v, err := strconv.ParseInt(rec[col], 10, 64)
	if err != nil {
		p.fail(col, err)
	}
	return v
}

func (p *fieldParser) uint(rec []string, col int) uint64 {
	v, err := strconv.ParseUint(rec[col], 10, 64)
	if err != nil {
		p.fail(col, err)
	}
	return v
}

func (p *fieldParser) float(rec []string, col int) float64 {
	v, err := strconv.ParseFloat(rec[col], 64)
	if err != nil {
		p.fail(col, err)
	}
	return v
}

func (p *fieldParser) bool(rec []string, col int) bool {
	switch rec[col] {
	case "0":
		return false
	case "1":
		return true
	}
	p.fail(col, errors.New("not 0 or 1: "+strconv.Quote(clip(rec[col]))))
	return false
}
