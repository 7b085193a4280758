// Copyright 2022 The Oto Authors
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//     http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

// tandem: the COM thread of oto v3.5.0's driver_wasapi_windows.go, as it
// was; the rest of that driver is Stream (stream_windows.go), rewritten.

package wasapi

import (
	"errors"
	"runtime"
	"sync"
	"syscall"

	"golang.org/x/sys/windows"
)

type comThread struct {
	funcCh chan func()
	done   chan struct{}

	stopped bool
	m       sync.Mutex
}

func newCOMThread() (*comThread, error) {
	funcCh := make(chan func())
	errCh := make(chan error)
	done := make(chan struct{})
	go func() {
		defer close(done)
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()

		// S_FALSE is returned when CoInitializeEx is nested. This is a successful case.
		if err := windows.CoInitializeEx(0, windows.COINIT_MULTITHREADED); err != nil && !errors.Is(err, syscall.Errno(windows.S_FALSE)) {
			errCh <- err
			return
		}
		// CoUninitialize should be called even when CoInitializeEx returns S_FALSE.
		defer windows.CoUninitialize()

		close(errCh)

		for f := range funcCh {
			f()
		}
	}()

	if err := <-errCh; err != nil {
		return nil, err
	}

	return &comThread{
		funcCh: funcCh,
		done:   done,
	}, nil
}

// Run calls f on the COM thread and waits for it. f is not called after Stop.
func (c *comThread) Run(f func()) {
	c.m.Lock()
	defer c.m.Unlock()

	if c.stopped {
		return
	}

	ch := make(chan struct{})
	c.funcCh <- func() {
		f()
		close(ch)
	}
	<-ch
}

// Stop terminates the COM thread. Stop must not be called on the COM thread.
func (c *comThread) Stop() {
	c.m.Lock()
	defer c.m.Unlock()

	if c.stopped {
		return
	}
	c.stopped = true
	close(c.funcCh)
	<-c.done
}
