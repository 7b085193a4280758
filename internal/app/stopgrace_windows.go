package app

import "time"

// Closing the console window reaches Go as SIGTERM, and Windows ends the
// process about 5 s later whatever it is doing: a stop's grace of 3 s
// leaves the watchdog time to write the recording's end and the summary.
const stopGrace = 3 * time.Second
