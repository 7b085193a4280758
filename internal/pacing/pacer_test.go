package pacing

import "testing"

func TestCapGrid(t *testing.T) {
	// A 100 ns period. With a 30 ns lead (presents paced) frames start 30
	// before deadlines 100 apart; one that asks after its start restarts
	// the grid a lead after it asked; a longer lead moves the starts, not
	// the deadlines. Without a lead (starts paced) one that asks 20 late
	// keeps its place (a start in the past, the same deadline); one more
	// than a period late restarts the grid where it asked.
	for _, tc := range []struct {
		name  string
		steps []struct{ now, lead, start, deadline int64 }
	}{
		{"lead", []struct{ now, lead, start, deadline int64 }{
			{1000, 30, 1000, 1030},
			{1010, 30, 1100, 1130},
			{1190, 30, 1200, 1230}, // early: wait for its start
			{1270, 50, 1280, 1330}, // a longer lead starts earlier
			{1385, 50, 1385, 1435}, // 5 late: restart
			{1400, 50, 1485, 1535},
		}},
		{"no lead", []struct{ now, lead, start, deadline int64 }{
			{1000, 0, 1000, 1000},
			{1010, 0, 1100, 1100},
			{1220, 0, 1200, 1200}, // 20 late: keeps its place
			{1310, 0, 1300, 1300},
			{1520, 0, 1520, 1520}, // more than a period late: restart
			{1530, 0, 1620, 1620},
		}},
	} {
		var g capGrid
		for _, st := range tc.steps {
			start, deadline := g.start(st.now, st.lead, 100)
			if start != st.start || deadline != st.deadline {
				t.Errorf("%s: start(%d, %d) = %d, %d; want %d, %d", tc.name, st.now, st.lead, start, deadline, st.start, st.deadline)
			}
		}
	}
}

func TestNextBlank(t *testing.T) {
	// Blanks every 16 ms from 100: a time on a blank waits for the next
	// one, a time between two for the second.
	for _, tc := range []struct{ t, want int64 }{
		{100, 116}, {101, 116}, {115, 116}, {116, 132}, {131, 132}, {1000, 1012},
	} {
		if got := nextBlank(100, tc.t, 16); got != tc.want {
			t.Errorf("nextBlank(100, %d, 16) = %d, want %d", tc.t, got, tc.want)
		}
	}
}
