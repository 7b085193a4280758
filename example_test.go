//go:build cgo

package tandem_test

import (
	"context"
	"errors"
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

// Run runs a game from a program, with typed settings. Its errors can be
// told apart: a machine without a display or OpenGL 4.1 is a sentinel,
// a bad setting a *ConfigError. (Not run here: it opens a window.)
func ExampleRun() {
	ctx, stop := context.WithTimeout(context.Background(), 10*time.Second)
	defer stop()
	err := tandem.Run(ctx, &ball{}, tandem.Config{
		Title:      "ball",
		Hz:         120,
		Screenshot: "ball.png",
		JSON:       true,
		HUD:        true,
		Pacing:     tandem.Pacing{FPSCap: 144},
	})
	var bad *tandem.ConfigError
	switch {
	case errors.Is(err, tandem.ErrNoDisplay):
		fmt.Println("no display: run it under xvfb-run")
	case errors.As(err, &bad):
		fmt.Println("fix Config." + bad.Field)
	case err != nil:
		fmt.Println(err)
	}
}
