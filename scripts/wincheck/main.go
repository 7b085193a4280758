// Command wincheck checks what scripts/windows-test's runs wrote: a run's
// JSON summary and a screenshot. It is a test tool, not part of tandem.
//
//	wincheck json FILE [FIELD=VALUE]...  check the summary, print its state_hash
//	wincheck png FILE                    check the PNG is a picture, not one colour
//	wincheck whole FILE                  check the PNG decodes (was written whole)
//
// The summary must be one JSON object from a run that drew frames and
// ticked; each FIELD=VALUE must match the field's value as JSON prints it
// (strings unquoted), and FIELD=">0" wants a number above 0. Exit status 1 says what did not hold.
package main

import (
	"encoding/json"
	"fmt"
	"image"
	_ "image/png"
	"os"
	"strings"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: wincheck json FILE [FIELD=VALUE]... | wincheck png|whole FILE")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "json":
		err = checkJSON(os.Args[2], os.Args[3:])
	case "png":
		err = checkPNG(os.Args[2], true)
	case "whole":
		err = checkPNG(os.Args[2], false)
	default:
		err = fmt.Errorf("unknown check %q: want json or png", os.Args[1])
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "wincheck: %v\n", err)
		os.Exit(1)
	}
}

// checkJSON checks the summary in file (its last line holding a JSON
// object) and prints its state_hash.
func checkJSON(file string, want []string) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var line string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if strings.HasPrefix(l, "{") {
			line = l
		}
	}
	var sum map[string]any
	if err := json.Unmarshal([]byte(line), &sum); err != nil {
		return fmt.Errorf("%s: no JSON summary line: %v", file, err)
	}
	if n, _ := sum["ticks"].(float64); n <= 0 {
		return fmt.Errorf("%s: ticks %v: the sim did not run", file, sum["ticks"])
	}
	if h, _ := sum["state_hash"].(string); h == "" {
		return fmt.Errorf("%s: no state_hash", file)
	}
	for _, w := range want {
		field, value, _ := strings.Cut(w, "=")
		v, present := sum[field]
		got := fmt.Sprint(v)
		if present && v == nil {
			got = "null" // not measured
		}
		if strings.HasPrefix(value, ">") {
			if n, ok := sum[field].(float64); !ok || n <= 0 {
				return fmt.Errorf("%s: %s is %s, want more than 0", file, field, got)
			}
			continue
		}
		if got != value {
			return fmt.Errorf("%s: %s is %s, want %s", file, field, got, value)
		}
	}
	fmt.Println(sum["state_hash"])
	return nil
}

// checkPNG checks that file is a PNG of at least 64 x 64 pixels and, if
// picture, that it has at least 16 colours and 2000 pixels not of its
// commonest: a scene, not a cleared or blank buffer, or one with a line of
// text on it. (The shooter's sky covers nearly all of its screenshot: its
// sprites are small.)
func checkPNG(file string, picture bool) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		return fmt.Errorf("%s: %v", file, err)
	}
	b := img.Bounds()
	if b.Dx() < 64 || b.Dy() < 64 {
		return fmt.Errorf("%s: %dx%d: too small for a screenshot", file, b.Dx(), b.Dy())
	}
	if !picture {
		return nil
	}
	count := map[[4]uint32]int{}
	most := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			k := [4]uint32{r, g, bl, a}
			count[k]++
			most = max(most, count[k])
		}
	}
	total := b.Dx() * b.Dy()
	if len(count) < 16 || total-most < 2000 {
		return fmt.Errorf("%s: %d colours, the commonest on %d of %d pixels: not a picture of the scene", file, len(count), most, total)
	}
	return nil
}
