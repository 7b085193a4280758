package cli

import "testing"

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"plain: no such file":         "plain: no such file",
		"two\nlines\tand a tab":       "two\nlines\tand a tab",
		"open f/\x1b]0;PWNED\a":       `open f/\x1b]0;PWNED\a`,
		"\x1b[2J\x1b[32mverified":     `\x1b[2J\x1b[32mverified`,
		"bidi \u202egnp.exe":          `bidi \u202egnp.exe`,
		"C1 \u009b31m, bad byte \xff": `C1 \u009b31m, bad byte ` + "\ufffd",
		`C:\shots\a.png "quoted"`:     `C:\shots\a.png "quoted"`,
	} {
		if got := printable(in); got != want {
			t.Errorf("printable(%q) = %q, want %q", in, got, want)
		}
	}
}
