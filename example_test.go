//go:build cgo

package tandem_test

import (
	"context"
	"fmt"
	"time"

	"github.com/tandem-engine/tandem"
)

// A program's main hands its games to Main, which gives them tandem's
// command line: run (the default), bench and replay, with every flag.
// With several games, -scene picks one. (Not run here: it opens a
// window.)
func ExampleMain() {
	tandem.Main(&ball{})
}

// Run runs a game from a program, with the command line's settings as
// fields. Its error names what to fix. (Not run here: it opens a window.)
func ExampleRun() {
	ctx, stop := context.WithTimeout(context.Background(), 10*time.Second)
	defer stop()
	err := tandem.Run(ctx, &ball{}, tandem.Config{
		Title:      "ball",
		Hz:         120,
		Screenshot: "ball.png",
		JSON:       true,
		Args:       []string{"-interp-delay", "auto", "-hud"},
	})
	if err != nil {
		fmt.Println(err)
	}
}
